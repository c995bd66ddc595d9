/**
 * `session.absoluteMaxAge`: a session ends that long after sign-in however active it is, on top
 * of the idle `maxAge`; neither the cookie nor the row nor the token outlives it, and its start
 * cannot be moved by the browser. Database sessions run against every stored adapter.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { decode, encode } from "../../src/jwt/index.js"
import type { AuthConfig } from "../../src/types.js"
import { ada, Client, credentialsConfig, secret, storedKey } from "../flow/flow-helpers.js"
import { storedAdapters, withStoredUser, type FlowAdapter, type StoredAdapter } from "../flow/stored-adapters.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const HOUR = 60 * 60
const DAY = 24 * HOUR
/** Idle one day, absolutely three: reading twice a day keeps the idle expiry sliding. */
const lifetimes = { maxAge: DAY, updateAge: HOUR, absoluteMaxAge: 3 * DAY }

afterEach(() => {
  vi.useRealTimers()
})

/** The `Expires` of the session cookie a response sets, in ms, if it sets one. */
function cookieExpiry(response: Response): number | undefined {
  const line = response.headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/.test(l))
  const expires = line && /Expires=([^;]+)/.exec(line)?.[1]
  return expires ? new Date(expires).getTime() : undefined
}

/** Reads the session every 12 hours from `start`; returns the last time it still stood (ms after start). */
async function readTwiceADay(client: Client, start: number, deadline: number): Promise<number> {
  let lastAlive = 0
  for (let at = 12 * HOUR * 1000; at <= 5 * DAY * 1000; at += 12 * HOUR * 1000) {
    vi.setSystemTime(start + at)
    const response = await client.get("session")
    const expiry = cookieExpiry(response)
    if (expiry !== undefined) expect(expiry).toBeLessThanOrEqual(deadline)
    if ((await response.json()) === null) break
    lastAlive = at
  }
  return lastAlive
}

describe("absoluteMaxAge under JWT sessions", () => {
  const config = (session: Partial<AuthConfig["session"]> = lifetimes) => credentialsConfig({ session: { strategy: "jwt", ...session } })

  it("ends an active session absoluteMaxAge after sign-in, though the idle expiry kept sliding", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.setSystemTime(start)
    const client = new Client(config())
    await client.signIn()
    const lastAlive = await readTwiceADay(client, start, start + 3 * DAY * 1000)
    expect(lastAlive).toBe(2.5 * DAY * 1000)
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
  })

  it("never issues a token that expires after the deadline", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.setSystemTime(start)
    const client = new Client(config({ maxAge: 2 * DAY, updateAge: 0, absoluteMaxAge: 3 * DAY }))
    await client.signIn()
    vi.setSystemTime(start + 2 * DAY * 1000)
    await client.get("session")
    const token = await decode({ token: client.jar.get(SESSION_COOKIE)!, secret, salt: SESSION_COOKIE })
    expect(token?.signedInAt).toBe(start / 1000)
    expect(token?.exp).toBe(start / 1000 + 3 * DAY)
  })

  it("keeps the start when the jwt callback builds a fresh token without it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.setSystemTime(start)
    const client = new Client(
      credentialsConfig({ session: { strategy: "jwt", ...lifetimes }, callbacks: { jwt: ({ token }) => ({ sub: token.sub, name: token.name, email: token.email }) } }),
    )
    await client.signIn()
    expect(await readTwiceADay(client, start, start + 3 * DAY * 1000)).toBe(2.5 * DAY * 1000)
  })

  it("does not extend a session issued before absoluteMaxAge was set: it ends at its expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.setSystemTime(start)
    const legacy = await encode({ token: { sub: ada.id, name: ada.name }, secret, salt: SESSION_COOKIE, maxAge: DAY })
    const client = new Client(config())
    client.jar.cookies.set(SESSION_COOKIE, legacy)
    vi.setSystemTime(start + 23 * HOUR * 1000)
    const late = await client.get("session")
    expect(await late.json()).not.toBeNull()
    expect(cookieExpiry(late) ?? start + DAY * 1000).toBeLessThanOrEqual(start + DAY * 1000)
    vi.setSystemTime(start + DAY * 1000 + 1000)
    expect(await client.session()).toBeNull()
  })
})

describe.each(storedAdapters)("absoluteMaxAge under database sessions on the $name adapter", (store: StoredAdapter) => {
  let adapter: FlowAdapter
  let user: AdapterUser
  withStoredUser(store, (opened) => ({ adapter, user } = opened))

  const config = (session: Partial<AuthConfig["session"]> = lifetimes) =>
    credentialsConfig({
      adapter,
      session,
      providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: () => ({ id: user.id }) }],
    })

  it("ends an active session absoluteMaxAge after sign-in and deletes its row; the row never outlives it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.setSystemTime(start)
    const client = new Client(config())
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)!
    const deadline = start + 3 * DAY * 1000
    for (const days of [0.5, 1, 1.5, 2, 2.5]) {
      vi.setSystemTime(start + days * DAY * 1000)
      expect(await client.session()).not.toBeNull()
    }
    // Extended on the last read to the deadline, not to a full maxAge from then.
    expect((await adapter.getSessionAndUser(storedKey(token)))!.session.expires.getTime()).toBe(deadline)
    vi.setSystemTime(deadline)
    expect(await client.session()).toBeNull()
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
    expect(await adapter.getSessionAndUser(storedKey(token))).toBeNull()
  })

  it("finds no session when the browser moves the start its token carries", async () => {
    const client = new Client(config())
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)!
    const [, started] = /\.t(\d+)$/.exec(token)!
    client.jar.cookies.set(SESSION_COOKIE, token.replace(/\.t\d+$/, `.t${Number(started) + 10 * DAY}`))
    expect(await client.session()).toBeNull()
  })

  it("does not extend a session issued before absoluteMaxAge was set: it ends at its expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.setSystemTime(start)
    const before = new Client(config({ maxAge: DAY, updateAge: HOUR }))
    await before.signIn({})
    const token = before.jar.get(SESSION_COOKIE)!
    const after = new Client(config())
    after.jar.cookies.set(SESSION_COOKIE, token)
    vi.setSystemTime(start + 23 * HOUR * 1000)
    const late = await after.get("session")
    expect(await late.json()).not.toBeNull()
    expect(cookieExpiry(late)).toBeUndefined()
    expect((await adapter.getSessionAndUser(storedKey(token)))!.session.expires.getTime()).toBe(start + DAY * 1000)
    vi.setSystemTime(start + DAY * 1000 + 1000)
    expect(await after.session()).toBeNull()
  })
})
