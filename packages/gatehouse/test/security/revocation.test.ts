/**
 * Sign out everywhere: `signOutEverywhere(userId, config)` ends every session of a user. Database
 * sessions end at once (their rows are deleted); JWT sessions end at their next read once they
 * are `session.revocationCheckAge` seconds old (default 60), which bounds the lag. Runs against
 * every stored adapter (in memory, a SQLite file, a PostgreSQL server).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AdapterUser, StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { signOutEverywhere } from "../../src/core/sign-out-everywhere.js"
import { encode } from "../../src/jwt/index.js"
import type { AuthConfig } from "../../src/types.js"
import { ada, Client, credentialsConfig, recordingLogger, secret } from "../flow/flow-helpers.js"
import { storedAdapters, twoUserCredentials, withStoredUsers, type StoredAdapter } from "../flow/stored-adapters.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const SECOND = 1000

afterEach(() => {
  vi.useRealTimers()
})

describe.each(storedAdapters)("signOutEverywhere on the $name adapter", (store: StoredAdapter) => {
  const users = withStoredUsers(store)
  let adapter: FullAdapter
  let user: AdapterUser
  let other: AdapterUser
  beforeEach(() => {
    ;({ adapter, user, other } = users())
  })

  /** Signs in as `user` (username "user") or `other` (username "other"). */
  function config(extra: Partial<AuthConfig> = {}): AuthConfig {
    return credentialsConfig({
      adapter,
      providers: [
        twoUserCredentials(users),
      ],
      ...extra,
    })
  }

  async function browser(settings: AuthConfig, username = "user"): Promise<Client> {
    const client = new Client(settings)
    await client.signIn({ username })
    expect(client.jar.get(SESSION_COOKIE)).toBeDefined()
    return client
  }

  describe("database sessions", () => {
    it("ends every session of the user at once, in every browser, and no one else's", async () => {
      const settings = config()
      const [laptop, phone, bystander] = [await browser(settings), await browser(settings), await browser(settings, "other")]
      await signOutEverywhere(user.id, settings)
      for (const client of [laptop, phone]) {
        expect(await client.session()).toBeNull()
        expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
      }
      expect(await bystander.session()).toMatchObject({ user: { email: other.email } })
    })

    it("lets the user sign in again at once afterwards", async () => {
      const settings = config()
      await browser(settings)
      await signOutEverywhere(user.id, settings)
      const again = await browser(settings)
      expect(await again.session()).toMatchObject({ user: { email: user.email } })
    })
  })

  describe("JWT sessions", () => {
    const jwtConfig = (extra: Partial<AuthConfig["session"]> = {}) => config({ session: { strategy: "jwt", ...extra } })

    it("end within revocationCheckAge of the call, and not before the check is due", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const start = Date.now()
      const settings = jwtConfig({ revocationCheckAge: 60 })
      const [laptop, phone, bystander] = [await browser(settings), await browser(settings), await browser(settings, "other")]
      vi.setSystemTime(start + 10 * SECOND)
      await signOutEverywhere(user.id, settings)
      // The stated lag: a token younger than revocationCheckAge is not checked.
      vi.setSystemTime(start + 59 * SECOND)
      expect(await laptop.session()).toMatchObject({ user: { email: user.email } })
      vi.setSystemTime(start + 60 * SECOND)
      for (const client of [laptop, phone]) {
        expect(await client.session()).toBeNull()
        expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
      }
      expect(await bystander.session()).toMatchObject({ user: { email: other.email } })
    })

    it("end on the next read with revocationCheckAge 0, and a new sign-in stands", async () => {
      const settings = jwtConfig({ revocationCheckAge: 0 })
      const laptop = await browser(settings)
      await signOutEverywhere(user.id, settings)
      expect(await laptop.session()).toBeNull()
      const again = await browser(settings)
      expect(await again.session()).toMatchObject({ user: { email: user.email } })
      await signOutEverywhere(user.id, settings)
      expect(await again.session()).toBeNull()
    })

    it("are checked at most once per revocationCheckAge: a passed check writes the cookie, which restarts the wait", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const start = Date.now()
      let checks = 0
      const counting: FullAdapter = { ...adapter, getSessionVersion: (id) => (checks++, adapter.getSessionVersion(id)) }
      const settings = config({ adapter: counting, session: { strategy: "jwt", revocationCheckAge: 60 } })
      const laptop = await browser(settings)
      expect(checks).toBe(1) // the sign-in reads the version the token is issued under
      vi.setSystemTime(start + 30 * SECOND)
      const early = await laptop.get("session")
      expect(early.headers.getSetCookie().filter((line) => line.startsWith(SESSION_COOKIE))).toEqual([])
      expect(checks).toBe(1)
      vi.setSystemTime(start + 61 * SECOND)
      const due = await laptop.get("session")
      expect(await due.json()).not.toBeNull()
      expect(due.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION_COOKIE}=`))).toHaveLength(1)
      expect(checks).toBe(2)
      vi.setSystemTime(start + 100 * SECOND)
      await laptop.get("session")
      expect(checks).toBe(2)
    })

    it.each([
      ["session updates every 45 s", { revocationCheckAge: 60 }, (client: Client, csrfToken: string) => client.postJson("session", { csrfToken, data: {} })],
      ["reads every 45 s with updateAge 0", { revocationCheckAge: 60, updateAge: 0 }, (client: Client) => client.get("session")],
    ] as const)("end within revocationCheckAge however often the cookie is written meanwhile (%s)", async (_name, session, touch) => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const start = Date.now()
      const settings = jwtConfig(session)
      const stolen = await browser(settings)
      const csrf = await stolen.csrfToken()
      vi.setSystemTime(start + 10 * SECOND)
      await signOutEverywhere(user.id, settings)
      let lastAlive = 0
      for (let at = 45; at <= 300; at += 45) {
        vi.setSystemTime(start + at * SECOND)
        const response = await touch(stolen, csrf)
        if ((await response.json()) === null) break
        lastAlive = at
      }
      expect(lastAlive).toBeLessThan(70)
      expect(await stolen.session()).toBeNull()
    })

    it("cannot be kept alive by an update that sets the session claims, with a jwt callback that takes the client's data", async () => {
      const settings = config({
        session: { strategy: "jwt", revocationCheckAge: 0 },
        callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) },
      })
      const stolen = await browser(settings)
      const csrfToken = await stolen.csrfToken()
      // Set before the revocation, to match the version it will bring.
      const update = await stolen.postJson("session", { csrfToken, data: { sessionVersion: 1, versionCheckedAt: 9_999_999_999, signedInAt: 9_999_999_999 } })
      expect(await update.json()).not.toBeNull()
      await signOutEverywhere(user.id, settings)
      expect(await stolen.session()).toBeNull()
    })

    it("answer to the user a jwt callback moves the session to, not to the one who signed in", async () => {
      const settings = config({
        session: { strategy: "jwt", revocationCheckAge: 0 },
        callbacks: { jwt: ({ token, trigger }) => (trigger === "update" ? { ...token, sub: other.id } : token) },
      })
      const client = await browser(settings)
      await client.postJson("session", { csrfToken: await client.csrfToken(), data: {} })
      await signOutEverywhere(user.id, settings)
      expect(await client.session()).not.toBeNull()
      await signOutEverywhere(other.id, settings)
      expect(await client.session()).toBeNull()
    })

    it("treat a token without a session version (one Auth.js issued) as version 0, revoked like any other", async () => {
      const settings = jwtConfig({ revocationCheckAge: 0 })
      const token = await encode({ token: { sub: user.id, email: user.email }, secret, salt: SESSION_COOKIE })
      const client = new Client(settings)
      client.jar.cookies.set(SESSION_COOKIE, token)
      expect(await client.session()).toMatchObject({ user: { email: user.email } })
      await signOutEverywhere(user.id, settings)
      expect(await client.session()).toBeNull()
    })

    it("reach a credentials user the adapter does not store", async () => {
      const settings = config({
        session: { strategy: "jwt", revocationCheckAge: 0 },
        providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: () => ({ id: "ldap:ada", email: "ada@ldap.test" }) }],
      })
      const client = await browser(settings)
      expect(await client.session()).toMatchObject({ user: { email: "ada@ldap.test" } })
      await signOutEverywhere("ldap:ada", settings)
      expect(await client.session()).toBeNull()
    })

    it("answer no session but keep the cookie while the adapter cannot check, and stand again once it can", async () => {
      const { logger, lines } = recordingLogger()
      let down = false
      const flaky: FullAdapter = {
        ...adapter,
        getSessionVersion: async (id) => {
          if (down) throw new Error("connection refused")
          return adapter.getSessionVersion(id)
        },
      }
      const settings = config({ adapter: flaky, logger, session: { strategy: "jwt", revocationCheckAge: 0 } })
      const client = await browser(settings)
      const cookie = client.jar.get(SESSION_COOKIE)
      down = true
      const response = await client.get("session")
      expect(response.status).toBe(200)
      expect(await response.json()).toBeNull()
      expect(client.jar.get(SESSION_COOKIE)).toBe(cookie)
      // The adapter failing is the server's fault, logged whole; the cookie is not to blame.
      expect(lines.filter((line) => line.level === "error").map((line) => line.code)).toContain("SessionTokenError")
      expect(lines.map((line) => line.code)).not.toContain("JWTSessionError")
      down = false
      expect(await client.session()).toMatchObject({ user: { email: user.email } })
    })

    it("never check without an adapter that keeps versions, nor with revocationCheckAge false", async () => {
      for (const settings of [
        config({ adapter: { ...adapter, getSessionVersion: undefined }, session: { strategy: "jwt", revocationCheckAge: 0 } }),
        config({ session: { strategy: "jwt", revocationCheckAge: false } }),
      ]) {
        const client = await browser(settings)
        await adapter.incrementSessionVersion(user.id)
        expect(await client.session()).toMatchObject({ user: { email: user.email } })
      }
    })
  })
})

describe("signOutEverywhere refuses what it cannot do, by name", () => {
  const base = { secret, trustHost: true, providers: [] } satisfies AuthConfig

  it("needs an adapter", async () => {
    await expect(signOutEverywhere("u1", { ...base, session: { strategy: "jwt" } })).rejects.toMatchObject({ type: "MissingAdapter" })
  })

  it("needs JWT sessions to be checked", async () => {
    const config: AuthConfig = { ...base, adapter: MemoryAdapter(), session: { strategy: "jwt", revocationCheckAge: false } }
    await expect(signOutEverywhere("u1", config)).rejects.toMatchObject({ type: "InvalidConfig", message: expect.stringContaining("revocationCheckAge") })
  })

  it("needs deleteSessionsByUserId for database sessions", async () => {
    const config: AuthConfig = { ...base, adapter: { ...MemoryAdapter(), deleteSessionsByUserId: undefined } }
    await expect(signOutEverywhere("u1", config)).rejects.toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining("deleteSessionsByUserId") })
  })

  it("needs session versions for JWT sessions", async () => {
    const config: AuthConfig = { ...base, adapter: { ...MemoryAdapter(), getSessionVersion: undefined }, session: { strategy: "jwt" } }
    await expect(signOutEverywhere("u1", config)).rejects.toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining("getSessionVersion") })
  })

  it("needs a user id", async () => {
    await expect(signOutEverywhere("", { ...base, adapter: MemoryAdapter() })).rejects.toMatchObject({ type: "AuthError" })
  })

  it("reports a store failure as an AdapterError, and repeating the call finishes the job", async () => {
    const memory = MemoryAdapter()
    let fail = true
    const adapter = {
      ...memory,
      deleteSessionsByUserId: async (id: string) => {
        if (fail) throw new Error("deadlock detected")
        return memory.deleteSessionsByUserId(id)
      },
    }
    const config: AuthConfig = { ...base, adapter }
    const { id } = await memory.createUser({ email: "u1@app.test", emailVerified: null })
    await memory.createSession({ sessionToken: "t1", userId: id, expires: new Date(Date.now() + 60_000) })
    await expect(signOutEverywhere(id, config)).rejects.toMatchObject({ type: "AdapterError" })
    expect(await memory.getSessionAndUser("t1")).not.toBeNull()
    fail = false
    await signOutEverywhere(id, config)
    expect(await memory.getSessionAndUser("t1")).toBeNull()
  })
})
