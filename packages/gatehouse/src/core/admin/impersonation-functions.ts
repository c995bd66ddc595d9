/**
 * Impersonation as server functions, for the session a request carries (no route, no CSRF
 * token: the application's own form handling protects its forms). Each needs `admin` configured.
 * @module
 */
import { serializeCookie } from "../../cookies/serialize.js"
import type { AuthConfig, Impersonator } from "../../types.js"
import type { SessionRequest } from "../request-session.js"

/** What {@link impersonateUser} did. */
export interface ImpersonationStarted {
  /** How the new session shows the impersonation (`session.impersonatedBy`). */
  impersonatedBy: Impersonator
  /** `Set-Cookie` values to send with the response: the user's session, and the admin's kept aside. */
  setCookies: string[]
}

/** What {@link stopImpersonating} did. */
export interface ImpersonationStopped {
  /** `Set-Cookie` values to send with the response: the admin's own session back, the impersonation's gone. */
  setCookies: string[]
}

// Loaded on first use: every app imports this module with `gatehouse-auth`, few call these.
const impersonation = () => import("./impersonation.js")

async function contextOf(request: SessionRequest, config: AuthConfig) {
  return (await import("../request-session.js")).sessionRequestContext(request, config)
}

/**
 * Lets the signed-in admin act as `userId` for `admin.impersonationMaxAge` seconds (at most an
 * hour, the default): the browser gets a session of that user whose `session.impersonatedBy`
 * names the admin (show a banner), which no update or sliding extends; the admin's own session is
 * kept aside and comes back with {@link stopImpersonating}. Audited (`admin.impersonate`).
 *
 * @throws {SessionRequired} without a session. `PermissionDenied` when the user is no admin;
 *   `ImpersonationRefused` for an admin, oneself, a banned user, or from inside an impersonation;
 *   `UserNotFound` for an unknown user.
 * @example
 * ```ts
 * import { impersonateUser } from "gatehouse-auth"
 *
 * const { setCookies } = await impersonateUser(request, authConfig, form.get("userId"))
 * for (const line of setCookies) response.headers.append("set-cookie", line)
 * ```
 */
export async function impersonateUser(request: SessionRequest, config: AuthConfig, userId: string): Promise<ImpersonationStarted> {
  const ctx = await contextOf(request, config)
  const { cookies, impersonatedBy } = await (await impersonation()).startImpersonation(ctx, userId)
  return { impersonatedBy, setCookies: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
}

/**
 * Ends the request's impersonation and puts the admin's own session back (the impersonation's
 * database row deleted). Audited (`admin.stop-impersonating`).
 *
 * @throws {SessionRequired} without a session (an impersonation that ran out ended by itself).
 *   `ImpersonationRefused` when the session is no impersonation.
 * @example
 * ```ts
 * import { stopImpersonating } from "gatehouse-auth"
 *
 * const { setCookies } = await stopImpersonating(request, authConfig)
 * for (const line of setCookies) response.headers.append("set-cookie", line)
 * ```
 */
export async function stopImpersonating(request: SessionRequest, config: AuthConfig): Promise<ImpersonationStopped> {
  const ctx = await contextOf(request, config)
  const cookies = await (await impersonation()).stopImpersonation(ctx)
  return { setCookies: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
}
