/**
 * What an authenticator app computes, written here with `node:crypto` independently of the
 * library (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps; keys typed as RFC 4648 base32), so the
 * two-factor tests check Gatehouse's codes against a second implementation, never against itself.
 */
import { createHmac } from "node:crypto"

/** The code for `key` at time step `step`. */
export function totpAt(key: Uint8Array, step: number): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac("sha1", key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0xf
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}

/** The time step now. */
export const currentStep = (): number => Math.floor(Date.now() / 30_000)

/** The code an authenticator app shows now. */
export const totpNow = (key: Uint8Array): string => totpAt(key, currentStep())

/** A base32 key as an app reads it when typed in (spaces and padding ignored, any case). */
export function base32Decode(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  let bits = 0
  let value = 0
  const out: number[] = []
  for (const char of text.replace(/[\s=]/g, "").toUpperCase()) {
    const index = alphabet.indexOf(char)
    if (index < 0) throw new Error(`Not base32: ${char}`)
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return new Uint8Array(out)
}
