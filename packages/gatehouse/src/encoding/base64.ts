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
 *
 * The bytes themselves go through the platform's `atob` and `btoa` (every Web runtime, and Node);
 * what `atob` would forgive (whitespace, a misplaced `=`, the other alphabet, spare bits) is
 * refused here first, so each spelling reads exactly what the table says.
 * @module
 */

/** What unpadded text of each alphabet may hold. */
const BASE64URL_TEXT = /^[A-Za-z0-9_-]*$/
const BASE64_TEXT = /^[A-Za-z0-9+/]*$/

/** `bytes` as unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  return encodeBase64Unpadded(bytes).replace(/\+/g, "-").replace(/\//g, "_")
}

/** The bytes of unpadded, canonical base64url `text`; `undefined` for anything else. */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decode(text, true, true)
}

/**
 * The bytes of base64url `text`, padded or not (padding, when present, makes whole groups of
 * four), spare bits ignored; `undefined` for anything else.
 */
export function decodeBase64urlLenient(text: string): Uint8Array<ArrayBuffer> | undefined {
  const unpadded = withoutPadding(text)
  if (unpadded.length !== text.length && text.length % 4 !== 0) return undefined
  return decode(unpadded, true, false)
}

/** `bytes` as standard, padded base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = ""
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return btoa(binary)
}

/** The bytes of standard, padded base64 `text`, spare bits ignored; `undefined` for anything else. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 !== 0) return undefined
  return decode(withoutPadding(text), false, false)
}

/** `bytes` as unpadded standard base64. */
export function encodeBase64Unpadded(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/=+$/, "")
}

/** The bytes of unpadded, canonical standard base64 `text`; `undefined` for anything else. */
export function decodeBase64Unpadded(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decode(text, false, true)
}

/**
 * Whether `text` is canonical unpadded base64url: in the alphabet, of a length a value can have,
 * and with the spare bits of its last character zero. Native decoders (Node's, `atob`) skip, pad
 * or ignore each of these, so every decoder of that spelling checks this first.
 */
export function isCanonicalBase64url(text: string): boolean {
  return BASE64URL_TEXT.test(text) && text.length % 4 !== 1 && spareBitsZero(text)
}

/** `text` without the one or two `=` a padded value ends in; a third is left, to be refused. */
function withoutPadding(text: string): string {
  return text.replace(/={1,2}$/, "")
}

/**
 * The bytes of unpadded `text` in the base64url (`url`) or standard alphabet; with `canonical`,
 * the spare bits of its last character must be zero.
 */
function decode(text: string, url: boolean, canonical: boolean): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 === 1 || !(url ? BASE64URL_TEXT : BASE64_TEXT).test(text)) return undefined
  if (canonical && !spareBitsZero(text)) return undefined
  // In the alphabet and of a decodable length, so atob cannot throw.
  const binary = atob(url ? text.replace(/-/g, "+").replace(/_/g, "/") : text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Whether the low bits of the last character that no byte takes are zero (true for whole groups). */
function spareBitsZero(text: string): boolean {
  const spare = text.length % 4
  return spare === 0 || (sextet(text.charCodeAt(text.length - 1)) & (spare === 2 ? 15 : 3)) === 0
}

/** The value of a character already known to be in one of the two alphabets. */
function sextet(code: number): number {
  if (code >= 97) return code - 71 // a-z: 26-51
  if (code >= 65) return code === 95 ? 63 : code - 65 // A-Z: 0-25; _ (95) is 63
  if (code >= 48) return code + 4 // 0-9: 52-61
  return code === 47 ? 63 : 62 // "/" is 63; "+" and "-" are 62
}
