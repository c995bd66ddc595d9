/**
 * The database-session cache (`session.cacheMaxAge` with a shared store, here a real Redis): a
 * session read is served from the store, what Gatehouse changes (sign-out, session extension,
 * signOutEverywhere, user updates) shows on every instance at once, a change made behind its back
 * shows within cacheMaxAge (the stated staleness bound), and with Redis down reads go to the adapter.
 */
import { describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/core/config.js"
import { signOutEverywhere } from "../../src/core/sign-out-everywhere.js"
import { redisStore } from "../../src/stores/redis.js"
import type { SharedStore } from "../../src/stores/index.js"
import type { AuthConfig, LoggerInstance } from "../../src/types.js"
import { ada, Client, credentialsConfig, recordingLogger, storedKey } from "../flow/flow-helpers.js"
import { ownRedis, randomPrefix } from "../support/redis.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const CACHE_MAX_AGE = 1

const own = ownRedis()

/** A memory "database" shared by the instances, counting session reads. */
async function database() {
  const raw = MemoryAdapter()
  await raw.createUser({ id: adaId, name: "Ada", email: adaEmail, emailVerified: null })
  const reads = { count: 0 }
  const adapter: Adapter = {
    ...raw,
    getSessionAndUser: (token) => {
      reads.count++
      return raw.getSessionAndUser(token)
    },
  }
  return { raw, adapter, reads }
}

function instance(adapter: Adapter, prefix: string, logger: LoggerInstance = recordingLogger().logger): AuthConfig {
  return credentialsConfig({ adapter, logger, sharedStore: redisStore({ client: own.client, prefix }), session: { strategy: "database", cacheMaxAge: CACHE_MAX_AGE } })
}

/** A browser signed in on `config` with a fresh session row. */
async function signedIn(raw: ReturnType<typeof MemoryAdapter>, config: AuthConfig): Promise<Client> {
  const token = crypto.randomUUID()
  await raw.createSession({ sessionToken: storedKey(token), userId: adaId, expires: new Date(Date.now() + 30 * 24 * 3600_000 - 1000) })
  const browser = new Client(config)
  browser.jar.cookies.set(SESSION_COOKIE, token)
  return browser
}

/** The same browser (its cookies) talking to another instance. */
function on(config: AuthConfig, browser: Client): Client {
  const moved = new Client(config)
  for (const [name, value] of browser.jar.cookies) moved.jar.cookies.set(name, value)
  return moved
}

const adaId = ada.id!
const adaEmail = ada.email!
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("the database-session cache", () => {
  it("ends, on every instance at once, the sessions a back-channel logout deletes by the provider's sid", async () => {
    const { raw, adapter } = await database()
    const prefix = randomPrefix()
    const [a, b] = [instance(adapter, prefix), instance(adapter, prefix)]
    const fromProvider = await signedIn(raw, a)
    const other = await signedIn(raw, a)
    const sid = crypto.randomUUID()
    const tokenOf = (browser: Client) => storedKey(browser.jar.cookies.get(SESSION_COOKIE)!)
    await raw.createSessionDetails(tokenOf(fromProvider), { createdAt: new Date(), userAgent: null, idpProvider: "oidc", idpSid: sid })
    // Cached on both instances.
    for (const config of [a, b]) expect(await on(config, fromProvider).session()).toMatchObject({ user: { email: adaEmail } })

    // What the back-channel receiver calls, through the configuration's (cached) adapter.
    expect(await resolveConfig(b).adapter!.deleteSessionsByIdpSid!("oidc", sid)).toEqual([adaId])
    for (const config of [a, b]) expect(await on(config, fromProvider).session()).toBeNull()
    // The user's other session is read again from the database, and stands.
    expect(await on(b, other).session()).toMatchObject({ user: { email: adaEmail } })
  })

  it("serves repeated reads on any instance from the store, not the database", async () => {
    const { raw, adapter, reads } = await database()
    const prefix = randomPrefix()
    const [a, b] = [instance(adapter, prefix), instance(adapter, prefix)]
    const browser = await signedIn(raw, a)
    expect(await browser.session()).toMatchObject({ user: { email: adaEmail, name: "Ada" } })
    expect(reads.count).toBe(1)
    for (let i = 0; i < 5; i++) expect(await on(i % 2 ? a : b, browser).session()).toMatchObject({ user: { email: adaEmail } })
    expect(reads.count).toBe(1)
  })

  it("asks the store for a repeated hit's entry and its user's mark together, in one round trip", async () => {
    const { raw, adapter } = await database()
    const redis = redisStore({ client: own.client, prefix: randomPrefix() })
    let inFlight = 0
    let mostAtOnce = 0
    const counting: SharedStore = {
      ...redis,
      get: async (key) => {
        mostAtOnce = Math.max(mostAtOnce, ++inFlight)
        try {
          return await redis.get(key)
        } finally {
          inFlight--
        }
      },
    }
    const config = credentialsConfig({ adapter, logger: recordingLogger().logger, sharedStore: counting, session: { strategy: "database", cacheMaxAge: 30 } })
    const browser = await signedIn(raw, config)
    expect(await browser.session()).toMatchObject({ user: { name: "Ada" } })
    expect(mostAtOnce).toBe(1)
    expect(await browser.session()).toMatchObject({ user: { name: "Ada" } })
    expect(mostAtOnce).toBe(2)
  })

  it("judges an entry by the mark of the user it holds, not the one this instance remembered for the session", async () => {
    const { raw, adapter } = await database()
    const bobId = crypto.randomUUID()
    await raw.createUser({ id: bobId, name: "Bob", email: "bob@example.com", emailVerified: null })
    const prefix = randomPrefix()
    const [a, b] = [instance(adapter, prefix), instance(adapter, prefix)]
    const browser = await signedIn(raw, a)
    // A remembers the session as Ada's.
    expect(await browser.session()).toMatchObject({ user: { name: "Ada" } })
    // The row moves to Bob; B caches it as Bob's, then Bob is renamed through B.
    const cachedOnB = resolveConfig(b).adapter!
    await cachedOnB.updateSession!({ sessionToken: storedKey(browser.jar.get(SESSION_COOKIE)!), userId: bobId })
    expect(await on(b, browser).session()).toMatchObject({ user: { name: "Bob" } })
    await cachedOnB.updateUser!({ id: bobId, name: "Robert" })
    // Ada's mark says nothing about Bob's entry: A must not serve "Bob".
    expect(await browser.session()).toMatchObject({ user: { name: "Robert" } })
  })

  it("ends a session signed out on one instance at once on every other", async () => {
    const { raw, adapter } = await database()
    const prefix = randomPrefix()
    const [a, b] = [instance(adapter, prefix), instance(adapter, prefix)]
    const browser = await signedIn(raw, a)
    expect(await browser.session()).not.toBeNull()
    const onB = on(b, browser)
    const signOut = await onB.postForm("signout", { csrfToken: await onB.csrfToken() })
    expect(signOut.status).toBe(302)
    expect(await browser.session()).toBeNull()
  })

  it("ends every session of a user at once after signOutEverywhere", async () => {
    const { raw, adapter } = await database()
    const prefix = randomPrefix()
    const [a, b] = [instance(adapter, prefix), instance(adapter, prefix)]
    const laptop = await signedIn(raw, a)
    const phone = await signedIn(raw, b)
    expect(await laptop.session()).not.toBeNull()
    expect(await phone.session()).not.toBeNull()
    await signOutEverywhere(adaId, b)
    expect(await laptop.session()).toBeNull()
    expect(await on(b, phone).session()).toBeNull()
  })

  it("shows a change made behind Gatehouse's back within cacheMaxAge, and not a row deleted behind its back after it", async () => {
    const { raw, adapter } = await database()
    const config = instance(adapter, randomPrefix())
    const browser = await signedIn(raw, config)
    expect(await browser.session()).toMatchObject({ user: { name: "Ada" } })
    await raw.updateUser({ id: adaId, name: "Ada King" })
    // Within the bound the cached user may still be served…
    expect(await browser.session()).toMatchObject({ user: { name: "Ada" } })
    await sleep(CACHE_MAX_AGE * 1000 + 150)
    // …and after it never.
    expect(await browser.session()).toMatchObject({ user: { name: "Ada King" } })
    await raw.deleteSession(storedKey(browser.jar.get(SESSION_COOKIE)))
    await sleep(CACHE_MAX_AGE * 1000 + 150)
    expect(await browser.session()).toBeNull()
  })

  it("shows a user updated through the adapter Gatehouse holds at once", async () => {
    const { raw, adapter } = await database()
    const config = instance(adapter, randomPrefix())
    const browser = await signedIn(raw, config)
    expect(await browser.session()).toMatchObject({ user: { name: "Ada" } })
    const { resolveConfig } = await import("../../src/core/config.js")
    await resolveConfig(config).adapter!.updateUser!({ id: adaId, name: "Countess" })
    expect(await browser.session()).toMatchObject({ user: { name: "Countess" } })
  })

  it("serves a session's authentication from the store with its date, and shows it raised on every instance at once", async () => {
    const { raw, adapter, reads } = await database()
    const prefix = randomPrefix()
    const [a, b] = [resolveConfig(instance(adapter, prefix)).adapter!, resolveConfig(instance(adapter, prefix)).adapter!]
    const token = storedKey(crypto.randomUUID())
    await raw.createSession({ sessionToken: token, userId: adaId, expires: new Date(Date.now() + 3600_000) })
    const signedInWith = { aal: 2 as const, amr: ["hwk", "user"], secondFactorAt: new Date(Date.now() - 60_000) }
    await raw.createSessionDetails(token, { createdAt: new Date(), userAgent: null, idpProvider: null, idpSid: null, ...signedInWith })
    // The second read is the store's copy: its date must come back a Date.
    for (const cached of [a, b]) expect((await cached.getSessionAndUser!(token))?.session.authentication).toEqual(signedInWith)
    expect(reads.count).toBe(1)

    const raised = { aal: 2 as const, amr: ["pwd", "otp", "mfa"], secondFactorAt: new Date(Date.now() - 1000) }
    expect(await b.updateSessionAuthentication!(token, raised)).toBe(true)
    for (const cached of [a, b]) expect((await cached.getSessionAndUser!(token))?.session.authentication).toEqual(raised)
    expect(reads.count).toBe(3)
  })

  it("does not cache a session's old authentication from a read in flight when it was raised", async () => {
    const { raw } = await database()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let holdNext = true
    // A read that fetched the row before the step-up and reaches the cache after it.
    const slow: Adapter = {
      ...raw,
      getSessionAndUser: async (token) => {
        const found = await raw.getSessionAndUser(token)
        if (holdNext) {
          holdNext = false
          await gate
        }
        return found
      },
    }
    const prefix = randomPrefix()
    const [a, b] = [resolveConfig(instance(slow, prefix)).adapter!, resolveConfig(instance(raw, prefix)).adapter!]
    const token = storedKey(crypto.randomUUID())
    await raw.createSession({ sessionToken: token, userId: adaId, expires: new Date(Date.now() + 3600_000) })
    const inFlight = a.getSessionAndUser!(token)
    await sleep(50)
    const raised = { aal: 2 as const, amr: ["otp"], secondFactorAt: new Date() }
    expect(await b.updateSessionAuthentication!(token, raised)).toBe(true)
    release()
    expect((await inFlight)?.session.authentication).toBeNull()
    for (const cached of [a, b]) expect((await cached.getSessionAndUser!(token))?.session.authentication).toEqual(raised)
  })

  it("does not put back a session a sign-out deleted while its read was in flight", async () => {
    const { raw } = await database()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let holdNext = true
    // A read that fetched the row before the sign-out and reaches the cache after it.
    const slow: Adapter = {
      ...raw,
      getSessionAndUser: async (token) => {
        const found = await raw.getSessionAndUser(token)
        if (holdNext) {
          holdNext = false
          await gate
        }
        return found
      },
    }
    const prefix = randomPrefix()
    const [a, b] = [instance(slow, prefix), instance(raw, prefix)]
    const browser = await signedIn(raw, a)
    const inFlight = browser.session()
    await sleep(50)
    const onB = on(b, browser)
    await onB.postForm("signout", { csrfToken: await onB.csrfToken() })
    release()
    await inFlight
    expect(await on(a, browser).session()).toBeNull()
  })

  it("writes a sign-out the store missed on one instance as soon as that instance reaches the store again", async () => {
    const { raw, adapter } = await database()
    const prefix = randomPrefix()
    // Instance B is cut off from Redis (a partition), A is not.
    let cutOff = false
    const redis = redisStore({ client: own.client, prefix })
    const partitioned: SharedStore = Object.fromEntries(
      Object.entries(redis).map(([name, method]) => [name, (...args: never[]) => (cutOff ? Promise.reject(new Error("unreachable")) : (method as (...a: never[]) => Promise<unknown>)(...args))]),
    ) as unknown as SharedStore
    const a = instance(adapter, prefix)
    const b = credentialsConfig({ adapter, logger: recordingLogger().logger, sharedStore: partitioned, session: { strategy: "database", cacheMaxAge: 30 } })
    const browser = await signedIn(raw, a)
    expect(await browser.session()).not.toBeNull()
    cutOff = true
    const onB = on(b, browser)
    await onB.postForm("signout", { csrfToken: await onB.csrfToken() })
    // The stated bound: until B reaches the store, A may serve its cached copy.
    expect(await on(a, browser).session()).not.toBeNull()
    cutOff = false
    // B's next use of the store writes the sign-out first.
    expect(await on(b, await signedIn(raw, b)).session()).not.toBeNull()
    expect(await on(a, browser).session()).toBeNull()
  })

  it("reads from the database while Redis is down, logging it once", async () => {
    const { raw, adapter, reads } = await database()
    const { logger, lines } = recordingLogger()
    const config = instance(adapter, randomPrefix(), logger)
    const browser = await signedIn(raw, config)
    await own.server.stop()
    while (own.client.isReady) await sleep(20)
    for (let i = 0; i < 3; i++) expect(await browser.session()).toMatchObject({ user: { email: adaEmail } })
    expect(reads.count).toBe(3)
    expect(lines.filter((line) => line.code === "shared-store-unavailable")).toHaveLength(1)
    await own.server.start()
    while (!own.client.isReady) await sleep(20)
  })
})
