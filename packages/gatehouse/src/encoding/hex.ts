/**
 * Lower-case hex, and the SHA-256 of a string written in it: the one digest every hash Gatehouse
 * stores or compares as text uses (CSRF cookies, sign-in link tokens, throttling keys, stored
 * session tokens). A leaf, so the core and the SQL adapters share it; the digest is the
 * package's primitives' (node:crypto under Node, Web Crypto elsewhere).
 * @module
 */

import { digest } from "#primitives"

const encoder = new TextEncoder()

/** Lower-case hex of some bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = ""
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0")
  return hex
}

/** Lower-case hex SHA-256 of a string's UTF-8 bytes (64 characters). */
export async function sha256Hex(value: string): Promise<string> {
  return toHex(await digest("SHA-256", encoder.encode(value)))
}
