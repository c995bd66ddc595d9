/**
 * Time-based one-time passwords as authenticator apps make them (RFC 6238 over RFC 4226's HOTP):
 * HMAC-SHA-1, 30-second steps, 6 digits, on Web Crypto. A code is accepted for its own step and
 * one step either side (clock drift, a code typed as it turned), and the step it matched is
 * returned so the caller can spend it (`adapter.useTotpStep`, which refuses that step and every
 * earlier one: a code cannot be replayed, nor its neighbour used after it).
 * @module
 * @see https://www.rfc-editor.org/rfc/rfc6238 TOTP
 * @see https://www.rfc-editor.org/rfc/rfc4226 HOTP
 */
import { encodeBase32 } from "../../encoding/base32.js"
import { equalBytes } from "../../jwt/constant-time.js"

/** Seconds per time step. */
export const TOTP_PERIOD = 30
/** Digits of a code. */
export const TOTP_DIGITS = 6
/** Bytes of a new secret: 160 bits, the HMAC-SHA-1 block RFC 4226 recommends. */
export const TOTP_SECRET_BYTES = 20
/** Steps either side of the current one whose codes are still accepted. */
export const TOTP_WINDOW = 1

const encoder = new TextEncoder()

/** A new random TOTP secret (20 bytes). */
export function newTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES))
}

/** The time step `now` (ms since the epoch) falls in. */
export function totpStep(now: number = Date.now()): number {
  return Math.floor(now / 1000 / TOTP_PERIOD)
}

/**
 * The code of `step` under `secret` (RFC 4226 dynamic truncation), zero-padded to `digits`.
 * `digits` other than 6 only for the RFC's own 8-digit test vectors.
 */
export async function totpCode(secret: Uint8Array, step: number, digits: number = TOTP_DIGITS): Promise<string> {
  return hotp(await hmacKey(secret), step, digits)
}

/**
 * The step whose code `code` is, among the current step and one either side, or `undefined`.
 * `code` may carry spaces (as apps show it); anything but 6 digits matches nothing. All three
 * codes are computed and compared in constant time whatever matches, so the time taken does not
 * say which step (or whether any) did. Steps at or before `afterStep` (the last one used) never match.
 */
export async function verifyTotp(
  secret: Uint8Array,
  code: string,
  options: { now?: number; afterStep?: number | null } = {},
): Promise<number | undefined> {
  if (typeof code !== "string") return undefined
  const typed = code.replace(/\s/g, "")
  if (!/^\d{6}$/.test(typed)) return undefined
  const key = await hmacKey(secret)
  const current = totpStep(options.now ?? Date.now())
  const given = encoder.encode(typed)
  let matched: number | undefined
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const expected = encoder.encode(await hotp(key, step, TOTP_DIGITS))
    const equal = equalBytes(expected, given)
    const usable = options.afterStep === undefined || options.afterStep === null || step > options.afterStep
    if (equal && usable && matched === undefined) matched = step
  }
  return matched
}

/** What an `otpauth://` URI names. */
export interface OtpauthUriInput {
  /** The service, shown by the app as the entry's title (`twoFactor.totp.issuer`). */
  issuer: string
  /** Whose entry it is: the user's email address or name. */
  account: string
  /** The raw secret bytes. */
  secret: Uint8Array
}

/**
 * The Key Uri Format URI an authenticator app scans: label `issuer:account`, the secret in base32,
 * and the parameters spelled out (SHA1, 6 digits, 30 s) for apps that read them.
 * @see https://github.com/google/google-authenticator/wiki/Key-Uri-Format
 */
export function otpauthUri({ issuer, account, secret }: OtpauthUriInput): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const query = new URLSearchParams({
    secret: encodeBase32(secret),
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD),
  })
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, "%20")}`
}

function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", new Uint8Array(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"])
}

async function hotp(key: CryptoKey, step: number, digits: number): Promise<string> {
  if (!Number.isSafeInteger(step) || step < 0) throw new RangeError("A TOTP step must be a non-negative integer")
  const counter = new Uint8Array(8)
  // Big-endian 64-bit counter as two 32-bit halves: exact for every safe integer.
  const high = Math.floor(step / 2 ** 32)
  const low = step >>> 0
  for (let i = 0; i < 4; i++) {
    counter[3 - i] = (high >>> (8 * i)) & 255
    counter[7 - i] = (low >>> (8 * i)) & 255
  }
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter))
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  return String(binary % 10 ** digits).padStart(digits, "0")
}
