/**
 * How credential ids, public keys and transports are written down. Browsers and
 * `@simplewebauthn/server` speak base64url; the database holds standard, padded base64 and a
 * comma-joined transport list, as Auth.js stores them, so its rows and Gatehouse's are the same.
 * @module
 */
import type { WebAuthnTransport } from "../../providers/types.js"

const BASE64URL = /^[A-Za-z0-9_-]*$/
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const TRANSPORTS: ReadonlySet<string> = new Set<WebAuthnTransport>(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])

/** The bytes of a base64url string (padding optional); `undefined` when it is not one. */
export function fromBase64url(value: string): Uint8Array<ArrayBuffer> | undefined {
  const unpadded = value.replace(/={1,2}$/, "")
  // Padding, when present, must make whole groups of four.
  const badPadding = unpadded.length !== value.length && value.length % 4 !== 0
  if (badPadding || !BASE64URL.test(unpadded) || unpadded.length % 4 === 1) return undefined
  return fromBinary(atob(unpadded.replace(/-/g, "+").replace(/_/g, "/")))
}

/** `bytes` as unpadded base64url. */
export function toBase64url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** The bytes of a stored (standard, padded) base64 value; `undefined` when it is not one. */
export function fromBase64(value: string): Uint8Array<ArrayBuffer> | undefined {
  return BASE64.test(value) ? fromBinary(atob(value)) : undefined
}

/** `bytes` as standard, padded base64: the stored form. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** The stored form of a base64url credential id; `undefined` when it is not base64url or empty. */
export function storedCredentialId(base64urlId: string): string | undefined {
  const bytes = fromBase64url(base64urlId)
  return bytes && bytes.length > 0 ? toBase64(bytes) : undefined
}

/** The base64url form of a stored credential id, as ceremony options carry it. */
export function credentialIdForBrowser(storedId: string): string {
  const bytes = fromBase64(storedId)
  // A row another tool wrote in base64url already passes through unchanged.
  return bytes ? toBase64url(bytes) : storedId
}

/** The transports of a stored comma-joined list, unknown ones dropped; `undefined` when none. */
export function transportsOf(stored: string | null | undefined): WebAuthnTransport[] | undefined {
  const list = (stored ?? "")
    .split(",")
    .map((transport) => transport.trim())
    .filter((transport): transport is WebAuthnTransport => TRANSPORTS.has(transport))
  return list.length > 0 ? list : undefined
}

/** The stored form of a transport list: comma-joined, or `undefined` when empty. */
export function storedTransports(transports: readonly string[] | undefined): string | undefined {
  const known = (transports ?? []).filter((transport) => TRANSPORTS.has(transport))
  return known.length > 0 ? known.join(",") : undefined
}

function fromBinary(binary: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}
