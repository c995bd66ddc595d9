/**
 * Random values and comparisons from Web Crypto, so the core runs on any runtime.
 * @module
 */
import { toHex } from "../encoding/hex.js"
import { equalBytes } from "../jwt/constant-time.js"

const encoder = new TextEncoder()

/** `bytes` random bytes as lower-case hex (a 32-byte value is 64 characters, 256 bits). */
export function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes))
  return toHex(buffer)
}

/**
 * Whether two strings are equal, taking the same time wherever they differ, so a comparison
 * against a secret value leaks nothing through timing. Only the length may show.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  return equalBytes(encoder.encode(a), encoder.encode(b))
}
