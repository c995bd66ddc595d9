/**
 * How credential ids, public keys and transports are written down. Browsers and
 * `@simplewebauthn/server` speak base64url; the database holds standard, padded base64 and a
 * comma-joined transport list, as Auth.js stores them, so its rows and Gatehouse's are the same.
 * @module
 */
import { decodeBase64, decodeBase64urlLenient, encodeBase64, encodeBase64url } from "../../encoding/base64.js"
import type { WebAuthnTransport } from "../../providers/types.js"

const TRANSPORTS: ReadonlySet<string> = new Set<WebAuthnTransport>(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])

// The two forms a credential is written in, named for where they are found: what browsers send
// (base64url, padding optional) and what rows hold (standard, padded base64). Both ignore spare
// bits, as `atob` does: these values come from browsers and other tools' rows, not from Gatehouse.
export { decodeBase64urlLenient as fromBase64url, encodeBase64url as toBase64url, decodeBase64 as fromBase64, encodeBase64 as toBase64 }

/** The stored form of a base64url credential id; `undefined` when it is not base64url or empty. */
export function storedCredentialId(base64urlId: string): string | undefined {
  const bytes = decodeBase64urlLenient(base64urlId)
  return bytes && bytes.length > 0 ? encodeBase64(bytes) : undefined
}

/** The base64url form of a stored credential id, as ceremony options carry it. */
export function credentialIdForBrowser(storedId: string): string {
  const bytes = decodeBase64(storedId)
  // A row another tool wrote in base64url already passes through unchanged.
  return bytes ? encodeBase64url(bytes) : storedId
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
