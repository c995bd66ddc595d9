/**
 * The actions the auth routes answer, i.e. the first path segment under `basePath`.
 * @module
 */

/** Every action the auth routes serve. */
export type AuthAction =
  | "callback"
  | "csrf"
  | "error"
  | "providers"
  | "session"
  | "signin"
  | "signout"
  | "verify-request"
  | "webauthn-options"

const actions: ReadonlySet<string> = new Set<AuthAction>([
  "callback",
  "csrf",
  "error",
  "providers",
  "session",
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
