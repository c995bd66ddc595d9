/**
 * The key a database session row is stored and looked up under: the token's SHA-256 by default,
 * so that reading the sessions table (a backup, a replica, an injection elsewhere) yields no
 * cookie that works. Looking rows up by hash also leaves nothing to compare in memory: the store
 * finds the row by an index on a value the caller cannot steer bit by bit.
 * @module
 */
import { hashedSessionToken } from "../../adapters/hashed-session-token.js"
import type { RequestContext } from "../request-context.js"

/** `sessionToken` as the adapter stores it under this configuration. */
export async function storedSessionToken(ctx: RequestContext, sessionToken: string): Promise<string> {
  return ctx.config.session.hashTokens ? hashedSessionToken(sessionToken) : sessionToken
}
