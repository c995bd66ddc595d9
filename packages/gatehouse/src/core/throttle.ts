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
 * The client's IP, for the per-IP buckets: what the provider's `clientIp` reads; else the first
 * value of the header the app named (`trustedIpHeader`: its proxy overwrites it); else, only with
 * `trustHost` (which says a proxy is in front), the last `X-Forwarded-For` hop, the one that proxy
 * appended: every hop before it, and any other header, is the client's to write, and reading one
 * would let a client pick a fresh bucket per attempt. A port a proxy puts after the address
 * (Azure Application Gateway's `203.0.113.9:51234`) is dropped, or every connection would count
 * apart. Without any of these a Web `Request` has no peer address, and there is no per-IP bucket.
 */
export function clientIp(ctx: RequestContext, custom: ((headers: Headers) => string | null | undefined) | undefined): string | undefined {
  const { headers } = ctx.request
  let address: string | null | undefined
  if (custom) address = custom(headers)
  else if (ctx.config.trustedIpHeader !== undefined) address = headers.get(ctx.config.trustedIpHeader)?.split(",")[0]
  else if (ctx.config.trustHost) address = headers.get("x-forwarded-for")?.split(",").at(-1)
  const trimmed = address?.trim()
  return trimmed ? withoutPort(trimmed) : undefined
}

/** `203.0.113.9:51234` → `203.0.113.9`, `[2001:db8::1]:443` → `2001:db8::1`; anything else as it is. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address)
  if (bracketed) return bracketed[1]!
  const ipv4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address)
  return ipv4 ? ipv4[1]! : address
}
