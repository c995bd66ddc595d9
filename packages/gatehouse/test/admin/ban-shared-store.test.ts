/**
 * A ban ends the user's sessions on every instance at once, the copies a shared store (here the
 * run's real Redis) keeps included: two instances share one database and one Redis, the session
 * is read (and cached) on both, and the ban made through one is seen by the other at its next read.
 */
import type { RedisClientType } from "redis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { banUser } from "../../src/index.js"
import { redisStore } from "../../src/stores/redis.js"
import type { AuthConfig } from "../../src/types.js"
import { Client } from "../flow/flow-helpers.js"
import { randomPrefix, redisUrl, testRedisClient } from "../support/redis.js"
import { adminConfig, pageRequest, person, roleAdmin, sessionEmail, signedIn, signIn, STORE_KINDS, type AdminStore } from "./admin-harness.js"

let redis: RedisClientType
beforeAll(async () => {
  redis = await testRedisClient(redisUrl()).connect()
})
afterAll(() => redis.destroy())

/** Two instances of one app: the same database and Redis, each configuration resolved (and caching) apart. */
function instances(adapter: AdminStore, session: AuthConfig["session"]): [AuthConfig, AuthConfig] {
  const prefix = randomPrefix()
  const one = () => adminConfig(adapter, { session, sharedStore: redisStore({ client: redis, prefix }) })
  return [one(), one()]
}

/** The same browser (its cookies) talking to another instance. */
function on(config: AuthConfig, browser: Client): Client {
  const moved = new Client(config)
  for (const [name, value] of browser.jar.cookies) moved.jar.cookies.set(name, value)
  return moved
}

for (const kind of STORE_KINDS) {
  describe(`a ban with a shared store, on ${kind.name}`, () => {
    const store = kind.use()

    it("ends a cached database session on every instance at once, and the next sign-in is refused", async () => {
      const adapter = store()
      // Cached for a minute: only the ban's own invalidation can end the copies sooner.
      const [a, b] = instances(adapter, { strategy: "database", cacheMaxAge: 60 })
      const [admin, target] = [await roleAdmin(adapter), await person(adapter)]
      const browser = await signedIn(a, target)
      for (const config of [a, b]) expect(await sessionEmail(on(config, browser))).toBe(target.email)

      await banUser(pageRequest(await signedIn(b, admin)), b, target.id, { reason: "abuse" })
      for (const config of [a, b]) expect(await sessionEmail(on(config, browser))).toBeNull()
      expect((await signIn(a, target)).location).toMatch(/error=UserBanned/)
    })

    it("ends a JWT session checked on every read (revocationCheckAge: 0) on every instance at once, the session version cached in the store replaced", async () => {
      const adapter = store()
      const [a, b] = instances(adapter, { strategy: "jwt", revocationCheckAge: 0 })
      const [admin, target] = [await roleAdmin(adapter), await person(adapter)]
      const browser = await signedIn(a, target)
      // Each read checks the version, which the store now holds for both instances.
      for (const config of [a, b]) expect(await sessionEmail(on(config, browser))).toBe(target.email)

      await banUser(pageRequest(await signedIn(b, admin)), b, target.id)
      for (const config of [a, b]) expect(await sessionEmail(on(config, browser))).toBeNull()
      expect((await signIn(b, target)).location).toMatch(/error=UserBanned/)
    })
  })
}
