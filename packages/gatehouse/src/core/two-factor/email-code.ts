/**
 * The email code as a second factor: 6 to 8 random digits sent to the user's verified address,
 * kept nowhere but as a keyed hash inside the pending sign-in cookie, bound to that pending
 * sign-in's id, so a code sent for one sign-in proves nothing for another, and a copied cookie
 * does not show the code. Lives at most 10 minutes (and never beyond the pending sign-in). Wrong
 * tries are counted server-side by the caller, per pending id (see `pending.ts`), and void the
 * code after {@link EMAIL_CODE_MAX_ATTEMPTS}.
 * @module
 */
import { decodeBase64url, encodeBase64url } from "../../encoding/base64.js"
import { equalBytes } from "../../jwt/constant-time.js"
import type { ResolvedConfig } from "../config.js"

/** Longest life of an email code, in seconds. */
export const EMAIL_CODE_MAX_AGE = 600
/** Wrong codes after which a code is void. */
export const EMAIL_CODE_MAX_ATTEMPTS = 5
/** Digits of a code unless configured (`twoFactor.email.digits`, 6 to 8). */
export const EMAIL_CODE_DEFAULT_DIGITS = 6

const encoder = new TextEncoder()

/** What the pending cookie keeps of a sent code. */
export interface EmailCodeState {
  /** base64url HMAC-SHA-256 of the pending id and the code under the first secret at sending. */
  hash: string
  /** Seconds since the epoch after which the code is refused. */
  exp: number
}

/** A uniformly random code of `digits` digits (6 to 8), drawn by rejection sampling. */
export function newEmailCode(digits: number = EMAIL_CODE_DEFAULT_DIGITS): string {
  assertDigits(digits)
  const range = 10 ** digits
  // The largest multiple of `range` a 32-bit draw can reach: draws at or above it are thrown away,
  // so every code is equally likely (a plain modulo would favour the low ones).
  const limit = Math.floor(2 ** 32 / range) * range
  const draw = new Uint32Array(1)
  for (;;) {
    crypto.getRandomValues(draw)
    if (draw[0]! < limit) return String(draw[0]! % range).padStart(digits, "0")
  }
}

/**
 * A new code for pending sign-in `pendingId`, and what the pending cookie keeps of it. Expires after
 * `maxAge` seconds (at most 10 minutes) or at `notAfter` (the pending sign-in's own end), whichever is first.
 */
export async function issueEmailCode(
  config: Pick<ResolvedConfig, "secret">,
  pendingId: string,
  options: { digits?: number; maxAge?: number; notAfter?: number; now?: number } = {},
): Promise<{ code: string; state: EmailCodeState }> {
  const [secret] = config.secret
  if (secret === undefined) throw new TypeError("An email code cannot be issued without an auth secret")
  const code = newEmailCode(options.digits)
  const now = Math.floor((options.now ?? Date.now()) / 1000)
  const maxAge = Math.min(options.maxAge ?? EMAIL_CODE_MAX_AGE, EMAIL_CODE_MAX_AGE)
  const exp = Math.min(now + maxAge, options.notAfter ?? Number.POSITIVE_INFINITY)
  return { code, state: { hash: encodeBase64url(await codeMac(secret, pendingId, code)), exp } }
}

/**
 * Whether `typed` is the code `state` was issued for, for this pending id, before it expired. The
 * hash is recomputed under every configured secret (a rotation between sending and typing keeps
 * the code good) and all are compared in constant time; malformed input matches nothing.
 */
export async function checkEmailCode(
  config: Pick<ResolvedConfig, "secret">,
  pendingId: string,
  state: EmailCodeState,
  typed: string,
  now: number = Date.now(),
): Promise<boolean> {
  if (typeof typed !== "string" || typeof state?.hash !== "string" || typeof state.exp !== "number") return false
  if (Math.floor(now / 1000) > state.exp) return false
  const code = typed.replace(/\s/g, "")
  if (!/^\d{6,8}$/.test(code)) return false
  const expected = decodeBase64url(state.hash)
  if (!expected) return false
  let matched = false
  for (const secret of config.secret) {
    if (equalBytes(await codeMac(secret, pendingId, code), expected)) matched = true
  }
  return matched
}

async function codeMac(secret: string, pendingId: string, code: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  const message = encoder.encode(`gatehouse.two-factor.email-code\u0000${pendingId}\u0000${code}`)
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message))
}

function assertDigits(digits: number): void {
  if (!Number.isInteger(digits) || digits < 6 || digits > 8) throw new RangeError("An email code has 6 to 8 digits")
}
