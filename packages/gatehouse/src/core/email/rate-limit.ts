/**
 * Throttling of sign-in emails, per address and per client IP. Counts go to the adapter's
 * `hitRateLimit` when it has one (every instance then shares them), else to memory kept per
 * configuration. Keys hold hashes, never an address or an IP in the clear.
 * @module
 */
import { EmailRateLimited } from "../../errors.js"
import type { EmailConfig, RateLimit } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import type { ResolvedConfig } from "../config.js"
import { sha256Hex } from "../crypto.js"
import type { RequestContext } from "../request-context.js"

const DEFAULT_PER_EMAIL: RateLimit = { max: 5, windowSeconds: 15 * 60 }
const DEFAULT_PER_IP: RateLimit = { max: 30, windowSeconds: 15 * 60 }
/** Windows kept in memory before expired ones are swept; a bound on what a flood can make us hold. */
const MEMORY_SWEEP_AT = 10_000

/**
 * Counts one sign-in email for the client and for `identifier`.
 *
 * @throws {EmailRateLimited} when either is over its limit. Nothing says whether the address
 *   belongs to a user: the counts are the same for every address.
 */
export async function throttleSignInEmail(ctx: RequestContext, provider: EmailConfig, identifier: string): Promise<void> {
  if (provider.rateLimit === false) return
  const perIp = limitOf(provider.rateLimit?.perIp, DEFAULT_PER_IP)
  const ip = perIp && clientIp(ctx)
  if (perIp && ip && (await hit(ctx, `${provider.id}:ip:${await sha256Hex(ip)}`, perIp)) > perIp.max) {
    throw new EmailRateLimited(`More than ${perIp.max} sign-in emails from one client in ${perIp.windowSeconds} s`)
  }
  const perEmail = limitOf(provider.rateLimit?.perEmail, DEFAULT_PER_EMAIL)
  if (perEmail && (await hit(ctx, `${provider.id}:email:${await sha256Hex(identifier)}`, perEmail)) > perEmail.max) {
    throw new EmailRateLimited(`More than ${perEmail.max} sign-in emails to one address in ${perEmail.windowSeconds} s`)
  }
}

function limitOf(configured: RateLimit | false | undefined, fallback: RateLimit): RateLimit | undefined {
  if (configured === false) return undefined
  return configured ?? fallback
}

/**
 * The client's IP as the proxy in front reports it; only with `trustHost`, which says there is
 * such a proxy. Without one, a Web `Request` does not know the peer's address.
 */
function clientIp(ctx: RequestContext): string | undefined {
  if (!ctx.config.trustHost) return undefined
  const { headers } = ctx.request
  const forwarded = headers.get("x-real-ip") ?? headers.get("x-forwarded-for")?.split(",")[0]
  return forwarded?.trim() || undefined
}

async function hit(ctx: RequestContext, key: string, limit: RateLimit): Promise<number> {
  const { adapter } = ctx.config
  if (typeof adapter?.hitRateLimit === "function") return callAdapter(adapter, "hitRateLimit", key, limit.windowSeconds)
  return memoryHit(ctx.config, key, limit.windowSeconds)
}

interface Window {
  count: number
  resetAt: number
}

const memory = new WeakMap<ResolvedConfig, Map<string, Window>>()

function memoryHit(config: ResolvedConfig, key: string, windowSeconds: number): number {
  let windows = memory.get(config)
  if (!windows) memory.set(config, (windows = new Map()))
  const now = Date.now()
  if (windows.size >= MEMORY_SWEEP_AT) for (const [stale, window] of windows) if (window.resetAt <= now) windows.delete(stale)
  const current = windows.get(key)
  if (current && current.resetAt > now) return ++current.count
  windows.set(key, { count: 1, resetAt: now + windowSeconds * 1000 })
  return 1
}
