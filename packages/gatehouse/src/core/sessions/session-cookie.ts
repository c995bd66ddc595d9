/**
 * The session cookie of a request, whatever the strategy puts in it.
 * @module
 */
import { readChunkedCookie } from "../../cookies/chunks.js"
import { sessionStore, type SessionStore } from "../../cookies/session-store.js"
import type { RequestContext } from "../request-context.js"

/** The session cookie of this request: its value (chunks joined) and the means to set or clear it. */
export function sessionStoreOf(ctx: RequestContext): SessionStore {
  const { sessionToken } = ctx.cookies
  return sessionStore(sessionToken, ctx.request.cookies, readChunkedCookie(ctx.request.cookies, sessionToken.name))
}
