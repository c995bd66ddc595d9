/**
 * Gatehouse's own context of the request's session: the active organization, the admin
 * impersonating its user, and the provider it signed in with. Claims of Gatehouse's own under JWT
 * sessions (`org`, `imp`, `prv`, out of the `jwt` callback's reach), a row beside the session
 * under database sessions (`setSessionContext`).
 * @module
 */
import type { AdapterSessionContext, AdapterSessionWithAuthentication } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { AuthError, SessionRequired } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
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
 * The session is checked now whatever its age (revocation, absolute lifetime, an impersonation's
 * end), as for the account functions. Adapter failures propagate.
 */
export async function currentSessionContext(ctx: RequestContext): Promise<CurrentSessionContext | null> {
  if (ctx.config.session.strategy === "jwt") {
    const jwt = await import("./jwt-strategy.js")
    const token = await jwt.standingJwtSession(ctx)
    if (!token || typeof token.sub !== "string" || token.sub === "") return null
    const current = { userId: token.sub, ...jwt.sessionContextOfToken(token) }
    return (await impersonationEnded(ctx, current)) ? null : current
  }
  const database = await import("./database-strategy.js")
  const found = await database.currentDatabaseSession(ctx)
  if (!found) return null
  const context = database.contextOfRow((found.session as AdapterSessionWithAuthentication).context)
  const current = { userId: found.user.id, context, impersonationExpires: context.impersonatorId === null ? null : found.session.expires }
  if (!(await impersonationEnded(ctx, current))) return current
  await callAdapter(ctx.config.adapter, "deleteSession", found.key)
  return null
}

/**
 * Whether `current` is an impersonation whose admin no longer stands (deleted, demoted, banned):
 * it acts for nobody, as a session read answers no session for it. Nothing is read for other sessions.
 */
async function impersonationEnded(ctx: RequestContext, current: CurrentSessionContext): Promise<boolean> {
  const adminId = current.context.impersonatorId
  if (!ctx.config.admin || adminId === null) return false
  const { impersonatorStanding } = await import("./context-payload.js")
  return (await impersonatorStanding(ctx, adminId, current.impersonationExpires ?? new Date())) === null
}

/**
 * Changes the fields `patch` names in the request's session context; the cookies to send (the
 * JWT written again), none for database sessions (the row beside the session changed, cached
 * copies ended). An impersonation is not changed here: it is a session of its own.
 *
 * @throws {SessionRequired} when the request carries no standing session.
 */
export async function updateSessionContext(ctx: RequestContext, patch: Partial<AdapterSessionContext>): Promise<Cookie[]> {
  if (patch.impersonatorId !== undefined) throw new AuthError("An impersonation starts and ends with a session of its own, not a context update")
  const { activeOrganizationId, signInProvider } = patch
  const changes = { ...(activeOrganizationId !== undefined && { activeOrganizationId }), ...(signInProvider !== undefined && { signInProvider }) }
  if (ctx.config.session.strategy === "jwt") {
    const jwt = await import("./jwt-strategy.js")
    const token = await jwt.standingJwtSession(ctx)
    if (!token) throw new SessionRequired("No session to change")
    return jwt.rewriteJwtSessionContext(ctx, token, changes)
  }
  const database = await import("./database-strategy.js")
  const found = await database.currentDatabaseSession(ctx)
  if (!found) throw new SessionRequired("No session to change")
  const stored = await callAdapter(ctx.config.adapter, "setSessionContext", found.key, changes)
  // The row went between the read and the write (a sign-out elsewhere): there is no session to change.
  if (stored === false) throw new SessionRequired("No session to change")
  return []
}
