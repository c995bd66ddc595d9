/**
 * Which action and provider a request path names, relative to `basePath`.
 * @module
 */
import { isAuthAction, isServedAction, type AuthAction, type OptInRoutes } from "./auth-action.js"

/** An auth route: the action, and the provider id for the actions that take one. */
export interface Route {
  action: AuthAction
  providerId: string | undefined
}

const TAKES_PROVIDER: ReadonlySet<AuthAction> = new Set<AuthAction>(["signin", "callback", "webauthn-options", "link", "backchannel-logout"])

/**
 * The route `pathname` names under `basePath`, or `undefined` when it names none.
 *
 * A plain prefix comparison, never a RegExp built from `basePath`, so a base path containing
 * `.`, `+` or `(` means itself. The base path must end at a `/` (`/authsignin` is not under
 * `/auth`); repeated and trailing slashes after it are tolerated. The opt-in routes (account
 * pages, back-channel logout) are routes only when `optIn` (the configuration) turns them on.
 *
 * @example
 * ```ts
 * parseRoute("/auth/signin/github/", "/auth") // { action: "signin", providerId: "github" }
 * parseRoute("/auth/nope", "/auth") // undefined
 * ```
 */
export function parseRoute(pathname: string, basePath: string, optIn?: OptInRoutes): Route | undefined {
  const base = basePath === "/" ? "" : basePath
  if (!pathname.startsWith(`${base}/`)) return undefined
  const tail = pathname.slice(base.length + 1)
  // A lone action (every session check) needs no split; repeated or trailing slashes take the general way.
  const segments = tail.includes("/") ? tail.split("/").filter(Boolean) : tail === "" ? [] : [tail]
  const [action, provider] = segments
  if (!action || segments.length > 2 || !isAuthAction(action) || !isServedAction(action, optIn)) return undefined
  if (provider === undefined) return { action, providerId: undefined }
  if (!TAKES_PROVIDER.has(action)) return undefined
  let providerId: string
  try {
    providerId = decodeURIComponent(provider)
  } catch {
    return undefined
  }
  // Auth.js clients build `/signin/${id}` from an unset id; treat that as no provider.
  return { action, providerId: providerId === "undefined" ? undefined : providerId }
}
