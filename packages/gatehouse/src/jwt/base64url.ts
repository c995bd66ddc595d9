/**
 * Base64url (RFC 4648 §5, no padding) over bytes, with Web-standard code only. Decoding is strict:
 * a segment must be in its one canonical spelling, because base64 decoders ignore the spare low
 * bits of a segment's last character, and "any changed character is rejected" is the simpler
 * promise for a token to keep.
 * @module
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i

/** `bytes` as unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  if (i + 1 === bytes.length) {
    const n = bytes[i]! << 4
    out += ALPHABET[n >> 6]! + ALPHABET[n & 63]!
  } else if (i + 2 === bytes.length) {
    const n = (bytes[i]! << 10) | (bytes[i + 1]! << 2)
    out += ALPHABET[n >> 12]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  return out
}

/** The bytes of unpadded, canonical base64url `text`; `undefined` for anything else. */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  const spare = text.length % 4
  if (spare === 1) return undefined
  const out = new Uint8Array((text.length * 3) >> 2)
  const whole = text.length - spare
  let o = 0
  for (let i = 0; i < whole; i += 4) {
    const a = valueAt(text, i)
    const b = valueAt(text, i + 1)
    const c = valueAt(text, i + 2)
    const d = valueAt(text, i + 3)
    if ((a | b | c | d) < 0) return undefined
    const n = (a << 18) | (b << 12) | (c << 6) | d
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
    out[o++] = n & 255
  }
  if (spare === 2) {
    const a = valueAt(text, whole)
    const b = valueAt(text, whole + 1)
    if ((a | b) < 0 || (b & 15) !== 0) return undefined
    out[o] = (a << 2) | (b >> 4)
  } else if (spare === 3) {
    const a = valueAt(text, whole)
    const b = valueAt(text, whole + 1)
    const c = valueAt(text, whole + 2)
    if ((a | b | c) < 0 || (c & 3) !== 0) return undefined
    const n = (a << 12) | (b << 6) | c
    out[o++] = n >> 10
    out[o] = (n >> 2) & 255
  }
  return out
}

function valueAt(text: string, index: number): number {
  const code = text.charCodeAt(index)
  return code < 128 ? VALUES[code]! : -1
}
