/**
 * The actions the auth routes answer, i.e. the first path segment under `basePath`.
 * @module
 */

import type { AuthAction } from "../auth-routes.js"

export type { AuthAction }

const actions: ReadonlySet<string> = new Set<AuthAction>([
  "accounts",
  "backchannel-logout",
  "callback",
  "csrf",
  "error",
  "link",
  "providers",
  "session",
  "sessions",
  "signin",
  "signout",
  "verify-request",
  "webauthn-options",
])

/**
 * Whether `action` names an auth route.
 *
 * @example
 * ```ts
 * isAuthAction("signin") // true
 * isAuthAction("login") // false
 * ```
 */
export function isAuthAction(action: string): action is AuthAction {
  return actions.has(action)
}

/** Which of the opt-in routes a configuration serves (see `AuthConfig.account` and `backchannelLogout`). */
export interface OptInRoutes {
  /** `account.routes`: `sessions`, `accounts`, `link/<provider>`. */
  readonly account?:
    | {
        /** Whether the account routes are served. */
        readonly routes?: boolean | undefined
      }
    | undefined
  /** `backchannel-logout/<provider>`. */
  readonly backchannelLogout?: boolean | undefined
}

const ACCOUNT_ACTIONS: ReadonlySet<AuthAction> = new Set<AuthAction>(["accounts", "sessions", "link"])

/**
 * Whether `action` is served under `optIn`: the account routes and the back-channel logout
 * receiver only when the configuration turns them on, so a path of the app's own below the base
 * path (its `/auth/sessions` page) is not taken from it by default.
 */
export function isServedAction(action: AuthAction, optIn: OptInRoutes | undefined): boolean {
  if (ACCOUNT_ACTIONS.has(action)) return optIn?.account?.routes === true
  if (action === "backchannel-logout") return optIn?.backchannelLogout === true
  return true
}
