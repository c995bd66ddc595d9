/**
 * Which action and provider a request path names, relative to `basePath`.
 * @module
 */
import { isAuthAction, isServedAction, isTwoFactorSubPath, type AuthAction, type OptInRoutes, type TwoFactorSubPath } from "./auth-action.js"

/** An auth route: the action, the provider id for the actions that take one, and a two-factor route's sub-path. */
export interface Route {
  action: AuthAction
  providerId: string | undefined
  /** Below `two-factor` only: which of its routes (`totp`, `totp/confirm`, …). */
  subPath?: TwoFactorSubPath
  /** Below `organizations` and `admin` only: the segments after the action, as sent (not decoded). */
  segments?: readonly string[]
}

/** Sub-path segments the organization and admin routes take at most (`organizations/<id>/members/<user>`). */
const MAX_SEGMENTS = 4

const TAKES_PROVIDER: ReadonlySet<AuthAction> = new Set<AuthAction>(["signin", "callback", "webauthn-options", "link", "backchannel-logout"])

/**
 * The route `pathname` names under `basePath`, or `undefined` when it names none.
 *
 * A plain prefix comparison, never a RegExp built from `basePath`, so a base path containing
 * `.`, `+` or `(` means itself. The base path must end at a `/` (`/authsignin` is not under
 * `/auth`); repeated and trailing slashes after it are tolerated. The opt-in routes (account
 * pages, back-channel logout, two-factor) are routes only when `optIn` (the configuration) turns them on.
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
  if (action === "two-factor") return twoFactorRoute(segments, optIn)
  if (action === "organizations" || action === "admin") {
    if (!isServedAction(action, optIn) || segments.length > MAX_SEGMENTS + 1) return undefined
    return { action, providerId: undefined, segments: segments.slice(1) }
  }
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

/**
 * `two-factor` and the routes below it (up to `two-factor/totp/confirm`), when served. Segments
 * are compared as they are, not decoded: no encoded spelling names a two-factor route.
 */
function twoFactorRoute(segments: string[], optIn: OptInRoutes | undefined): Route | undefined {
  if (!isServedAction("two-factor", optIn) || segments.length > 3) return undefined
  if (segments.length === 1) return { action: "two-factor", providerId: undefined }
  const subPath = segments.slice(1).join("/")
  return isTwoFactorSubPath(subPath) ? { action: "two-factor", providerId: undefined, subPath } : undefined
}
