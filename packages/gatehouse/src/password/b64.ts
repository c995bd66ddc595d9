/**
 * The PHC format's "B64": standard base64 (RFC 4648 §4) without padding. It differs from
 * base64url only in two characters (`+` `/` for `-` `_`), so this reuses the strict base64url
 * codec: a value must be in its one canonical spelling, and a changed spare bit is a changed string.
 * @module
 */
import { decodeBase64url, encodeBase64url } from "../jwt/base64url.js"

/** `bytes` as unpadded standard base64. */
export function encodeB64(bytes: Uint8Array): string {
  return encodeBase64url(bytes).replace(/-/g, "+").replace(/_/g, "/")
}

/** The bytes of unpadded, canonical standard base64 `text`; `undefined` for anything else. */
export function decodeB64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (/[-_]/.test(text)) return undefined
  return decodeBase64url(text.replace(/\+/g, "-").replace(/\//g, "_"))
}
