/**
 * Random values, digests and comparisons from Web Crypto, so the core runs on any runtime.
 * @module
 */
import { equalBytes } from "../jwt/constant-time.js"

const encoder = new TextEncoder()

/** `bytes` random bytes as lower-case hex (a 32-byte value is 64 characters, 256 bits). */
export function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes))
  return toHex(buffer)
}

/** Lower-case hex of some bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = ""
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0")
  return hex
}

/** Lower-case hex SHA-256 of a string's UTF-8 bytes. */
export async function sha256Hex(value: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value))))
}

/**
 * Whether two strings are equal, taking the same time wherever they differ, so a comparison
 * against a secret value leaks nothing through timing. Only the length may show.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  return equalBytes(encoder.encode(a), encoder.encode(b))
}
