/**
 * Base64 (RFC 4648 §4) and base64url (§5) over bytes, in Web-standard code: Gatehouse's one codec.
 * Each spelling it reads or writes has its own functions:
 *
 * | functions                                      | alphabet  | padding  | spare bits | used for                                    |
 * | ---------------------------------------------- | --------- | -------- | ---------- | ------------------------------------------- |
 * | `encodeBase64url`, `decodeBase64url`           | base64url | none     | zero       | JWE segments, key ids                       |
 * | `decodeBase64urlLenient`                       | base64url | optional | ignored    | credential ids from browsers, ID tokens     |
 * | `encodeBase64`, `decodeBase64`                 | base64    | required | ignored    | passkeys as Auth.js stores them, CSP hashes |
 * | `encodeBase64Unpadded`, `decodeBase64Unpadded` | base64    | none     | zero       | PHC password hash strings                   |
 *
 * The last character of a value can carry spare low bits that decoders (`atob` among them)
 * ignore. Where a value is a token or a hash Gatehouse wrote, they must be zero, so every changed
 * character is a refused value; where it comes from a browser or another tool's rows, they are
 * ignored, as the platform's decoder would.
 * @module
 */

interface Alphabet {
  readonly chars: string
  /** The value of each ASCII character, -1 for those outside the alphabet. */
  readonly values: Int8Array
}

function alphabet(chars: string): Alphabet {
  const values = new Int8Array(128).fill(-1)
  for (let i = 0; i < chars.length; i++) values[chars.charCodeAt(i)] = i
  return { chars, values }
}

const BASE64 = alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
const BASE64URL = alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

/** `bytes` as unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  return encode(bytes, BASE64URL, false)
}

/** The bytes of unpadded, canonical base64url `text`; `undefined` for anything else. */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decode(text, BASE64URL, true)
}

/**
 * The bytes of base64url `text`, padded or not (padding, when present, makes whole groups of
 * four), spare bits ignored; `undefined` for anything else.
 */
export function decodeBase64urlLenient(text: string): Uint8Array<ArrayBuffer> | undefined {
  const unpadded = withoutPadding(text)
  if (unpadded.length !== text.length && text.length % 4 !== 0) return undefined
  return decode(unpadded, BASE64URL, false)
}

/** `bytes` as standard, padded base64. */
export function encodeBase64(bytes: Uint8Array): string {
  return encode(bytes, BASE64, true)
}

/** The bytes of standard, padded base64 `text`, spare bits ignored; `undefined` for anything else. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 !== 0) return undefined
  return decode(withoutPadding(text), BASE64, false)
}

/** `bytes` as unpadded standard base64. */
export function encodeBase64Unpadded(bytes: Uint8Array): string {
  return encode(bytes, BASE64, false)
}

/** The bytes of unpadded, canonical standard base64 `text`; `undefined` for anything else. */
export function decodeBase64Unpadded(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decode(text, BASE64, true)
}

/** `text` without the one or two `=` a padded value ends in; a third is left, to be refused. */
function withoutPadding(text: string): string {
  return text.replace(/={1,2}$/, "")
}

function encode(bytes: Uint8Array, { chars }: Alphabet, padded: boolean): string {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += chars[n >> 18]! + chars[(n >> 12) & 63]! + chars[(n >> 6) & 63]! + chars[n & 63]!
  }
  if (i + 1 === bytes.length) {
    const n = bytes[i]! << 4
    out += chars[n >> 6]! + chars[n & 63]! + (padded ? "==" : "")
  } else if (i + 2 === bytes.length) {
    const n = (bytes[i]! << 10) | (bytes[i + 1]! << 2)
    out += chars[n >> 12]! + chars[(n >> 6) & 63]! + chars[n & 63]! + (padded ? "=" : "")
  }
  return out
}

/** The bytes of unpadded `text`; with `canonical`, the spare bits of its last character must be zero. */
function decode(text: string, { values }: Alphabet, canonical: boolean): Uint8Array<ArrayBuffer> | undefined {
  const spare = text.length % 4
  if (spare === 1) return undefined
  const out = new Uint8Array((text.length * 3) >> 2)
  const whole = text.length - spare
  let o = 0
  for (let i = 0; i < whole; i += 4) {
    const a = valueAt(values, text, i)
    const b = valueAt(values, text, i + 1)
    const c = valueAt(values, text, i + 2)
    const d = valueAt(values, text, i + 3)
    if ((a | b | c | d) < 0) return undefined
    const n = (a << 18) | (b << 12) | (c << 6) | d
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
    out[o++] = n & 255
  }
  if (spare === 2) {
    const a = valueAt(values, text, whole)
    const b = valueAt(values, text, whole + 1)
    if ((a | b) < 0 || (canonical && (b & 15) !== 0)) return undefined
    out[o] = (a << 2) | (b >> 4)
  } else if (spare === 3) {
    const a = valueAt(values, text, whole)
    const b = valueAt(values, text, whole + 1)
    const c = valueAt(values, text, whole + 2)
    if ((a | b | c) < 0 || (canonical && (c & 3) !== 0)) return undefined
    const n = (a << 12) | (b << 6) | c
    out[o++] = n >> 10
    out[o] = (n >> 2) & 255
  }
  return out
}

function valueAt(values: Int8Array, text: string, index: number): number {
  const code = text.charCodeAt(index)
  return code < 128 ? values[code]! : -1
}
