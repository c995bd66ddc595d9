/**
 * Throttling of sign-in attempts in fixed windows, shared by the email and credentials flows.
 * An attempt is counted in each of its buckets in turn (per client IP, per address or
 * identifier) through `event-counter`, so the adapter's `hitRateLimit` is the store when it has
 * one; the first bucket over its limit refuses it, and the buckets after it are not counted.
 * Keys hold secret-keyed hashes, never an identifier or an IP in the clear.
 * @module
 */
import type { RateLimited } from "../errors.js"
import type { RateLimit } from "../providers/types.js"
import { countEvent, secretKeyed } from "./event-counter.js"
import type { RequestContext } from "./request-context.js"

/** One limit an attempt counts against. */
export interface ThrottleBucket {
  /** What is counted, e.g. `email:ip` (provider id, then the kind of value); the start of the key. */
  scope: string
  /** The value counted in this bucket: an address, an identifier, an IP. Only its keyed hash is stored. */
  value: string
  limit: RateLimit
  /** The error for an attempt over the limit, given the seconds until the window ends. */
  refuse(retryAfter: number): RateLimited
}

/**
 * Counts one attempt in every bucket, in order.
 *
 * @throws {RateLimited} the `refuse` of the first bucket over its limit; the buckets after it
 *   are not counted. The counts are the same whoever the value belongs to, so a refusal tells
 *   nothing about whether an account exists.
 */
export async function throttle(ctx: RequestContext, buckets: readonly ThrottleBucket[]): Promise<void> {
  for (const { scope, value, limit, refuse } of buckets) {
    const { count, resetsIn } = await countEvent(ctx, `${scope}:${await secretKeyed(ctx, value)}`, limit.windowSeconds)
    if (count > limit.max) throw refuse(resetsIn)
  }
}

/** The limit to apply: none when turned off with `false`, the default when not configured. */
export function limitOf(configured: RateLimit | false | undefined, fallback: RateLimit): RateLimit | undefined {
  if (configured === false) return undefined
  return configured ?? fallback
}

/**
 * The client's IP: the provider's `clientIp`, or what the proxy in front reports, only with
 * `trustHost` (which says there is one). The last `X-Forwarded-For` hop is the one that proxy
 * added; the first is whatever the client sent. Without a proxy a Web `Request` has no peer address.
 */
export function clientIp(ctx: RequestContext, custom: ((headers: Headers) => string | null | undefined) | undefined): string | undefined {
  const { headers } = ctx.request
  if (custom) return custom(headers)?.trim() || undefined
  if (!ctx.config.trustHost) return undefined
  const forwarded = headers.get("x-real-ip") ?? headers.get("x-forwarded-for")?.split(",").at(-1)
  return forwarded?.trim() || undefined
}
