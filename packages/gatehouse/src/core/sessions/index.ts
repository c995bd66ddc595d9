/**
 * The session strategy in force, behind one interface, so actions never branch on it.
 * @module
 */
import type { Cookie } from "../../cookies/defaults.js"
import { UnsupportedStrategy } from "../../errors.js"
import type { RequestContext } from "../request-context.js"
import { endJwtSession, issueJwtSession, readJwtSession, type SessionRead, type SignInData } from "./jwt-strategy.js"

export type { SessionRead, SignInData }

/** The current session (and cookies to set); `update` carries a client's session update. */
export function readSession(ctx: RequestContext, update?: { data: unknown }): Promise<SessionRead> {
  assertJwt(ctx)
  return readJwtSession(ctx, update)
}

/** The cookies of a new session for a signed-in user. */
export function issueSession(ctx: RequestContext, data: SignInData): Promise<Cookie[]> {
  assertJwt(ctx)
  return issueJwtSession(ctx, data)
}

/** Ends the current session, firing `signOut`; returns the cookies that clear it. */
export function endSession(ctx: RequestContext): Promise<Cookie[]> {
  assertJwt(ctx)
  return endJwtSession(ctx)
}

// Database sessions are built on the adapter layer, which lands separately.
function assertJwt(ctx: RequestContext): void {
  if (ctx.config.session.strategy !== "jwt") {
    throw new UnsupportedStrategy(`The "${ctx.config.session.strategy}" session strategy is not available in this build`)
  }
}
