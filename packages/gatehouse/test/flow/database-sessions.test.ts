/**
 * Database sessions through `Auth()`: the cookie holds a random token, the row is the session.
 * Runs against every stored adapter (in memory, a SQLite file, a PostgreSQL server).
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterSession, AdapterUser } from "../../src/adapters/index.js"
import type { AuthConfig, SessionCallbackParams } from "../../src/types.js"
import { storedAdapters, withStoredUser, type FlowAdapter, type StoredAdapter } from "./stored-adapters.js"
import { ada, Client, credentialsConfig, recordingLogger, storedKey } from "./flow-helpers.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const DAY = 24 * 60 * 60 * 1000

describe.each(storedAdapters)("database sessions on the $name adapter", (store: StoredAdapter) => {
  let adapter: FlowAdapter
  let user: AdapterUser
  withStoredUser(store, (opened) => ({ adapter, user } = opened))
  afterEach(() => {
    vi.useRealTimers()
  })

  /** A credentials configuration whose `authorize` returns the stored user of this test. */
  function config(extra: Partial<AuthConfig> = {}) {
    return credentialsConfig({
      adapter,
      providers: [
        {
          id: "credentials",
          name: "Credentials",
          type: "credentials",
          credentials: {},
          authorize: ({ password }) => (password === "correct horse" ? { id: user.id, name: "from authorize" } : null),
        },
      ],
      ...extra,
    })
  }

  async function signedIn(extra: Partial<AuthConfig> = {}) {
    const client = new Client(config(extra))
    const response = await client.signIn({ password: "correct horse" })
    expect(response.status).toBe(302)
    return { client, response }
  }

  const rowOf = async (token: string | undefined) => (await adapter.getSessionAndUser(storedKey(token)))?.session ?? null

  it("signs in with credentials into a session row whose token is the whole cookie", async () => {
    const { client, response } = await signedIn()
    expect(response.headers.get("location")).toBe("https://app.test")
    const token = client.jar.get(SESSION_COOKIE)
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    const row = await rowOf(token)
    expect(row).toMatchObject({ sessionToken: storedKey(token), userId: user.id })
    const setCookie = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`))!
    expect(setCookie).toMatch(/HttpOnly/)
    expect(new Date(/Expires=([^;]+)/.exec(setCookie)![1]!).getTime()).toBe(Math.floor(row!.expires.getTime() / 1000) * 1000)

    expect(await client.session()).toEqual({
      user: { name: user.name, email: user.email, image: user.image },
      expires: row!.expires.toISOString(),
    })
  })

  it("refuses a credentials user the adapter does not know, with a logged reason", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client({
      ...config({ logger }),
      providers: [{ id: "credentials", name: "C", type: "credentials", credentials: {}, authorize: () => ({ id: "nobody" }) }],
    } as AuthConfig)
    const response = await client.signIn({})
    expect(response.headers.get("location")).toBe("https://app.test/auth/signin?error=CredentialsSignin&code=credentials")
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
    expect(lines.map((line) => line.code)).toContain("CallbackRouteError")
    expect(JSON.stringify(lines.map((line) => String(line.message[0])))).toContain('returned user \\"nobody\\"')
  })

  it("gives the session callback the stored user and the row, never the token", async () => {
    const seen: SessionCallbackParams[] = []
    const { client } = await signedIn({
      callbacks: {
        session: (params) => {
          seen.push(params)
          return { expires: params.session.expires as unknown as string, user: { id: params.user!.id, email: params.user!.email } }
        },
      },
    })
    const body = (await client.session()) as { user: { id: string } }
    expect(body.user).toEqual({ id: user.id, email: user.email })
    expect(seen[0]!.user).toMatchObject({ id: user.id, email: user.email })
    expect(seen[0]!.session).toMatchObject({ userId: user.id, user: { id: user.id } })
    expect(seen[0]!.session).not.toHaveProperty("sessionToken")
    expect(JSON.stringify(body)).not.toContain(client.jar.get(SESSION_COOKIE))
  })

  it("extends the row at most once per updateAge, and re-sends the cookie only then", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const updates: unknown[] = []
    const watched = { ...adapter, updateSession: (s: Partial<AdapterSession> & { sessionToken: string }) => (updates.push(s), adapter.updateSession(s)) }
    const { client } = await signedIn({ adapter: watched, session: { maxAge: 30 * DAY / 1000, updateAge: DAY / 1000 } })
    const token = client.jar.get(SESSION_COOKIE)
    const firstExpiry = (await rowOf(token))!.expires.getTime()

    vi.setSystemTime(new Date("2030-01-01T23:00:00Z"))
    const early = await client.get("session")
    expect(await early.json()).not.toBeNull()
    expect(early.headers.getSetCookie().filter((line) => line.startsWith(SESSION_COOKIE))).toEqual([])
    expect(updates).toHaveLength(0)
    expect((await rowOf(token))!.expires.getTime()).toBe(firstExpiry)

    vi.setSystemTime(new Date("2030-01-02T00:00:01Z"))
    const due = await client.get("session")
    const body = (await due.json()) as { expires: string }
    expect(updates).toHaveLength(1)
    const extended = new Date("2030-01-02T00:00:01Z").getTime() + 30 * DAY
    expect((await rowOf(token))!.expires.getTime()).toBe(extended)
    expect(body.expires).toBe(new Date(extended).toISOString())
    const cookie = due.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=${token}`))
    expect(cookie).toContain(`Expires=${new Date(extended).toUTCString()}`)

    await client.get("session")
    expect(updates).toHaveLength(1)
  })

  it("extends exactly when updateAge has passed, not a millisecond before", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Date.parse("2030-01-01T00:00:00Z")
    vi.setSystemTime(start)
    const { client } = await signedIn({ session: { maxAge: 3600, updateAge: 600 } })
    const token = client.jar.get(SESSION_COOKIE)
    vi.setSystemTime(start + 600_000 - 1)
    await client.get("session")
    expect((await rowOf(token))!.expires.getTime()).toBe(start + 3600_000)
    vi.setSystemTime(start + 600_000)
    await client.get("session")
    expect((await rowOf(token))!.expires.getTime()).toBe(start + 600_000 + 3600_000)
  })

  it("writes on every access when updateAge is 0", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { client } = await signedIn({ session: { updateAge: 0 } })
    const token = client.jar.get(SESSION_COOKIE)
    for (const second of [1, 2]) {
      vi.setSystemTime(new Date(`2030-01-01T00:00:0${second}Z`))
      await client.get("session")
      expect((await rowOf(token))!.expires.getTime()).toBe(Date.parse(`2030-01-01T00:00:0${second}Z`) + 30 * DAY)
    }
  })

  it("deletes an expired row and clears the cookie", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { client } = await signedIn({ session: { maxAge: 3600 } })
    const token = client.jar.get(SESSION_COOKIE)

    vi.setSystemTime(new Date("2030-01-01T01:00:01Z"))
    const response = await client.get("session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`) && /Max-Age=0/.test(line))).toBe(true)
    expect(await adapter.getSessionAndUser(storedKey(token))).toBeNull()
  })

  it("clears a cookie whose token finds no row", async () => {
    const client = new Client(config())
    client.jar.cookies.set(SESSION_COOKIE, "f".repeat(64))
    const response = await client.get("session")
    expect(await response.json()).toBeNull()
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
  })

  it("signs out by deleting the row, clearing the cookie and reporting the session", async () => {
    const signOuts: unknown[] = []
    const { client } = await signedIn({ events: { signOut: (message) => void signOuts.push(message) } })
    const token = client.jar.get(SESSION_COOKIE)
    const response = await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(response.status).toBe(302)
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
    expect(await adapter.getSessionAndUser(storedKey(token))).toBeNull()
    expect(signOuts).toHaveLength(1)
    expect(signOuts[0]).toMatchObject({ session: { sessionToken: storedKey(token), userId: user.id } })
    expect(await client.session()).toBeNull()
  })

  it("replaces the browser's previous session at sign-in instead of continuing it", async () => {
    const { client } = await signedIn()
    const first = client.jar.get(SESSION_COOKIE)
    await client.signIn({ password: "correct horse" })
    const second = client.jar.get(SESSION_COOKIE)
    expect(second).not.toBe(first)
    expect(await adapter.getSessionAndUser(storedKey(first))).toBeNull()
    expect(await rowOf(second)).toMatchObject({ userId: user.id })
  })

  it("runs the update trigger on POST session without storing anything by itself", async () => {
    const { client } = await signedIn({
      callbacks: {
        session: ({ session, newSession, trigger }) =>
          ({ ...session, user: { name: String(session.user?.name) }, trigger, newSession }) as never,
      },
    })
    const response = await client.postJson("session", { csrfToken: await client.csrfToken(), data: { theme: "dark" } })
    expect(await response.json()).toMatchObject({ trigger: "update", newSession: { theme: "dark" } })
    expect(await client.session()).not.toHaveProperty("trigger")
  })

  it("uses generateSessionToken when given", async () => {
    let n = 0
    const { client } = await signedIn({ session: { generateSessionToken: () => `custom-${crypto.randomUUID()}-${++n}` } })
    expect(client.jar.get(SESSION_COOKIE)).toMatch(/^custom-.*-1$/)
    expect(await client.session()).toMatchObject({ user: { email: user.email } })
  })
})

describe("database sessions when the adapter fails", () => {
  async function failing(overrides: Partial<Adapter>, extra: Partial<AuthConfig> = {}) {
    const { MemoryAdapter } = await import("../../src/adapters/memory.js")
    const memory = MemoryAdapter()
    const stored = await memory.createUser({ ...ada, email: ada.email!, emailVerified: null })
    const { logger, lines } = recordingLogger()
    const client = new Client(
      credentialsConfig({
        logger,
        adapter: { ...memory, ...overrides },
        providers: [{ id: "credentials", name: "C", type: "credentials", credentials: {}, authorize: () => ({ id: stored.id }) }],
        ...extra,
      }),
    )
    return { client, lines, memory }
  }
  const boom = () => {
    throw new Error("connect ECONNREFUSED 10.0.0.5:5432 password=hunter2")
  }

  it("answers a session check with null and keeps the cookie when the store is down", async () => {
    const { client, lines } = await failing({})
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)
    ;(client.config.adapter as Adapter).getSessionAndUser = boom
    const response = await client.get("session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie().filter((line) => line.startsWith(SESSION_COOKIE))).toEqual([])
    expect(client.jar.get(SESSION_COOKIE)).toBe(token)
    const logged = lines.find((line) => line.code === "SessionTokenError")!
    expect((logged.message[0] as Error).cause).toMatchObject({ err: { name: "AdapterError" } })
  })

  it("sends a failed sign-in to the error page without the driver's message", async () => {
    const { client, lines } = await failing({ createSession: boom })
    const response = await client.signIn({})
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
    expect(lines.map((line) => line.code)).toContain("AdapterError")
    const page = await client.get("error?error=Configuration")
    expect(await page.text()).not.toMatch(/ECONNREFUSED|hunter2/)
  })

  it("still clears the cookie when sign-out cannot delete the row", async () => {
    const { client, lines } = await failing({ deleteSession: boom })
    await client.signIn({})
    const response = await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(response.status).toBe(302)
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
    expect(lines.map((line) => line.code)).toContain("SignOutError")
  })

  it("fires signOut even when the adapter's deleteSession reports nothing", async () => {
    const signOuts: unknown[] = []
    const { client, memory } = await failing({}, { events: { signOut: (message) => void signOuts.push(message) } })
    ;(client.config.adapter as Adapter).deleteSession = async (token: string) => void (await memory.deleteSession(token))
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)
    await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(signOuts).toEqual([{ session: undefined }])
    expect(await memory.getSessionAndUser(storedKey(token))).toBeNull()
  })

  it("keeps a row whose expiry the adapter returns in a form that is not a date, and logs why", async () => {
    const { client, lines, memory } = await failing({})
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)!
    ;(client.config.adapter as Adapter).getSessionAndUser = async (t: string) => {
      const found = await memory.getSessionAndUser(t)
      return found && { ...found, session: { ...found.session, expires: "next tuesday" as unknown as Date } }
    }
    const response = await client.get("session")
    expect(await response.json()).toBeNull()
    expect(client.jar.get(SESSION_COOKIE)).toBe(token)
    expect(await memory.getSessionAndUser(storedKey(token))).not.toBeNull()
    const logged = lines.find((line) => line.code === "SessionTokenError")!
    expect(String(((logged.message[0] as Error).cause as { err?: Error }).err?.message)).toContain("not a date")
  })

  it("keeps the session the user had when a second sign-in cannot create its row", async () => {
    const { client, memory } = await failing({})
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)!
    ;(client.config.adapter as Adapter).createSession = boom
    const response = await client.signIn({})
    expect(response.headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
    expect(client.jar.get(SESSION_COOKIE)).toBe(token)
    expect(await memory.getSessionAndUser(storedKey(token))).not.toBeNull()
    expect(await client.session()).not.toBeNull()
  })

  it("ends the session when the row vanished between reading and extending it", async () => {
    const { client, memory } = await failing({ updateSession: async () => null })
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)!
    await memory.updateSession({ sessionToken: storedKey(token), expires: new Date(Date.now() + 1000) })
    const response = await client.get("session")
    expect(await response.json()).toBeNull()
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
  })

  it("names a method the adapter lacks at run time", async () => {
    const { client, lines } = await failing({})
    await client.signIn({})
    delete (client.config.adapter as Adapter).getSessionAndUser
    expect(await client.session()).toBeNull()
    const logged = lines.find((line) => line.code === "SessionTokenError")!
    expect(String(((logged.message[0] as Error).cause as { err?: unknown }).err)).toContain("does not implement getSessionAndUser")
  })
})
