/**
 * The account pages' server functions: the same as the opt-in account routes, called from the
 * application's own server code for the session a request carries (no route, no CSRF token: the
 * application's own form handling protects its forms).
 * @module
 */
import { serializeCookie } from "../../cookies/serialize.js"
import type { AuthConfig } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import type { SessionRequest } from "../request-session.js"
import type { ActiveSession } from "./active-sessions.js"
import type { AccountKey, LinkedAccount } from "./linked-accounts.js"

// Loaded on first use, like the routes: every app imports this module with `gatehouse-auth`,
// few call these functions, and none needs them to answer a session check.
const sessions = () => import("./active-sessions.js")
const accounts = () => import("./linked-accounts.js")
const contextOf = async (request: SessionRequest, config: AuthConfig): Promise<RequestContext> =>
  (await import("../request-session.js")).sessionRequestContext(request, config)

export type { AccountKey, ActiveSession, LinkedAccount }

/** What {@link revokeOtherSessions} did. */
export interface RevokedSessions {
  /** How many sessions ended; `null` under JWT sessions (nobody knows how many there were). */
  revoked: number | null
  /** `Set-Cookie` values to send with the response (the current JWT cookie, written again). */
  setCookies: string[]
}

/**
 * The sessions of the user signed in on `request`: the current one first. Under database sessions
 * every live session, with when it was created, last used (to `session.updateAge` precision) and
 * its browser; under JWT sessions only the current one (a JWT has no record but its cookie).
 *
 * @throws {SessionRequired} when `request` carries no session.
 * @example
 * ```ts
 * import { listSessions } from "gatehouse-auth"
 *
 * app.get("/account/sessions", async (req, res) => res.json(await listSessions(toWebRequest(req), authConfig)))
 * ```
 */
export async function listSessions(request: SessionRequest, config: AuthConfig): Promise<ActiveSession[]> {
  return (await sessions()).listActiveSessions(await contextOf(request, config))
}

/**
 * Ends one of the signed-in user's other sessions by its `id` (from {@link listSessions}).
 *
 * @throws {SessionRequired} without a session; `ImpersonationRefused` inside an impersonation;
 *   `UnknownSession` for an id that is not one of the user's other sessions (another user's, the
 *   current one, a JWT session's).
 * @example
 * ```ts
 * import { revokeSession } from "gatehouse-auth"
 *
 * await revokeSession(request, authConfig, form.get("id"))
 * ```
 */
export async function revokeSession(request: SessionRequest, config: AuthConfig, id: string): Promise<void> {
  await (await sessions()).revokeActiveSession(await contextOf(request, config), String(id))
}

/**
 * Ends every session of the signed-in user but this one ("sign out other devices"). Under JWT
 * sessions the user's session version goes up and this session's cookie is written again: send
 * `setCookies` with the response, or this browser is signed out too at its next check.
 *
 * @returns How many sessions ended (`null` under JWT sessions), and the `Set-Cookie` values to send.
 * @throws {SessionRequired} without a session; `ImpersonationRefused` inside an impersonation (the
 *   user's sessions are theirs to end); `MissingAdapterMethods` or `InvalidConfig` when JWT
 *   sessions are not checked against session versions.
 * @example
 * ```ts
 * import { revokeOtherSessions } from "gatehouse-auth"
 *
 * const { setCookies } = await revokeOtherSessions(request, authConfig)
 * for (const line of setCookies) response.headers.append("set-cookie", line)
 * ```
 */
export async function revokeOtherSessions(request: SessionRequest, config: AuthConfig): Promise<RevokedSessions> {
  const { revoked, cookies } = await (await sessions()).revokeOtherSessions(await contextOf(request, config))
  return { revoked, setCookies: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
}

/**
 * The signed-in user's linked accounts: provider, `providerAccountId` and type, never a token.
 *
 * @throws {SessionRequired} without a session; `MissingAdapter` without an adapter.
 * @example
 * ```ts
 * import { listAccounts } from "gatehouse-auth"
 *
 * const accounts = await listAccounts(request, authConfig) // [{ provider: "github", … }]
 * ```
 */
export async function listAccounts(request: SessionRequest, config: AuthConfig): Promise<LinkedAccount[]> {
  return (await accounts()).listLinkedAccounts(await contextOf(request, config))
}

/**
 * Unlinks one of the signed-in user's accounts and fires `unlinkAccount`, unless it is the last
 * way they can sign in.
 *
 * @throws {SessionRequired} without a session; `UnknownAccount` for an account that is not
 *   theirs; `LastSignInMethod` when nothing else would let them sign in; `MissingAdapter` without
 *   an adapter.
 * @example
 * ```ts
 * import { unlinkAccount } from "gatehouse-auth"
 *
 * await unlinkAccount(request, authConfig, { provider: "github", providerAccountId: "12345" })
 * ```
 */
export async function unlinkAccount(request: SessionRequest, config: AuthConfig, account: AccountKey): Promise<void> {
  await (await accounts()).unlinkLinkedAccount(await contextOf(request, config), { provider: String(account?.provider), providerAccountId: String(account?.providerAccountId) })
}
