/**
 * Throttling of credentials sign-in attempts, per client IP and per identifier, through the
 * shared `throttle`, before `authorize` runs. Keys: `<provider>:ip:…`, `<provider>:identifier:…`.
 * @module
 */
import { CredentialsRateLimited } from "../../errors.js"
import type { CredentialsConfig, RateLimit } from "../../providers/types.js"
import type { RequestContext } from "../request-context.js"
import { clientIp, limitOf, throttle, type ThrottleBucket } from "../throttle.js"

// Why these numbers: see CredentialsRateLimits in providers/types.ts.
const DEFAULT_PER_IDENTIFIER: RateLimit = { max: 10, windowSeconds: 15 * 60 }
const DEFAULT_PER_IP: RateLimit = { max: 100, windowSeconds: 15 * 60 }

/**
 * Counts one sign-in attempt for the client and for the identifier the posted fields name.
 *
 * @throws {CredentialsRateLimited} when either is over its limit; the same whether or not the
 *   identifier belongs to anyone, as every attempt counts alike.
 */
export async function throttleCredentialsAttempt(ctx: RequestContext, provider: CredentialsConfig, credentials: Record<string, unknown>): Promise<void> {
  const { rateLimit } = provider
  if (rateLimit === false) return
  const buckets: ThrottleBucket[] = []
  const perIp = limitOf(rateLimit?.perIp, DEFAULT_PER_IP)
  const ip = perIp && clientIp(ctx, rateLimit?.clientIp)
  if (perIp && ip) {
    buckets.push({
      scope: `${provider.id}:ip`,
      value: ip,
      limit: perIp,
      refuse: (retryAfter) => new CredentialsRateLimited(`More than ${perIp.max} sign-in attempts from one client in ${perIp.windowSeconds} s`, { retryAfter }),
    })
  }
  const perIdentifier = limitOf(rateLimit?.perIdentifier, DEFAULT_PER_IDENTIFIER)
  const identifier = perIdentifier && identifierOf(credentials, rateLimit?.identifier)
  if (perIdentifier && identifier) {
    buckets.push({
      scope: `${provider.id}:identifier`,
      value: identifier,
      limit: perIdentifier,
      refuse: (retryAfter) =>
        new CredentialsRateLimited(`More than ${perIdentifier.max} sign-in attempts for one identifier in ${perIdentifier.windowSeconds} s`, { retryAfter }),
    })
  }
  await throttle(ctx, buckets)
}

/**
 * Who the attempt is for: the provider's `identifier`, else the posted `email` or `username`.
 * Normalized so that `Ada@Example.com `, `ada@example.com` and its full-width spelling share one
 * count; a custom identifier is the application's own and used as it is.
 */
function identifierOf(
  credentials: Record<string, unknown>,
  custom: ((credentials: Partial<Record<string, unknown>>) => string | undefined) | undefined,
): string | undefined {
  if (custom) {
    const chosen: unknown = custom(credentials)
    return typeof chosen === "string" && chosen !== "" ? chosen : undefined
  }
  for (const field of ["email", "username"]) {
    const value = credentials[field]
    if (typeof value !== "string") continue
    const normalized = value.normalize("NFKC").trim().toLowerCase()
    if (normalized !== "") return normalized
  }
  return undefined
}
