/**
 * What the core keeps in the shared store, and what it does when the store (a real Redis, stopped
 * and started here) cannot be reached: rate limits fall back to the adapter's hitRateLimit or are
 * refused with 503 (never counted by one process alone), spent passkey challenges and logout tokens
 * likewise (kept by the adapter's hitRateLimit whenever it has one, so a Redis that forgets cannot
 * let them be replayed), session versions are read from the adapter; each failing use is logged
 * once per outage, never a 500.
 * Two configuration objects on one store stand for two instances of an app.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/core/config.js"
import { Auth } from "../../src/core/handler.js"
import type { RequestContext } from "../../src/core/request-context.js"
import { signOutEverywhere } from "../../src/core/sign-out-everywhere.js"
import { spendChallenge } from "../../src/core/webauthn/challenge.js"
import { ServerBusy, WebAuthnVerificationError } from "../../src/errors.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { SharedStore } from "../../src/stores/index.js"
import { redisStore } from "../../src/stores/redis.js"
import type { AuthConfig, LoggerInstance } from "../../src/types.js"
import { ada, Client, credentialsConfig, recordingLogger } from "../flow/flow-helpers.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { gate } from "../support/paced-adapter.js"
import { ownRedis, randomPrefix } from "../support/redis.js"

const own = ownRedis()
beforeEach(async () => {
  // A test that stopped Redis leaves it running again for the next.
  await own.server.start()
  await until(() => own.client.isReady)
})

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A credentials provider for ada, limited to `max` attempts per identifier per minute. */
function limited(max: number, extra: Partial<AuthConfig>, logger: LoggerInstance = recordingLogger().logger): AuthConfig {
  return credentialsConfig({
    logger,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => (username === "ada" && password === "correct horse" ? { ...ada } : null),
        rateLimit: { perIdentifier: { max, windowSeconds: 60 }, perIp: false },
      }),
    ],
    ...extra,
  })
}

const adaId = ada.id!
const adaEmail = ada.email!
const wrongPassword = (config: AuthConfig) => new Client(config).signIn({ username: "ada", password: "wrong" })
const warnings = (lines: ReturnType<typeof recordingLogger>["lines"], code: string) => lines.filter((line) => line.code === code)

describe("rate limits in the shared store", () => {
  it("hold across instances: the limit is the store's count, not one per instance", async () => {
    const prefix = randomPrefix()
    const instances = [limited(3, { sharedStore: redisStore({ client: own.client, prefix }) }), limited(3, { sharedStore: redisStore({ client: own.client, prefix }) })]
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await wrongPassword(instances[i % 2]!)).status)
    // Three wrong passwords redirect back to the form; every attempt after them is refused, on either instance.
    expect(statuses).toEqual([302, 302, 302, 429, 429, 429])
  })

  it("are refused with 503 and Retry-After while Redis is down and the adapter cannot count, logged once", async () => {
    const { logger, lines } = recordingLogger()
    const config = limited(3, { sharedStore: redisStore({ client: own.client, prefix: randomPrefix() }) }, logger)
    await own.server.stop()
    await until(() => !own.client.isReady)
    for (let i = 0; i < 3; i++) {
      const started = Date.now()
      const response = await wrongPassword(config)
      expect(response.status).toBe(503)
      expect(response.headers.get("retry-after")).toBe("5")
      expect(Date.now() - started).toBeLessThan(1000)
    }
    expect(warnings(lines, "shared-store-unavailable")).toHaveLength(1)
    expect(String(warnings(lines, "shared-store-unavailable")[0]!.message[0])).toMatch(/refused with 503/)
    await own.server.start()
    await until(() => own.client.isReady)
    expect((await wrongPassword(config)).status).toBe(302)
    expect(warnings(lines, "shared-store-recovered")).toHaveLength(1)
  })

  it("fall back to the adapter's hitRateLimit while Redis is down, which still enforces the limit", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: adaId, email: adaEmail, emailVerified: null })
    const config = limited(2, { adapter, session: { strategy: "jwt" }, sharedStore: redisStore({ client: own.client, prefix: randomPrefix() }) })
    await own.server.stop({ crash: true })
    await until(() => !own.client.isReady)
    const statuses = [(await wrongPassword(config)).status, (await wrongPassword(config)).status, (await wrongPassword(config)).status]
    expect(statuses).toEqual([302, 302, 429])
  })
})

describe("spent passkey challenges in the shared store", () => {
  const ctxOf = (config: AuthConfig) => ({ config: resolveConfig(config) }) as RequestContext

  it("are refused on every instance once spent on one", async () => {
    const prefix = randomPrefix()
    const a = ctxOf(credentialsConfig({ sharedStore: redisStore({ client: own.client, prefix }) }))
    const b = ctxOf(credentialsConfig({ sharedStore: redisStore({ client: own.client, prefix }) }))
    await spendChallenge(a, "challenge-1")
    await expect(spendChallenge(b, "challenge-1")).rejects.toBeInstanceOf(WebAuthnVerificationError)
    await expect(spendChallenge(a, "challenge-1")).rejects.toBeInstanceOf(WebAuthnVerificationError)
  })

  it("are kept by the adapter's hitRateLimit when it has one, so Redis restarted empty does not forget them", async () => {
    const prefix = randomPrefix()
    const adapter = MemoryAdapter()
    const a = ctxOf(credentialsConfig({ adapter, sharedStore: redisStore({ client: own.client, prefix }) }))
    const b = ctxOf(credentialsConfig({ adapter, sharedStore: redisStore({ client: own.client, prefix }) }))
    await spendChallenge(a, "challenge-3")
    // Nothing is persisted: the server comes back empty, as one without persistence would.
    await own.server.stop()
    await own.server.start()
    await until(() => own.client.isReady)
    await expect(spendChallenge(b, "challenge-3")).rejects.toThrow("This challenge was already used")
    expect(await own.client.keys(`${prefix}*`)).toEqual([])
  })

  it("are not accepted on trust while Redis is down: refused as busy without an adapter to count in", async () => {
    const ctx = ctxOf(credentialsConfig({ sharedStore: redisStore({ client: own.client, prefix: randomPrefix() }) }))
    await own.server.stop()
    await until(() => !own.client.isReady)
    await expect(spendChallenge(ctx, "challenge-2")).rejects.toBeInstanceOf(ServerBusy)
  })
})

describe("spent logout tokens in the shared store", () => {
  let idp: OidcServer
  beforeAll(async () => {
    idp = await startOidcServer({ clients: [{ client_id: "app-client", client_secret: "app-secret", redirect_uris: ["https://app.test/auth/callback/idp"] }], accounts: {} })
  })
  afterAll(() => idp?.stop())

  /** One instance of an app receiving the provider's back-channel logouts; `sub` alice is its user ada. */
  const instance = (adapter: Adapter, prefix: string): AuthConfig & { raw?: undefined } => ({
    secret: credentialsConfig().secret,
    trustHost: true,
    adapter,
    logger: recordingLogger().logger,
    backchannelLogout: true,
    sharedStore: redisStore({ client: own.client, prefix }),
    providers: [{ id: "idp", name: "IdP", type: "oidc", issuer: idp.issuer, clientId: "app-client", clientSecret: "app-secret" }],
  })
  const post = (config: AuthConfig & { raw?: undefined }, token: string) =>
    Auth(
      new Request("https://app.test/auth/backchannel-logout/idp", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ logout_token: token }),
      }),
      config,
    )
  const newSession = async (adapter: Adapter) => {
    const sessionToken = crypto.randomUUID()
    await adapter.createSession!({ sessionToken, userId: adaId, expires: new Date(Date.now() + 3_600_000) })
    return sessionToken
  }

  it("are kept by the adapter's hitRateLimit when it has one, so a token replayed after Redis restarted empty ends nothing", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: adaId, email: adaEmail, emailVerified: null })
    await adapter.linkAccount({ userId: adaId, type: "oidc", provider: "idp", providerAccountId: "alice" })
    const prefix = randomPrefix()
    const [a, b] = [instance(adapter, prefix), instance(adapter, prefix)]
    const token = await idp.signJwt(
      {
        iss: idp.issuer,
        aud: "app-client",
        iat: Math.floor(Date.now() / 1000),
        jti: crypto.randomUUID(),
        sub: "alice",
        events: { "http://schemas.openid.net/event/backchannel-logout": {} },
      },
      { typ: "logout+jwt" },
    )
    const first = await newSession(adapter)
    expect((await post(a, token)).status).toBe(200)
    expect(await adapter.getSessionAndUser(first)).toBeNull()
    // Nothing is persisted: the server comes back empty, as one without persistence would.
    await own.server.stop()
    await own.server.start()
    await until(() => own.client.isReady)
    const newer = await newSession(adapter)
    const replay = await post(b, token)
    expect(replay.status).toBe(400)
    expect(await replay.json()).toMatchObject({ error: "invalid_request", error_description: expect.stringMatching(/used before/) })
    expect(await adapter.getSessionAndUser(newer)).toMatchObject({ user: { id: adaId } })
    expect(await own.client.keys(`${prefix}*`)).toEqual([])
  })
})

describe("JWT session versions in the shared store", () => {
  /** The memory adapter, counting getSessionVersion calls. */
  function countingAdapter() {
    const adapter = MemoryAdapter()
    const calls = { getSessionVersion: 0 }
    const counted: Adapter = {
      ...adapter,
      getSessionVersion: (userId) => {
        calls.getSessionVersion++
        return adapter.getSessionVersion(userId)
      },
    }
    return { adapter: counted, raw: adapter, calls }
  }

  it("are read from the store after the first check, and signOutEverywhere on one instance ends the session on another at its next check", async () => {
    const { adapter, raw, calls } = countingAdapter()
    await raw.createUser({ id: adaId, email: adaEmail, emailVerified: null })
    const prefix = randomPrefix()
    const instance = (logger: LoggerInstance = recordingLogger().logger) =>
      credentialsConfig({ adapter, logger, session: { strategy: "jwt", revocationCheckAge: 0 }, sharedStore: redisStore({ client: own.client, prefix }) })
    const a = instance()
    const b = instance()
    const browser = new Client(a)
    await browser.signIn()
    expect(await browser.session()).toMatchObject({ user: { email: adaEmail } })
    const before = calls.getSessionVersion
    for (let i = 0; i < 5; i++) expect(await browser.session()).not.toBeNull()
    expect(calls.getSessionVersion).toBe(before)

    await signOutEverywhere(adaId, b)
    const onB = new Client(b)
    onB.jar.cookies.clear()
    for (const [name, value] of browser.jar.cookies) onB.jar.cookies.set(name, value)
    expect(await onB.session()).toBeNull()
    expect(await browser.session()).toBeNull()
  })

  it("are replaced when the account routes end every other session: the other browsers end on every instance, this one goes on", async () => {
    const { adapter, raw } = countingAdapter()
    await raw.createUser({ id: adaId, email: adaEmail, emailVerified: null })
    const prefix = randomPrefix()
    const instance = () =>
      credentialsConfig({
        adapter,
        logger: recordingLogger().logger,
        session: { strategy: "jwt", revocationCheckAge: 0 },
        account: { routes: true },
        sharedStore: redisStore({ client: own.client, prefix }),
      })
    const [a, b] = [instance(), instance()]
    const here = new Client(a)
    await here.signIn()
    const there = new Client(b)
    await there.signIn()
    // Both read, so the user's version is cached in the store before the revocation.
    expect(await here.session()).toMatchObject({ user: { email: adaEmail } })
    expect(await there.session()).toMatchObject({ user: { email: adaEmail } })

    const answer = await here.postForm("sessions", { csrfToken: await here.csrfToken(), revokeOthers: "true" })
    expect(answer.status).toBe(200)
    expect(await there.session()).toBeNull()
    const hereOnB = new Client(b)
    for (const [name, value] of here.jar.cookies) hereOnB.jar.cookies.set(name, value)
    expect(await hereOnB.session()).toMatchObject({ user: { email: adaEmail } })
    expect(await here.session()).toMatchObject({ user: { email: adaEmail } })
  })

  it("are read from the adapter while Redis is down: sessions go on, the warning is logged once", async () => {
    const { adapter, raw } = countingAdapter()
    await raw.createUser({ id: adaId, email: adaEmail, emailVerified: null })
    const { logger, lines } = recordingLogger()
    const config = credentialsConfig({ adapter, logger, session: { strategy: "jwt", revocationCheckAge: 0 }, sharedStore: redisStore({ client: own.client, prefix: randomPrefix() }) })
    const browser = new Client(config)
    await browser.signIn()
    await own.server.stop()
    await until(() => !own.client.isReady)
    for (let i = 0; i < 3; i++) expect(await browser.session()).toMatchObject({ user: { email: adaEmail } })
    await signOutEverywhere(adaId, config)
    expect(await browser.session()).toBeNull()
    expect(warnings(lines, "shared-store-unavailable").length).toBeGreaterThanOrEqual(1)
    expect(warnings(lines, "shared-store-unavailable").filter((line) => /session versions/.test(String(line.message[0])))).toHaveLength(1)
  })
})

describe("an outage in the log", () => {
  /** What a test does around each call of a {@link heldStore}. */
  interface Holding {
    /** Called as the call goes to the store. */
    sent?(): void
    /** Awaited once the store answered or failed, before the caller sees which. */
    settled?(): Promise<void>
  }

  /**
   * `store` with `holding()` (read at each call) around every call: each reaches the real store,
   * and its answer or failure is passed on unchanged, only as late as the test says, so calls in
   * flight across a failure or a recovery settle in the order the test forces.
   */
  function heldStore(store: SharedStore, holding: () => Holding | undefined): SharedStore {
    const hold = <T,>(call: () => Promise<T>): Promise<T> => {
      const now = holding()
      now?.sent?.()
      const result = call()
      const settled = async () => now?.settled?.()
      return result.then(
        async (value) => (await settled(), value),
        async (error: unknown) => {
          await settled()
          throw error
        },
      )
    }
    return {
      increment: (key, windowSeconds) => hold(() => store.increment(key, windowSeconds)),
      setIfAbsent: (key, value, ttlSeconds) => hold(() => store.setIfAbsent(key, value, ttlSeconds)),
      get: (key) => hold(() => store.get(key)),
      set: (key, value, ttlSeconds) => hold(() => store.set(key, value, ttlSeconds)),
      delete: (key) => hold(() => store.delete(key)),
    }
  }

  /**
   * ada signed in with JWT sessions checked on every read, so each session read asks the store for
   * her session version ("session-versions"), through a held store.
   */
  async function heldInstance() {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: adaId, email: adaEmail, emailVerified: null })
    let holding: Holding | undefined
    const sharedStore = heldStore(redisStore({ client: own.client, prefix: randomPrefix() }), () => holding)
    const { logger, lines } = recordingLogger()
    const config = credentialsConfig({ adapter, logger, session: { strategy: "jwt", revocationCheckAge: 0 }, sharedStore })
    const browser = new Client(config)
    await browser.signIn()
    expect(await browser.session()).toMatchObject({ user: { email: adaEmail } })
    const storeLines = () => lines.filter((line) => line.code.startsWith("shared-store-")).map((line) => line.code)
    return { browser, storeLines, hold: (next: Holding | undefined) => (holding = next) }
  }

  /** `count` session reads at once, each answered with ada's session whatever the store does. */
  async function reads(browser: Client, count: number): Promise<void> {
    const sessions = await Promise.all(Array.from({ length: count }, () => browser.session()))
    for (const session of sessions) expect(session).toMatchObject({ user: { email: adaEmail } })
  }

  /**
   * Starts `count` reads whose store calls, once settled, wait for `release`; resolves when all of
   * them are waiting, with the reads' end.
   */
  async function heldReads(browser: Client, count: number, hold: (next: Holding | undefined) => void, release: Promise<void>): Promise<{ done: Promise<void> }> {
    let settled = 0
    hold({ settled: () => (settled++, release) })
    const done = reads(browser, count)
    await until(() => settled === count)
    hold(undefined)
    return { done }
  }

  it("holds one warning and one recovery per outage, however many reads are in flight when Redis stops and comes back", async () => {
    const { browser, storeLines, hold } = await heldInstance()
    const inFlight = 20
    const expected: string[] = []
    for (let outage = 1; outage <= 2; outage++) {
      // Reads Redis answered before it stopped, passed on only after the reads it failed.
      const afterFailure = gate()
      const answeredBefore = await heldReads(browser, inFlight, hold, afterFailure.opened)
      // Reads Redis holds (paused) when it is killed, failing together.
      await own.client.sendCommand(["CLIENT", "PAUSE", "10000", "ALL"])
      let sent = 0
      hold({ sent: () => void sent++ })
      const failing = reads(browser, inFlight)
      await until(() => sent === inFlight)
      await new Promise((resolve) => setImmediate(resolve))
      hold(undefined)
      await own.server.stop({ crash: true })
      await failing
      expected.push("shared-store-unavailable")
      expect(storeLines()).toEqual(expected)
      afterFailure.open()
      await answeredBefore.done
      expect(storeLines()).toEqual(expected)

      // Reads that failed while Redis was down, passed on only after the reads it answered again.
      const afterRecovery = gate()
      const failedBefore = await heldReads(browser, inFlight, hold, afterRecovery.opened)
      await own.server.start()
      await until(() => own.client.isReady)
      await reads(browser, inFlight)
      expected.push("shared-store-recovered")
      expect(storeLines()).toEqual(expected)
      afterRecovery.open()
      await failedBefore.done
      await reads(browser, inFlight)
      expect(storeLines()).toEqual(expected)
    }
  })
})
