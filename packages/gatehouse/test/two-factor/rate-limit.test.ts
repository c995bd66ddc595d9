/**
 * Second-factor codes counted per user and per client, and a pending sign-in's tries and its
 * spending, on the real Redis shared by two instances: neither instance gives more tries than
 * the limit, and a pending sign-in finished on one is refused on the other.
 */
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import { createRequestContext, type RequestContext } from "../../src/core/request-context.js"
import { PENDING_MAX_ATTEMPTS, countAttempt, spendPending, startPending } from "../../src/core/two-factor/pending.js"
import { TWO_FACTOR_PER_IP, TWO_FACTOR_PER_USER, throttleTwoFactorAttempt } from "../../src/core/two-factor/rate-limit.js"
import { RateLimited } from "../../src/errors.js"
import { redisStore } from "../../src/stores/redis.js"
import type { AuthConfig } from "../../src/types.js"
import { connectedRedis, randomPrefix } from "../support/redis.js"

const secret = "two-factor-limit-secret-0123456789abcdef"
const client = await connectedRedis()

/** Two instances of one app: separate configuration objects, one Redis prefix. */
function instances(): [AuthConfig, AuthConfig] {
  const prefix = randomPrefix()
  const one = (): AuthConfig => ({ secret, trustHost: true, providers: [], sharedStore: redisStore({ client, prefix }) })
  return [one(), one()]
}

async function context(config: AuthConfig, ip: string): Promise<RequestContext> {
  const request = new Request("https://app.test/auth/signin", { headers: { "x-forwarded-for": ip } })
  return createRequestContext(resolveConfig(config), await toInternalRequest(request, "/auth"))
}

async function refused(attempt: Promise<void>): Promise<RateLimited | undefined> {
  try {
    await attempt
    return undefined
  } catch (error) {
    if (error instanceof RateLimited) return error
    throw error
  }
}

describe("second-factor throttling across instances", () => {
  it(`allows ${TWO_FACTOR_PER_USER.max} codes per user across both instances, then refuses with Retry-After`, async () => {
    const [a, b] = instances()
    for (let i = 0; i < TWO_FACTOR_PER_USER.max; i++) {
      // Alternating instances and clients: the user's count is one count.
      expect(await refused(throttleTwoFactorAttempt(await context(i % 2 ? a : b, `198.51.100.${i}`), "user-1"))).toBeUndefined()
    }
    const refusal = await refused(throttleTwoFactorAttempt(await context(a, "198.51.100.200"), "user-1"))
    expect(refusal?.type).toBe("RateLimited")
    expect(refusal?.retryAfter).toBeGreaterThan(0)
    expect(refusal?.message).toContain("for one user")
    // Another user is not held back by it.
    expect(await refused(throttleTwoFactorAttempt(await context(b, "198.51.100.201"), "user-2"))).toBeUndefined()
  })

  it(`allows ${TWO_FACTOR_PER_IP.max} codes from one client across both instances, whoever they are for`, async () => {
    const [a, b] = instances()
    for (let i = 0; i < TWO_FACTOR_PER_IP.max; i++) {
      expect(await refused(throttleTwoFactorAttempt(await context(i % 2 ? a : b, "203.0.113.7"), `user-${i}`))).toBeUndefined()
    }
    const refusal = await refused(throttleTwoFactorAttempt(await context(b, "203.0.113.7"), "user-new"))
    expect(refusal?.message).toContain("from one client")
  })

  it(`gives a pending sign-in ${PENDING_MAX_ATTEMPTS} tries in all, whichever instance its cookie is replayed to`, async () => {
    const [a, b] = instances()
    const { pending } = await startPending(await context(a, "192.0.2.1"), { uid: "user-1", mode: "challenge", isNewUser: false, firstAmr: ["pwd"], account: null, next: "/" })
    const allowed: boolean[] = []
    for (let i = 0; i < PENDING_MAX_ATTEMPTS + 2; i++) allowed.push((await countAttempt(await context(i % 2 ? a : b, "192.0.2.1"), pending.pid)).allowed)
    expect(allowed).toEqual([true, true, true, true, true, false, false])
  })

  it("spends a pending sign-in once across instances, also when both submit at the same time", async () => {
    const [a, b] = instances()
    const ctxA = await context(a, "192.0.2.1")
    const { pending } = await startPending(ctxA, { uid: "user-1", mode: "challenge", isNewUser: false, firstAmr: ["pwd"], account: null, next: "/" })
    const results = await Promise.all([spendPending(ctxA, pending.pid), spendPending(await context(b, "192.0.2.1"), pending.pid)])
    expect(results.sort()).toEqual([false, true])
  })
})
