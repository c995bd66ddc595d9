/**
 * Database session tokens are stored hashed (SHA-256), so a read-only leak of the sessions table
 * hands out no live session; `session.hashTokens: false` reads a database Auth.js wrote as is.
 * Runs against every stored adapter (in memory, a SQLite file, a PostgreSQL server).
 */
import { describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, credentialsConfig, storedKey } from "../flow/flow-helpers.js"
import { storedAdapters, withStoredUser, type FlowAdapter, type StoredAdapter } from "../flow/stored-adapters.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"

describe.each(storedAdapters)("session tokens at rest on the $name adapter", (store: StoredAdapter) => {
  let adapter: FlowAdapter
  let user: AdapterUser
  withStoredUser(store, (opened) => ({ adapter, user } = opened))

  function config(extra: Partial<AuthConfig> = {}) {
    return credentialsConfig({
      adapter,
      providers: [
        { id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: () => ({ id: user.id }) },
      ],
      ...extra,
    })
  }

  async function signedIn(extra: Partial<AuthConfig> = {}) {
    const client = new Client(config(extra))
    await client.signIn({})
    const token = client.jar.get(SESSION_COOKIE)
    expect(token).toBeDefined()
    return { client, token: token! }
  }

  it("stores the SHA-256 of the session token, never the token the cookie holds", async () => {
    const { token } = await signedIn()
    expect(await adapter.getSessionAndUser(token)).toBeNull()
    const row = await adapter.getSessionAndUser(storedKey(token))
    expect(row?.session.sessionToken).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(row?.session.sessionToken).not.toContain(token)
    expect(row?.user.id).toBe(user.id)
  })

  it("gives no session to a cookie holding what a leaked row holds", async () => {
    const { client, token } = await signedIn()
    const thief = new Client(config())
    thief.jar.cookies.set(SESSION_COOKIE, storedKey(token))
    expect(await thief.session()).toBeNull()
    // The owner's session is untouched by the attempt.
    expect(await client.session()).toMatchObject({ user: { email: user.email } })
  })

  it("signs out and replaces sessions through the hash: no row is left behind", async () => {
    const { client, token } = await signedIn()
    await client.signIn({})
    const second = client.jar.get(SESSION_COOKIE)!
    expect(await adapter.getSessionAndUser(storedKey(token))).toBeNull()
    await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(await adapter.getSessionAndUser(storedKey(second))).toBeNull()
  })

  it("stores the token as is with hashTokens: false, as Auth.js does, and reads such rows", async () => {
    const { client, token } = await signedIn({ session: { hashTokens: false } })
    expect((await adapter.getSessionAndUser(token))?.session.sessionToken).toBe(token)
    expect(await client.session()).toMatchObject({ user: { email: user.email } })
    // A row Auth.js wrote (a UUID token) is a session to Gatehouse in this mode.
    const authjsToken = crypto.randomUUID()
    await adapter.createSession({ sessionToken: authjsToken, userId: user.id, expires: new Date(Date.now() + 60_000) })
    const migrated = new Client(config({ session: { hashTokens: false } }))
    migrated.jar.cookies.set(SESSION_COOKIE, authjsToken)
    expect(await migrated.session()).toMatchObject({ user: { email: user.email } })
  })

  it("still reads a row stored raw (Auth.js, or before hashing) with hashing on, so switching signs no one out, and signs it out", async () => {
    const authjsToken = crypto.randomUUID()
    await adapter.createSession({ sessionToken: authjsToken, userId: user.id, expires: new Date(Date.now() + 60_000) })
    const client = new Client(config())
    client.jar.cookies.set(SESSION_COOKIE, authjsToken)
    expect(await client.session()).toMatchObject({ user: { email: user.email } })
    await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(await adapter.getSessionAndUser(authjsToken)).toBeNull()
  })

  it("never takes a cookie holding a stored hash for the row it names, with hashing on or off", async () => {
    const { token } = await signedIn()
    for (const hashTokens of [true, false]) {
      const thief = new Client(config({ session: { hashTokens } }))
      thief.jar.cookies.set(SESSION_COOKIE, storedKey(token))
      expect(await thief.session()).toBeNull()
    }
  })
})
