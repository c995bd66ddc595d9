/**
 * Gatehouse's own context of the request's session: the active organization, the admin
 * impersonating its user, and the provider it signed in with. Claims of Gatehouse's own under JWT
 * sessions (`org`, `imp`, `prv`, out of the `jwt` callback's reach), a row beside the session
 * under database sessions (`setSessionContext`).
 * @module
 */
import type { AdapterSessionContext } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { SessionRequired } from "../../errors.js"
import type { RequestContext } from "../request-context.js"

/** The request's session: its user and its context (fields never set read `null`). */
export interface CurrentSessionContext {
  userId: string
  context: AdapterSessionContext
  /** When an impersonation ends (`context.impersonatorId` set), else `null`. */
  impersonationExpires: Date | null
}

/**
 * The context of the standing session `ctx`'s request carries, or `null` when it carries none.
 * (Seam: implemented by the session-context part.)
 */
export async function currentSessionContext(_ctx: RequestContext): Promise<CurrentSessionContext | null> {
  return null
}

/**
 * Changes the fields `patch` names in the request's session context; the cookies to send (the
 * JWT written again), none for database sessions.
 *
 * @throws {SessionRequired} when the request carries no standing session.
 */
export async function updateSessionContext(_ctx: RequestContext, _patch: Partial<AdapterSessionContext>): Promise<Cookie[]> {
  throw new SessionRequired("No session to change")
}
