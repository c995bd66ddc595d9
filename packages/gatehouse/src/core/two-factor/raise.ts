/**
 * Raising the request's own session after its user proved a second factor while signed in
 * (step-up, or enrolling one): aal 2, `otp` and `mfa` added to amr, `secondFactorAt` now. Under
 * JWT sessions the cookie is written again with the new claims (Gatehouse's own, out of the `jwt`
 * callback's reach); under database sessions the stored authentication changes beside the row
 * (the session cache drops its copy). Nothing else about the session changes: not its user, not
 * its expiry rules.
 * @module
 */
import type { AdapterSessionWithAuthentication } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { SessionRequired } from "../../errors.js"
import type { SessionAuthentication, TwoFactorMethod } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { twoFactorAuthentication } from "./policy.js"

/** The session as raised, and the cookies to send (none for database sessions). */
export interface RaisedSession {
  /** The user whose session was raised. */
  userId: string
  authentication: SessionAuthentication
  cookies: Cookie[]
}

/**
 * Raises the request's session after `method` was checked for its user; the cookies to send
 * (none for database sessions).
 *
 * @throws {SessionRequired} when the request carries no standing session (signed out meanwhile, revoked).
 */
export async function raiseSessionAuthentication(ctx: RequestContext, method: TwoFactorMethod): Promise<Cookie[]> {
  return (await raiseSession(ctx, method)).cookies
}

/**
 * {@link raiseSessionAuthentication}, answering also whose session it was and how it now reads.
 * `expectedUserId`, when given, must be the session's user: a code checked for one user never
 * raises another's session.
 *
 * @throws {SessionRequired} when the request carries no standing session of that user.
 */
export async function raiseSession(ctx: RequestContext, method: TwoFactorMethod, expectedUserId?: string): Promise<RaisedSession> {
  const raised = (amr: readonly string[]): SessionAuthentication => twoFactorAuthentication(amr, ["otp"])
  if (ctx.config.session.strategy === "jwt") {
    const jwt = await import("../sessions/jwt-strategy.js")
    const token = await jwt.standingJwtSession(ctx)
    const userId = typeof token?.sub === "string" ? token.sub : ""
    if (!token || userId === "" || (expectedUserId !== undefined && userId !== expectedUserId)) throw new SessionRequired("No session to raise")
    const authentication = raised(jwt.sessionAuthenticationOf(token).amr)
    return { userId, authentication, cookies: await jwt.raiseJwtSession(ctx, token, authentication) }
  }
  const database = await import("../sessions/database-strategy.js")
  const current = await database.currentDatabaseSession(ctx)
  if (!current || (expectedUserId !== undefined && current.user.id !== expectedUserId)) throw new SessionRequired("No session to raise")
  const authentication = raised(database.sessionAuthenticationOfRow((current.session as AdapterSessionWithAuthentication).authentication).amr)
  const updated = await callAdapter(ctx.config.adapter, "updateSessionAuthentication", current.key, {
    aal: authentication.aal,
    amr: authentication.amr,
    secondFactorAt: new Date(authentication.secondFactorAt!),
  })
  // The row went between the read and the write (a sign-out elsewhere): nothing was raised.
  if (updated !== true) throw new SessionRequired("The session ended before it could be raised")
  return { userId: current.user.id, authentication, cookies: [] }
}
