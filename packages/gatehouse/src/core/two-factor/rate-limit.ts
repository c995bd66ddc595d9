/**
 * Throttling of second-factor codes per client IP and per user, through the shared `throttle`
 * (the shared store when there is one, else the adapter's `hitRateLimit`, else memory), counted
 * before a code is checked. The per-pending-sign-in limit (see `pending.ts`) stops guessing within
 * one sign-in; these stop it across many: someone holding the password can start a new pending
 * sign-in every time, and a 6-digit code falls to enough of them. Keys: `two-factor:ip:…`,
 * `two-factor:user:…`, secret-keyed hashes only.
 * @module
 */
import { RateLimited } from "../../errors.js"
import type { RateLimit } from "../../providers/types.js"
import type { RequestContext } from "../request-context.js"
import { clientIp, throttle, type ThrottleBucket } from "../throttle.js"

/**
 * Codes tried for one user per window. Two pending sign-ins' worth of tries, so a person who
 * mistypes is not locked out, while guessing gets 10 tries in 15 minutes: under 1 in 30 000 of
 * hitting one of the 3 codes a TOTP window accepts.
 */
export const TWO_FACTOR_PER_USER: RateLimit = { max: 10, windowSeconds: 15 * 60 }
/** Codes tried from one client per window, whoever they are for. */
export const TWO_FACTOR_PER_IP: RateLimit = { max: 50, windowSeconds: 15 * 60 }

/**
 * Counts one code tried by this client for user `uid`.
 *
 * @throws {RateLimited} when the client or the user is over its limit (429 with `Retry-After`).
 */
export async function throttleTwoFactorAttempt(ctx: RequestContext, uid: string): Promise<void> {
  const buckets: ThrottleBucket[] = []
  const ip = clientIp(ctx, undefined)
  if (ip) {
    buckets.push({
      scope: "two-factor:ip",
      value: ip,
      limit: TWO_FACTOR_PER_IP,
      refuse: (retryAfter) => new RateLimited(`More than ${TWO_FACTOR_PER_IP.max} second-factor codes from one client in ${TWO_FACTOR_PER_IP.windowSeconds} s`, { retryAfter }),
    })
  }
  buckets.push({
    scope: "two-factor:user",
    value: uid,
    limit: TWO_FACTOR_PER_USER,
    refuse: (retryAfter) => new RateLimited(`More than ${TWO_FACTOR_PER_USER.max} second-factor codes for one user in ${TWO_FACTOR_PER_USER.windowSeconds} s`, { retryAfter }),
  })
  await throttle(ctx, buckets)
}
