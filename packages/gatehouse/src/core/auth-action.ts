/**
 * The actions the auth routes answer, i.e. the first path segment under `basePath`.
 * @module
 */

import type { AuthAction, TwoFactorSubPath } from "../auth-routes.js"

export type { AuthAction, TwoFactorSubPath }

const actions: ReadonlySet<string> = new Set<AuthAction>([
  "accounts",
  "admin",
  "backchannel-logout",
  "callback",
  "csrf",
  "error",
  "link",
  "organizations",
  "providers",
  "session",
  "sessions",
  "signin",
  "signout",
  "two-factor",
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

/** Which of the opt-in routes a configuration serves (see `AuthConfig.account`, `backchannelLogout` and `twoFactor`). */
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
  /** `two-factor` and the routes below it: served when this is an object (`twoFactor` configured). */
  readonly twoFactor?: unknown
  /** `organizations` and the routes below it: `organizations.routes`. */
  readonly organizations?: {
    /** Whether the routes are served. */
    readonly routes?: boolean | undefined
  } | undefined
  /** `admin` and the routes below it: `admin.routes`. */
  readonly admin?: {
    /** Whether the routes are served. */
    readonly routes?: boolean | undefined
  } | undefined
}

const ACCOUNT_ACTIONS: ReadonlySet<AuthAction> = new Set<AuthAction>(["accounts", "sessions", "link"])

/**
 * Whether `action` is served under `optIn`: the account routes, the back-channel logout
 * receiver and the two-factor routes only when the configuration turns them on, so a path of the app's own below the base
 * path (its `/auth/sessions` page) is not taken from it by default.
 */
export function isServedAction(action: AuthAction, optIn: OptInRoutes | undefined): boolean {
  if (ACCOUNT_ACTIONS.has(action)) return optIn?.account?.routes === true
  if (action === "backchannel-logout") return optIn?.backchannelLogout === true
  if (action === "two-factor") return typeof optIn?.twoFactor === "object" && optIn.twoFactor !== null
  if (action === "organizations") return optIn?.organizations?.routes === true
  if (action === "admin") return optIn?.admin?.routes === true
  return true
}

const TWO_FACTOR_SUB_PATHS: ReadonlySet<string> = new Set<TwoFactorSubPath>(["totp", "totp/confirm", "recovery-codes", "disable", "status"])

/** Whether `path` (the segments after `two-factor/`, joined by `/`) names a two-factor route. */
export function isTwoFactorSubPath(path: string): path is TwoFactorSubPath {
  return TWO_FACTOR_SUB_PATHS.has(path)
}
