/**
 * RFC 4648 base32 (the upper-case alphabet `A–Z2–7`), as authenticator apps read a TOTP secret
 * from an `otpauth://` URI. A leaf like the other codecs. Written without padding, as the Key
 * Uri Format asks; read leniently in what people type (lower case, spaces, `-`, trailing `=`)
 * and strictly in what a value holds (any other character, an impossible length or non-zero spare
 * bits is `undefined`), so one secret has one spelling.
 * @module
 * @see https://www.rfc-editor.org/rfc/rfc4648#section-6 base32
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
/** Lengths (mod 8) an unpadded base32 text can have: 1, 3 and 6 characters never end a group. */
const VALID_REMAINDERS = new Set([0, 2, 4, 5, 7])

/** `bytes` as unpadded upper-case base32 (20 bytes are 32 characters). */
export function encodeBase32(bytes: Uint8Array): string {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += ALPHABET[(buffer >>> bits) & 31]
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31]
  return out
}

/**
 * The bytes of base32 `text`: case, spaces, hyphens and trailing `=` padding are ignored;
 * `undefined` for any other character, a length no encoding produces, or spare bits that are not zero.
 */
export function decodeBase32(text: string): Uint8Array | undefined {
  const cleaned = text.replace(/[\s-]/g, "").replace(/=+$/, "").toUpperCase()
  if (!VALID_REMAINDERS.has(cleaned.length % 8)) return undefined
  const out = new Uint8Array(Math.floor((cleaned.length * 5) / 8))
  let buffer = 0
  let bits = 0
  let index = 0
  for (const char of cleaned) {
    const value = ALPHABET.indexOf(char)
    if (value < 0) return undefined
    buffer = ((buffer << 5) | value) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out[index++] = (buffer >>> bits) & 255
    }
  }
  // What is left over is padding the encoder wrote as zero bits; anything else is a second spelling.
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined
  return out
}
