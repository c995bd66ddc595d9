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
  if (perIdentifier) {
    for (const identifier of identifiersOf(credentials, rateLimit?.identifier)) {
      buckets.push({
        scope: `${provider.id}:identifier`,
        value: identifier,
        limit: perIdentifier,
        refuse: (retryAfter) =>
          new CredentialsRateLimited(`More than ${perIdentifier.max} sign-in attempts for one identifier in ${perIdentifier.windowSeconds} s`, { retryAfter }),
      })
    }
  }
  await throttle(ctx, buckets)
}

/**
 * Who the attempt is for: the provider's `identifier`, else both the posted `email` and
 * `username` (each counted: an `authorize` reading one must not be guessed at through junk in
 * the other). Values are read as `String()` would read them, since `authorize` may (a JSON array
 * `["ada@app.test"]` is `ada@app.test`), then normalized so that `Ada@Example.com `,
 * `ada@example.com` and its full-width spelling share one count. A custom identifier is the
 * application's own and used as it is.
 */
function identifiersOf(
  credentials: Record<string, unknown>,
  custom: ((credentials: Partial<Record<string, unknown>>) => string | undefined) | undefined,
): string[] {
  if (custom) {
    const chosen: unknown = custom(credentials)
    return typeof chosen === "string" && chosen !== "" ? [chosen] : []
  }
  const found = new Set<string>()
  for (const field of ["email", "username"]) {
    const value = credentials[field]
    if (value === undefined || value === null) continue
    const normalized = String(value).normalize("NFKC").trim().toLowerCase()
    if (normalized !== "") found.add(normalized)
  }
  return [...found]
}
