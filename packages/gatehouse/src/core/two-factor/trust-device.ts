/**
 * "Don't ask again on this browser": after a second factor, the `authjs.two-factor-trust` cookie
 * (an encrypted JWT, salted with its name) names the user, when their factor was enabled, their
 * trust version and when the factor was checked. A later sign-in of that user in this browser
 * skips the challenge while both still match the stored row: disabling, enrolling again and
 * regenerating recovery codes change one of them, and every trusted browser is asked again; so
 * does `forgetTrustedBrowsers`, which raises the trust version alone.
 * It proves the second factor was checked here once; it never stands in for the first factor.
 * @module
 */
import type { Cookie } from "../../cookies/defaults.js"
import { decode, encode } from "../../jwt/index.js"
import type { RequestContext } from "../request-context.js"

/** Longest trust a browser may be given: 400 days, the most a browser keeps any cookie. */
export const TRUST_DEVICE_MAX_AGE_LIMIT = 400 * 24 * 60 * 60

/** What a trust cookie is checked against: the user's stored two-factor row. */
export interface TrustAnchor {
  userId: string
  /** When the user's factor was enabled; `null` when none is. */
  enabledAt: Date | null
  /** Raised whenever every trusted browser must be asked again. */
  trustVersion: number
}

/** A trust cookie that still holds. */
export interface TrustedDevice {
  /** Seconds since the epoch when the second factor was checked in this browser. */
  at: number
}

/**
 * The cookie trusting this browser for `anchor`'s user for `maxAge` seconds, from a second factor
 * checked at `at` (seconds since the epoch; now by default).
 */
export async function trustDeviceCookie(ctx: RequestContext, anchor: TrustAnchor, maxAge: number, at: number = Math.floor(Date.now() / 1000)): Promise<Cookie> {
  if (anchor.enabledAt === null) throw new TypeError("A browser is trusted only for a user with an enabled second factor")
  if (!Number.isInteger(maxAge) || maxAge <= 0 || maxAge > TRUST_DEVICE_MAX_AGE_LIMIT) throw new RangeError("trustDevice.maxAge must be 1 s to 400 days")
  const { name, options } = ctx.cookies.twoFactorTrust
  const token = { v: 1, uid: anchor.userId, en: anchor.enabledAt.getTime(), tv: anchor.trustVersion, at }
  const value = await encode({ token, secret: [...ctx.config.secret], salt: name, maxAge })
  return { name, value, options: { ...options, maxAge, expires: new Date(Date.now() + maxAge * 1000) } }
}

/**
 * The trust this request's cookie gives `anchor`'s user, or `undefined`: no cookie, one that does
 * not decode or has expired, one for another user, or one whose enabling time or trust version no
 * longer match the stored row.
 */
export async function readTrustedDevice(ctx: RequestContext, anchor: TrustAnchor): Promise<TrustedDevice | undefined> {
  if (anchor.enabledAt === null) return undefined
  const { name } = ctx.cookies.twoFactorTrust
  const value = ctx.request.cookies.get(name)
  if (!value) return undefined
  let claims: Record<string, unknown> | null
  try {
    claims = await decode<Record<string, unknown>>({ token: value, secret: [...ctx.config.secret], salt: name })
  } catch {
    return undefined
  }
  if (!claims) return undefined
  const { v, uid, en, tv, at } = claims
  if (v !== 1 || uid !== anchor.userId || en !== anchor.enabledAt.getTime() || tv !== anchor.trustVersion) return undefined
  if (typeof at !== "number" || !Number.isFinite(at)) return undefined
  return { at }
}

/** The cookie's deletion (sign-out of a shared browser, "forget this browser"). */
export function forgetDeviceCookie(ctx: RequestContext): Cookie {
  const { name, options } = ctx.cookies.twoFactorTrust
  return { name, value: "", options: { ...options, maxAge: 0 } }
}
