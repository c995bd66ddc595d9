/**
 * Throttling of sign-in emails, per client IP and per address, through the shared `throttle`.
 * The keys (`<provider>:ip:…`, `<provider>:email:…`) and defaults are the ones counts were kept
 * under before throttling was shared, so windows in a store carry over.
 * @module
 */
import { EmailRateLimited } from "../../errors.js"
import type { EmailConfig, RateLimit } from "../../providers/types.js"
import type { RequestContext } from "../request-context.js"
import { clientIp, limitOf, throttle, type ThrottleBucket } from "../throttle.js"

const DEFAULT_PER_EMAIL: RateLimit = { max: 5, windowSeconds: 15 * 60 }
const DEFAULT_PER_IP: RateLimit = { max: 30, windowSeconds: 15 * 60 }

/**
 * Counts one sign-in email for the client and for `identifier`.
 *
 * @throws {EmailRateLimited} when either is over its limit. Nothing says whether the address
 *   belongs to a user: the counts are the same for every address.
 */
export async function throttleSignInEmail(ctx: RequestContext, provider: EmailConfig, identifier: string): Promise<void> {
  if (provider.rateLimit === false) return
  const buckets: ThrottleBucket[] = []
  const perIp = limitOf(provider.rateLimit?.perIp, DEFAULT_PER_IP)
  const ip = perIp && clientIp(ctx, provider.rateLimit?.clientIp)
  if (perIp && ip) {
    buckets.push({
      scope: `${provider.id}:ip`,
      value: ip,
      limit: perIp,
      refuse: (retryAfter) => new EmailRateLimited(`More than ${perIp.max} sign-in emails from one client in ${perIp.windowSeconds} s`, { retryAfter }),
    })
  }
  const perEmail = limitOf(provider.rateLimit?.perEmail, DEFAULT_PER_EMAIL)
  if (perEmail) {
    buckets.push({
      scope: `${provider.id}:email`,
      value: identifier,
      limit: perEmail,
      refuse: (retryAfter) => new EmailRateLimited(`More than ${perEmail.max} sign-in emails to one address in ${perEmail.windowSeconds} s`, { retryAfter }),
    })
  }
  await throttle(ctx, buckets)
}
