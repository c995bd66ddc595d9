/**
 * The session cookie of a request, whatever the strategy puts in it.
 * @module
 */
import { sessionStore, type SessionStore } from "../../cookies/session-store.js"
import type { RequestContext } from "../request-context.js"

/** The session cookie of this request: its value (chunks joined) and the means to set or clear it. */
export function sessionStoreOf(ctx: RequestContext): SessionStore {
  return sessionStore(ctx.cookies.sessionToken, ctx.request.cookies)
}
