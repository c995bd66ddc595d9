/**
 * The session context (active organization, impersonating admin, sign-in provider) on both
 * strategies and every stored adapter: recorded at sign-in only with `organizations`, changed only
 * through updateSessionContext, out of reach of the `jwt` and `session` callbacks and of a
 * session update, and kept when the session is written again.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { SessionRequired } from "../../src/errors.js"
import { decode } from "../../src/jwt/index.js"
import { memoryStore } from "../../src/stores/memory.js"
import { sessionRequestContext } from "../../src/core/request-session.js"
import { currentSessionContext, updateSessionContext } from "../../src/core/sessions/session-context.js"
import { serializeCookie } from "../../src/cookies/serialize.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { Client, credentialsConfig, moveClockOn, origin, secret, storedKey } from "../flow/flow-helpers.js"
import { storedAdapters, twoUserCredentials, withStoredUsers } from "../flow/stored-adapters.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const FAR = Math.floor(Date.now() / 1000) + 10 * 365 * 24 * 3600

describe.each(storedAdapters)("session context on the $name adapter", (store) => {
  const users = withStoredUsers(store)
  afterEach(() => {
    vi.useRealTimers()
  })

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    function config(extra: Partial<AuthConfig> = {}): AuthConfig {
      return credentialsConfig({ adapter: users().adapter, providers: [twoUserCredentials(users)], session: { strategy }, organizations: {}, ...extra })
    }

    async function signedIn(extra: Partial<AuthConfig> = {}): Promise<Client> {
      const client = new Client(config(extra))
      expect((await client.signIn({ username: "user" })).status).toBe(302)
      expect(client.jar.get(SESSION_COOKIE)).toBeDefined()
      return client
    }

    const contextOf = async (client: Client) =>
      currentSessionContext(await sessionRequestContext({ url: `${origin}/dashboard`, headers: new Headers({ cookie: client.jar.header() }) }, client.config))

    async function setContext(client: Client, patch: Parameters<typeof updateSessionContext>[1]): Promise<void> {
      const ctx = await sessionRequestContext({ url: `${origin}/dashboard`, headers: new Headers({ cookie: client.jar.header() }) }, client.config)
      const cookies = await updateSessionContext(ctx, patch)
      if (strategy === "jwt") expect(cookies.length).toBeGreaterThan(0)
      else expect(cookies).toEqual([])
      for (const cookie of cookies) client.jar.store(new Response(null, { headers: { "set-cookie": serializeCookie(cookie.name, cookie.value, cookie.options) } }))
    }

    /** What the session cookie holds of the context: the JWT's claims, or the row's context. */
    async function stored(client: Client): Promise<unknown> {
      const value = client.jar.get(SESSION_COOKIE)
      if (strategy === "jwt") {
        const token = await decode({ token: value, secret, salt: SESSION_COOKIE })
        return { org: token?.org, imp: token?.imp, prv: token?.prv }
      }
      return (await users().adapter.getSessionAndUser(storedKey(value)))?.session.context ?? null
    }

    it("records the provider signed in with, and sets activeOrganization after the session callback", async () => {
      const client = await signedIn()
      expect(await contextOf(client)).toEqual({
        userId: users().user.id,
        context: { activeOrganizationId: null, impersonatorId: null, signInProvider: "credentials" },
        impersonationExpires: null,
      })
      const session = (await client.session()) as Session
      expect(session.activeOrganization).toBeNull()
      expect(session).not.toHaveProperty("impersonatedBy")
    })

    it("records nothing and changes nothing in the session without organizations or admin configured", async () => {
      const client = await signedIn({ organizations: undefined })
      const session = (await client.session()) as Session
      expect(Object.keys(session).sort()).toEqual(["expires", "user"])
      expect(await stored(client)).toEqual(strategy === "jwt" ? { org: undefined, imp: undefined, prv: undefined } : null)
      expect((await contextOf(client))?.context).toEqual({ activeOrganizationId: null, impersonatorId: null, signInProvider: null })
    })

    it("keeps the active organization when the session is written again (slid, extended)", async () => {
      const client = await signedIn()
      await setContext(client, { activeOrganizationId: "org-1" })
      expect((await contextOf(client))?.context).toEqual({ activeOrganizationId: "org-1", impersonatorId: null, signInProvider: "credentials" })

      const before = client.jar.get(SESSION_COOKIE)
      const rowBefore = strategy === "database" ? await users().adapter.getSessionAndUser(storedKey(before)) : null
      moveClockOn()
      const response = await client.get("session")
      expect(response.status).toBe(200)
      // The read wrote the session again: a new JWT, or the row's expiry extended.
      expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true)
      if (strategy === "jwt") expect(client.jar.get(SESSION_COOKIE)).not.toBe(before)
      else expect((await users().adapter.getSessionAndUser(storedKey(before)))!.session.expires.getTime()).toBeGreaterThan(rowBefore!.session.expires.getTime())
      expect((await contextOf(client))?.context).toEqual({ activeOrganizationId: "org-1", impersonatorId: null, signInProvider: "credentials" })

      await setContext(client, { activeOrganizationId: null })
      expect((await contextOf(client))?.context).toEqual({ activeOrganizationId: null, impersonatorId: null, signInProvider: "credentials" })
    })

    it("keeps the context out of the jwt and session callbacks' reach, and of a session update", async () => {
      const planted = { id: "planted", slug: "planted", name: "Planted", role: "owner", permissions: ["organization:delete"], unmet: [] }
      const client = await signedIn({
        admin: { userIds: [] },
        callbacks: {
          // Spreads whatever the client sends on an update, as many apps do.
          jwt: ({ token, trigger, session }) =>
            trigger === "update" ? { ...token, ...(session as object) } : { ...token, org: "planted", imp: { sub: users().other.id, exp: FAR }, prv: "planted" },
          session: ({ session }) => ({ ...session, activeOrganization: planted, impersonatedBy: { id: "x", name: null, email: null, expires: new Date(FAR * 1000).toISOString() } }),
        },
      })
      const expected = { activeOrganizationId: null, impersonatorId: null, signInProvider: "credentials" }
      expect((await contextOf(client))?.context).toEqual(expected)
      const session = (await client.session()) as Session
      expect(session.activeOrganization).toBeNull()
      expect(session.impersonatedBy).toBeNull()

      const updated = await client.postJson("session", {
        csrfToken: await client.csrfToken(),
        data: { org: "planted-by-update", imp: { sub: users().other.id, exp: FAR }, prv: "planted", activeOrganization: planted },
      })
      expect(updated.status).toBe(200)
      const afterUpdate = (await updated.json()) as Session
      expect(afterUpdate.activeOrganization).toBeNull()
      expect(afterUpdate.impersonatedBy).toBeNull()
      expect((await contextOf(client))?.context).toEqual(expected)
      if (strategy === "jwt") expect(await stored(client)).toEqual({ org: undefined, imp: undefined, prv: "credentials" })
    })

    // Finding 3 of the mend round: the organization and the provider were the first user's.
    describe.runIf(strategy === "jwt")("a callback that moves the session to another user (sub)", () => {
      it.each([
        ["the jwt callback, versions checked", "jwt", true],
        ["the jwt callback, versions unchecked", "jwt", false],
        ["the session callback", "session", true],
      ] as const)("takes neither the active organization nor the sign-in provider along: %s", async (_name, which, versions) => {
        let move = false
        const other = users().other.id
        const client = await signedIn({
          session: { strategy, ...(!versions && { revocationCheckAge: false }) },
          callbacks:
            which === "jwt"
              ? { jwt: ({ token }) => (move ? { ...token, sub: other } : token) }
              : {
                  session: ({ session, token }) => {
                    if (move) (token as { sub?: string }).sub = other
                    return session
                  },
                },
        })
        await setContext(client, { activeOrganizationId: "org-1" })
        expect(await stored(client)).toEqual({ org: "org-1", imp: undefined, prv: "credentials" })
        move = true
        expect(((await client.session()) as Session).activeOrganization).toBeNull()
        move = false
        expect(await stored(client)).toEqual({ org: undefined, imp: undefined, prv: undefined })
        expect((await contextOf(client))?.userId).toBe(other)
      })
    })

    it("refuses to change the context of a request without a session", async () => {
      const ctx = await sessionRequestContext({ url: `${origin}/dashboard`, headers: new Headers() }, config())
      expect(await currentSessionContext(ctx)).toBeNull()
      await expect(updateSessionContext(ctx, { activeOrganizationId: "org-1" })).rejects.toBeInstanceOf(SessionRequired)
    })

    it("starts a new sign-in without the active organization of the session it replaces", async () => {
      const client = await signedIn()
      await setContext(client, { activeOrganizationId: "org-1" })
      expect((await client.signIn({ username: "user" })).status).toBe(302)
      expect((await contextOf(client))?.context).toEqual({ activeOrganizationId: null, impersonatorId: null, signInProvider: "credentials" })
    })
  })

  it("drops the cached copy of a database session when its context changes (shared-store cache)", async () => {
    const client = new Client(
      credentialsConfig({
        adapter: users().adapter,
        providers: [twoUserCredentials(users)],
        organizations: {},
        sharedStore: memoryStore(),
        session: { strategy: "database", cacheMaxAge: 300 },
      }),
    )
    expect((await client.signIn({ username: "user" })).status).toBe(302)
    // Cached now.
    expect(((await client.session()) as Session).activeOrganization).toBeNull()
    expect((await contextOf(client))?.context.activeOrganizationId).toBeNull()
    const ctx = await sessionRequestContext({ url: `${origin}/dashboard`, headers: new Headers({ cookie: client.jar.header() }) }, client.config)
    await updateSessionContext(ctx, { activeOrganizationId: "org-1" })
    expect((await contextOf(client))?.context.activeOrganizationId).toBe("org-1")

    async function contextOf(of: Client) {
      return currentSessionContext(await sessionRequestContext({ url: `${origin}/dashboard`, headers: new Headers({ cookie: of.jar.header() }) }, of.config))
    }
  })
})
