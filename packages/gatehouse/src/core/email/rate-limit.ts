/**
 * Throttling of sign-in emails, per address and per client IP, counted by `event-counter`. Keys
 * hold hashes, never an address or an IP in the clear.
 * @module
 */
import { EmailRateLimited } from "../../errors.js"
import type { EmailConfig, RateLimit } from "../../providers/types.js"
import { countEvent, secretKeyed } from "../event-counter.js"
import type { RequestContext } from "../request-context.js"

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
  const perIp = limitOf(provider.rateLimit?.perIp, DEFAULT_PER_IP)
  const ip = perIp && clientIp(ctx, provider)
  if (perIp && ip && (await countEvent(ctx, `${provider.id}:ip:${await secretKeyed(ctx, ip)}`, perIp.windowSeconds)) > perIp.max) {
    throw new EmailRateLimited(`More than ${perIp.max} sign-in emails from one client in ${perIp.windowSeconds} s`)
  }
  const perEmail = limitOf(provider.rateLimit?.perEmail, DEFAULT_PER_EMAIL)
  if (perEmail && (await countEvent(ctx, `${provider.id}:email:${await secretKeyed(ctx, identifier)}`, perEmail.windowSeconds)) > perEmail.max) {
    throw new EmailRateLimited(`More than ${perEmail.max} sign-in emails to one address in ${perEmail.windowSeconds} s`)
  }
}

function limitOf(configured: RateLimit | false | undefined, fallback: RateLimit): RateLimit | undefined {
  if (configured === false) return undefined
  return configured ?? fallback
}

/**
 * The client's IP: the provider's `clientIp`, or what the proxy in front reports, only with
 * `trustHost` (which says there is one). The last `X-Forwarded-For` hop is the one that proxy
 * added; the first is whatever the client sent. Without a proxy a Web `Request` has no peer address.
 */
function clientIp(ctx: RequestContext, provider: EmailConfig): string | undefined {
  const { headers } = ctx.request
  const custom = provider.rateLimit ? provider.rateLimit.clientIp : undefined
  if (custom) return custom(headers)?.trim() || undefined
  if (!ctx.config.trustHost) return undefined
  const forwarded = headers.get("x-real-ip") ?? headers.get("x-forwarded-for")?.split(",").at(-1)
  return forwarded?.trim() || undefined
}
