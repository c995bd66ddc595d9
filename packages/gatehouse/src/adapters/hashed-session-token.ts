/**
 * How a database session's token is stored when `session.hashTokens` is on (the default):
 * `sha256:` and the lower-case hex SHA-256 of the token's UTF-8 bytes. The prefix tells a hash from
 * a token Auth.js stored as is, so converting a database (`hashSessionTokens` of the SQL adapters)
 * can run again without hashing a hash. Runs on any runtime (the digest is the package primitives').
 * @module
 */
import { sha256Hex } from "../encoding/hex.js"

/** What every stored hash starts with; a raw Auth.js token (a UUID or hex) never does. */
export const HASHED_TOKEN_PREFIX = "sha256:"

/** The stored form of a session token: `sha256:<hex>`. */
export async function hashedSessionToken(sessionToken: string): Promise<string> {
  return HASHED_TOKEN_PREFIX + (await sha256Hex(sessionToken))
}
