/**
 * The key a database session row is stored and looked up under: the token's SHA-256 by default,
 * so that reading the sessions table (a backup, a replica, an injection elsewhere) yields no
 * cookie that works. Looking rows up by hash also leaves nothing to compare in memory: the store
 * finds the row by an index on a value the caller cannot steer bit by bit.
 * @module
 */
import { HASHED_TOKEN_PREFIX, hashedSessionToken } from "../../adapters/hashed-session-token.js"
import type { RequestContext } from "../request-context.js"

/** `sessionToken` as the adapter stores a new row for it under this configuration. */
export async function storedSessionToken(ctx: RequestContext, sessionToken: string): Promise<string> {
  return ctx.config.session.hashTokens ? hashedSessionToken(sessionToken) : sessionToken
}

/**
 * Every key an existing row for `sessionToken` may be stored under, in the order to try them: its
 * hash, then the token itself, for rows written raw (by Auth.js, or before hashing was turned on)
 * until `hashSessionTokens` converts them, so switching signs no one out. A cookie that looks like
 * a stored hash is only ever hashed: a leaked row must not work as a cookie in either mode.
 */
export async function sessionKeys(ctx: RequestContext, sessionToken: string): Promise<string[]> {
  const looksStored = sessionToken.startsWith(HASHED_TOKEN_PREFIX)
  if (!ctx.config.session.hashTokens) return looksStored ? [] : [sessionToken]
  const hashed = await hashedSessionToken(sessionToken)
  return looksStored ? [hashed] : [hashed, sessionToken]
}
