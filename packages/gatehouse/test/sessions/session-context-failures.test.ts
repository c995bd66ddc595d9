/**
 * A failure while the session's context fields are read (the adapter's `getMembership`, a
 * throwing `loadRole`, the impersonating admin's lookup) is that read's, not the session's: the
 * active organization fails closed to `null`, an unchecked impersonation reads as no session for
 * this request, and the session cookie stays, so nobody is signed out by a database hiccup.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { OrganizationStore, StoredAdapter } from "../../src/adapters/index.js"
import { impersonateUser } from "../../src/core/admin/impersonation-functions.js"
import { sessionRequestContext } from "../../src/core/request-session.js"
import { updateSessionContext } from "../../src/core/sessions/session-context.js"
import { serializeCookie } from "../../src/cookies/serialize.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { Client, credentialsConfig, origin } from "../flow/flow-helpers.js"
import { storedAdapters, twoUserCredentials, withStoredUsers } from "../flow/stored-adapters.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const IMPERSONATOR_COOKIE = "__Secure-authjs.impersonator"

describe.each(storedAdapters)("session context failures on the $name adapter", (store) => {
  const users = withStoredUsers(store)
  afterEach(() => {
    vi.useRealTimers()
  })

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    /** The stored adapter with `method` throwing while `failing.count` is above 0 (once per call). */
    function failing<M extends "getMembership" | "getUser">(method: M, when: (...args: unknown[]) => boolean = () => true) {
      const base = users().adapter as StoredAdapter & OrganizationStore
      const state = { count: 0 }
      const original = base[method] as (...args: unknown[]) => Promise<unknown>
      const adapter = Object.assign(Object.create(base) as typeof base, {
        [method]: async (...args: unknown[]) => {
          if (state.count > 0 && when(...args)) {
            state.count--
            throw new Error(`${method} is down`)
          }
          return original.apply(base, args)
        },
      })
      return { adapter, state }
    }

    async function signedIn(config: Partial<AuthConfig>): Promise<Client> {
      const client = new Client(credentialsConfig({ providers: [twoUserCredentials(users)], session: { strategy }, ...config }))
      expect((await client.signIn({ username: "user" })).status).toBe(302)
      return client
    }

    function keep(client: Client, lines: string[]): void {
      const headers = new Headers()
      for (const line of lines) headers.append("set-cookie", line)
      client.jar.store(new Response(null, { headers }))
    }

    /** Signs in, makes the user a member of a new organization in `role`, and makes it the session's active one. */
    async function activeIn(client: Client, role: string): Promise<string> {
      const adapter = users().adapter as StoredAdapter & OrganizationStore
      const organization = await adapter.createOrganization({ name: "Acme", slug: `acme-${crypto.randomUUID()}` }, users().other.id)
      if (organization === "slug-taken") throw new Error("slug taken")
      await adapter.addMember({ organizationId: organization.id, userId: users().user.id, role })
      const ctx = await sessionRequestContext({ url: `${origin}/dashboard`, headers: new Headers({ cookie: client.jar.header() }) }, client.config)
      const cookies = await updateSessionContext(ctx, { activeOrganizationId: organization.id })
      keep(
        client,
        cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)),
      )
      expect(((await client.session()) as Session).activeOrganization?.id).toBe(organization.id)
      return organization.id
    }

    it("reads the session with no active organization, still signed in, when getMembership fails once", async () => {
      const { adapter, state } = failing("getMembership")
      const client = await signedIn({ adapter, organizations: {} })
      const organizationId = await activeIn(client, "member")
      state.count = 1
      const response = await client.get("session")
      expect(response.status).toBe(200)
      const session = (await response.json()) as Session
      expect(session.user?.email).toBe(users().user.email)
      expect(session.activeOrganization).toBeNull()
      expect(client.jar.get(SESSION_COOKIE)).toBeDefined()
      // The next read, the adapter back, shows the organization again: nothing was lost.
      expect(((await client.session()) as Session).activeOrganization?.id).toBe(organizationId)
    })

    it("reads the session with no active organization, still signed in, when loadRole throws", async () => {
      let broken = false
      const client = await signedIn({
        adapter: users().adapter,
        organizations: {
          loadRole: (_organizationId, role) => {
            if (broken) throw new Error("the roles table is down")
            return role === "auditor" ? ["organization:update"] : null
          },
        },
      })
      const organizationId = await activeIn(client, "auditor")
      broken = true
      const session = (await client.session()) as Session
      expect(session.user?.email).toBe(users().user.email)
      expect(session.activeOrganization).toBeNull()
      expect(client.jar.get(SESSION_COOKIE)).toBeDefined()
      broken = false
      expect(((await client.session()) as Session).activeOrganization).toMatchObject({ id: organizationId, permissions: ["organization:update"] })
    })

    it("answers no session for one read, but keeps the impersonation, when the admin's lookup fails", async () => {
      const adminId = () => users().user.id
      const { adapter, state } = failing("getUser", (id) => id === adminId())
      const client = await signedIn({ adapter, admin: { userIds: [adminId()] } })
      const started = await impersonateUser(new Request(`${origin}/admin`, { headers: { cookie: client.jar.header() } }), client.config, users().other.id)
      keep(client, started.setCookies)
      const impersonation = client.jar.get(SESSION_COOKIE)
      expect(((await client.session()) as Session).impersonatedBy?.id).toBe(adminId())

      state.count = 1
      const response = await client.get("session")
      expect(await response.json()).toBeNull()
      expect(client.jar.get(SESSION_COOKIE)).toBe(impersonation)
      expect(client.jar.get(IMPERSONATOR_COOKIE)).toBeDefined()
      const back = (await client.session()) as Session
      expect(back.user?.email).toBe(users().other.email)
      expect(back.impersonatedBy?.id).toBe(adminId())
    })
  })
})
