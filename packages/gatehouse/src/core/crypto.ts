/**
 * Random values and digests from Web Crypto, so the core runs on any runtime.
 * @module
 */

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
