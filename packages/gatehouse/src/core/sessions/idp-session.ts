/**
 * A session's link to the identity provider session it came from (the OIDC `sid` claim of the ID
 * token at sign-in), which back-channel logout names. Database sessions keep it in their details;
 * a JWT carries a key for it (`idpSession`) and ends when that key's session version is raised,
 * through the same adapter methods and checks as `signOutEverywhere` (session versions accept any
 * string as the id, and this key never equals a user id: it is a prefixed digest).
 * @module
 */
import { sha256Hex } from "../../encoding/hex.js"

/** Where an identity provider session was started: the provider and its `sid`. */
export interface IdpSession {
  provider: string
  sid: string
}

/** The session-version key of an identity provider session. */
export async function idpSessionKey({ provider, sid }: IdpSession): Promise<string> {
  return `idp-session:${await sha256Hex(JSON.stringify([provider, sid]))}`
}

/** The browser's `User-Agent` as kept with a session: at most 512 characters, `null` when none. */
export function userAgentOf(headers: Headers): string | null {
  const value = headers.get("user-agent")
  return value ? value.slice(0, 512) : null
}
