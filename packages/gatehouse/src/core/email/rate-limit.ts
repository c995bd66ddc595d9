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
/** Windows kept in memory at most; beyond it the oldest go first, so a flood of addresses is bounded. */
const MEMORY_LIMIT = 50_000
/** Expired windows are swept at most this often (ms), not on every request. */
const SWEEP_INTERVAL_MS = 60_000

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
  if (perIp && ip && (await hit(ctx, `${provider.id}:ip:${await keyed(ctx, ip)}`, perIp)) > perIp.max) {
    throw new EmailRateLimited(`More than ${perIp.max} sign-in emails from one client in ${perIp.windowSeconds} s`)
  }
  const perEmail = limitOf(provider.rateLimit?.perEmail, DEFAULT_PER_EMAIL)
  if (perEmail && (await hit(ctx, `${provider.id}:email:${await keyed(ctx, identifier)}`, perEmail)) > perEmail.max) {
    throw new EmailRateLimited(`More than ${perEmail.max} sign-in emails to one address in ${perEmail.windowSeconds} s`)
  }
}

/** A digest keyed with the secret: a plain hash of an IP or a guessable address could be reversed by trying candidates. */
function keyed(ctx: RequestContext, value: string): Promise<string> {
  return sha256Hex(`${ctx.config.secret[0]}\u0000${value}`)
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

async function hit(ctx: RequestContext, key: string, limit: RateLimit): Promise<number> {
  const { adapter } = ctx.config
  if (typeof adapter?.hitRateLimit === "function") return callAdapter(adapter, "hitRateLimit", key, limit.windowSeconds)
  return memoryHit(ctx.config, key, limit.windowSeconds)
}

interface Windows {
  entries: Map<string, { count: number; resetAt: number }>
  sweptAt: number
}

const memory = new WeakMap<ResolvedConfig, Windows>()

function memoryHit(config: ResolvedConfig, key: string, windowSeconds: number): number {
  let windows = memory.get(config)
  if (!windows) memory.set(config, (windows = { entries: new Map(), sweptAt: 0 }))
  const { entries } = windows
  const now = Date.now()
  if (now - windows.sweptAt >= SWEEP_INTERVAL_MS || entries.size >= MEMORY_LIMIT) {
    windows.sweptAt = now
    for (const [stale, window] of entries) if (window.resetAt <= now) entries.delete(stale)
    // Still full of live windows: drop the oldest tenth (a Map iterates in insertion order).
    if (entries.size >= MEMORY_LIMIT) for (const stale of [...entries.keys()].slice(0, MEMORY_LIMIT / 10)) entries.delete(stale)
  }
  const current = entries.get(key)
  if (current && current.resetAt > now) return ++current.count
  entries.set(key, { count: 1, resetAt: now + windowSeconds * 1000 })
  return 1
}
