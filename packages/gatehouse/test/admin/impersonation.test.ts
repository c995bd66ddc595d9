/**
 * Impersonation on both session strategies and every stored adapter: only admins, never of an
 * admin, oneself, a banned user or from inside an impersonation; the session marked with the
 * admin, never extended past its end (reads, sliding, updates), ended by itself after
 * `admin.impersonationMaxAge`; stopping puts the admin's own session back; each start and stop
 * is one audit row; an impersonation adds no way into the user's account.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AdapterUserStatus, OrganizationStore, StoredAdapter, UserStatusStore } from "../../src/adapters/index.js"
import { impersonateUser, stopImpersonating } from "../../src/core/admin/impersonation-functions.js"
import { revokeOtherSessions, revokeSession } from "../../src/core/account/account-functions.js"
import { ImpersonationRefused, PermissionDenied, SessionRequired, UserNotFound } from "../../src/errors.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { Client, credentialsConfig, moveClockOn, origin, storedKey } from "../flow/flow-helpers.js"
import { storedAdapters, twoUserCredentials, withStoredUsers } from "../flow/stored-adapters.js"
import { enrol, totpNow } from "../two-factor/bypass-matrix-helpers.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const IMPERSONATOR_COOKIE = "__Secure-authjs.impersonator"
const HOUR = 60 * 60 * 1000

describe.each(storedAdapters)("impersonation on the $name adapter", (store) => {
  const users = withStoredUsers(store)
  afterEach(() => {
    vi.useRealTimers()
  })

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    /** `users().user` is the admin; `users().other` the user impersonated. */
    function config(extra: Partial<AuthConfig> = {}, admin: AuthConfig["admin"] = {}): AuthConfig {
      return credentialsConfig({
        adapter: users().adapter,
        providers: [twoUserCredentials(users)],
        session: { strategy },
        admin: { userIds: [users().user.id], ...admin },
        ...extra,
      })
    }

    async function signedIn(as: "user" | "other", options: { config?: AuthConfig } = {}): Promise<Client> {
      const client = new Client(options.config ?? config())
      expect((await client.signIn({ username: as })).status).toBe(302)
      return client
    }

    const requestOf = (client: Client) => new Request(`${origin}/admin`, { headers: { cookie: client.jar.header() } })

    function keep(client: Client, setCookies: string[]): void {
      const headers = new Headers()
      for (const line of setCookies) headers.append("set-cookie", line)
      client.jar.store(new Response(null, { headers }))
    }

    async function impersonate(client: Client, userId: string) {
      const started = await impersonateUser(requestOf(client), client.config, userId)
      keep(client, started.setCookies)
      return started
    }

    async function stop(client: Client): Promise<void> {
      keep(client, (await stopImpersonating(requestOf(client), client.config)).setCookies)
    }

    // Every stored adapter of these tests keeps the audit log (memory, SQLite, PostgreSQL).
    const audit = () => (users().adapter as StoredAdapter & OrganizationStore).listAuditEntries({ actorId: users().user.id, limit: 10 })

    it("lets an admin act as the user in a marked session, and stop puts the admin's session back", async () => {
      const { user: admin, other } = users()
      const client = await signedIn("user")
      const adminCookie = client.jar.get(SESSION_COOKIE)
      expect(((await client.session()) as Session).user?.email).toBe(admin.email)
      const before = Date.now()
      const started = await impersonate(client, other.id)

      const session = (await client.session()) as Session
      expect(session.user?.email).toBe(other.email)
      expect(session.impersonatedBy).toEqual({ id: admin.id, name: admin.name, email: admin.email, expires: started.impersonatedBy.expires })
      const end = Date.parse(started.impersonatedBy.expires)
      expect(end).toBeGreaterThanOrEqual(before + HOUR - 1000)
      expect(end).toBeLessThanOrEqual(Date.now() + HOUR)
      expect(Date.parse(session.expires)).toBeLessThanOrEqual(end)
      expect(client.jar.get(IMPERSONATOR_COOKIE)).toBeDefined()
      // A read of a fresh impersonation writes nothing (the mark compares equal to itself).
      expect((await client.get("session")).headers.getSetCookie()).toEqual([])
      const impersonationCookie = client.jar.get(SESSION_COOKIE)
      expect(impersonationCookie).not.toBe(adminCookie)
      if (strategy === "database") {
        // The admin's own row waits, untouched.
        expect((await users().adapter.getSessionAndUser(storedKey(adminCookie)))?.user.id).toBe(admin.id)
      }

      await stop(client)
      const back = (await client.session()) as Session
      expect(back.user?.email).toBe(admin.email)
      expect(back.impersonatedBy).toBeNull()
      expect(client.jar.get(SESSION_COOKIE)).toBe(adminCookie)
      expect(client.jar.get(IMPERSONATOR_COOKIE)).toBeUndefined()
      if (strategy === "database") expect(await users().adapter.getSessionAndUser(storedKey(impersonationCookie))).toBeNull()

      const rows = await audit()
      expect(rows.map(({ action, targetType, targetId, actorId }) => ({ action, targetType, targetId, actorId }))).toEqual([
        { action: "admin.stop-impersonating", targetType: "user", targetId: other.id, actorId: admin.id },
        { action: "admin.impersonate", targetType: "user", targetId: other.id, actorId: admin.id },
      ])
    })

    it("refuses non-admins, admins, oneself, unknown users and a second impersonation from inside one, writing no audit row", async () => {
      const { user: admin, other, adapter } = users()
      const third = await adapter.createUser({ id: crypto.randomUUID(), name: "Third", email: `${crypto.randomUUID()}@app.test`, emailVerified: null })

      const member = await signedIn("other")
      await expect(impersonateUser(requestOf(member), member.config, third.id)).rejects.toBeInstanceOf(PermissionDenied)

      const client = await signedIn("user", { config: config({}, { userIds: [admin.id, third.id] }) })
      await expect(impersonateUser(requestOf(client), client.config, admin.id)).rejects.toBeInstanceOf(ImpersonationRefused)
      await expect(impersonateUser(requestOf(client), client.config, third.id)).rejects.toBeInstanceOf(ImpersonationRefused)
      await expect(impersonateUser(requestOf(client), client.config, crypto.randomUUID())).rejects.toBeInstanceOf(UserNotFound)
      await expect(impersonateUser(new Request(`${origin}/admin`), client.config, other.id)).rejects.toBeInstanceOf(SessionRequired)
      expect(await audit()).toEqual([])

      await impersonate(client, other.id)
      await expect(impersonateUser(requestOf(client), client.config, third.id)).rejects.toBeInstanceOf(ImpersonationRefused)
      // Not even when the user impersonated is an admin too (by role, say): the check comes first.
      await expect(impersonateUser(requestOf(client), config({}, { userIds: [admin.id, other.id] }), third.id)).rejects.toBeInstanceOf(ImpersonationRefused)
      expect((await audit()).map((row) => row.action)).toEqual(["admin.impersonate"])
    })

    it("refuses a banned user", async () => {
      const { adapter, other } = users()
      const banned: AdapterUserStatus = { userId: other.id, role: null, bannedAt: new Date(), banReason: "spam", banExpiresAt: null, bannedBy: null }
      const withStatus = Object.assign(Object.create(adapter) as typeof adapter, { getUserStatus: async (id: string) => (id === other.id ? banned : null) })
      const client = await signedIn("user", { config: config({ adapter: withStatus }) })
      await expect(impersonateUser(requestOf(client), client.config, other.id)).rejects.toBeInstanceOf(ImpersonationRefused)
      // A ban that ended refuses nothing.
      banned.banExpiresAt = new Date(Date.now() - 1000)
      await expect(impersonateUser(requestOf(client), client.config, other.id)).resolves.toHaveProperty("setCookies")
    })

    it("ends by itself after impersonationMaxAge, however often the session is read, slid or updated", async () => {
      const client = await signedIn("user", { config: config({ session: { strategy, updateAge: 0 } }, { impersonationMaxAge: 600 }) })
      const started = await impersonate(client, users().other.id)
      const end = Date.parse(started.impersonatedBy.expires)
      expect(end).toBeLessThanOrEqual(Date.now() + 600_000)
      const keyOf = () => storedKey(client.jar.get(SESSION_COOKIE))
      const rowExpiry = strategy === "database" ? (await users().adapter.getSessionAndUser(keyOf()))!.session.expires.getTime() : 0

      for (let step = 0; step < 3; step++) {
        moveClockOn(150_000)
        const updated = await client.postJson("session", { csrfToken: await client.csrfToken(), data: { imp: null, exp: end / 1000 + 3600 } })
        const session = (await updated.json()) as Session
        expect(session.user?.email).toBe(users().other.email)
        expect(Date.parse(session.expires)).toBeLessThanOrEqual(end)
        expect(session.impersonatedBy?.expires).toBe(started.impersonatedBy.expires)
        if (strategy === "database") expect((await users().adapter.getSessionAndUser(keyOf()))!.session.expires.getTime()).toBe(rowExpiry)
      }

      moveClockOn(end - Date.now() + 1000)
      const after = await client.get("session")
      expect(await after.json()).toBeNull()
      // The admin is not signed in either: nothing of the impersonation outlives it.
      expect(await client.session()).toBeNull()
      await expect(stopImpersonating(requestOf(client), client.config)).rejects.toBeInstanceOf(SessionRequired)
    })

    // A longer impersonationMaxAge is refused by the configuration check (admin/admin-config.test.ts).
    it("lasts an hour by default", async () => {
      const client = await signedIn("user")
      const started = await impersonate(client, users().other.id)
      expect(Date.parse(started.impersonatedBy.expires)).toBeLessThanOrEqual(Date.now() + HOUR)
      moveClockOn(HOUR + 1000)
      expect(await client.session()).toBeNull()
    })

    it("adds no way into the user's account: the account routes see no signed-in user", async () => {
      const client = await signedIn("user", { config: config({ account: { routes: true } }) })
      expect((await client.get("accounts")).status).toBe(200)
      await impersonate(client, users().other.id)
      expect(((await client.session()) as Session).user?.email).toBe(users().other.email)
      expect((await client.get("accounts")).status).toBe(401)
    })

    it("shows none of the user's factors: an admin at aal 2 impersonates at aal 1, so step-up gates fail closed", async () => {
      const key = await enrol(users().adapter, users().user.id)
      const client = new Client(config({ twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled" } }))
      await client.signIn({ username: "user" })
      const checked = await client.postForm("two-factor", { code: totpNow(key), method: "totp", csrfToken: await client.csrfToken() })
      expect(checked.status).toBe(302)
      expect(((await client.session()) as Session).authentication?.aal).toBe(2)
      await impersonate(client, users().other.id)
      const session = (await client.session()) as Session
      expect(session.user?.email).toBe(users().other.email)
      expect(session.authentication).toEqual({ aal: 1, amr: [], secondFactorAt: null })
    })

    it("signing out of an impersonation ends it and leaves no admin session waiting in the browser", async () => {
      const client = await signedIn("user")
      await impersonate(client, users().other.id)
      expect(client.jar.get(IMPERSONATOR_COOKIE)).toBeDefined()
      const out = await client.postForm("signout", { csrfToken: await client.csrfToken() })
      expect(out.status).toBe(302)
      expect(client.jar.get(IMPERSONATOR_COOKIE)).toBeUndefined()
      expect(await client.session()).toBeNull()
      await expect(stopImpersonating(requestOf(client), client.config)).rejects.toBeInstanceOf(SessionRequired)
    })

    // Finding 1 of the mend round: the session is the user's, so revoking the admin's own sessions never reached it.
    describe("ends once its admin no longer stands", () => {
      const statusStore = () => users().adapter as StoredAdapter & UserStatusStore

      /** An admin by stored role (so demoting them is a role change), impersonating `users().other`. */
      async function impersonatingByRole(): Promise<{ client: Client; key: string }> {
        await statusStore().setUserRole(users().user.id, "admin")
        const client = await signedIn("user", { config: config({}, { userIds: [] }) })
        await impersonate(client, users().other.id)
        expect(((await client.session()) as Session).impersonatedBy?.id).toBe(users().user.id)
        return { client, key: storedKey(client.jar.get(SESSION_COOKIE)) }
      }

      const changes = {
        banned: () => statusStore().banUser(users().user.id, { banReason: "gone rogue", banExpiresAt: null, bannedBy: null }),
        demoted: () => statusStore().setUserRole(users().user.id, null),
        deleted: async () => {
          await users().adapter.deleteUser(users().user.id)
        },
      }

      it.each(Object.keys(changes) as (keyof typeof changes)[])("when the admin is %s: the next read has no session and the impersonation is gone", async (change) => {
        const { client, key } = await impersonatingByRole()
        await changes[change]()
        const read = await client.get("session")
        expect(await read.json()).toBeNull()
        // Both cookies cleared: nothing of the impersonation stays in the browser.
        expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
        expect(client.jar.get(IMPERSONATOR_COOKIE)).toBeUndefined()
        if (strategy === "database") expect(await users().adapter.getSessionAndUser(key)).toBeNull()
      })

      it("acts for nobody in a server function either once the admin is banned", async () => {
        const { client, key } = await impersonatingByRole()
        await changes.banned()
        await expect(stopImpersonating(requestOf(client), client.config)).rejects.toBeInstanceOf(SessionRequired)
        if (strategy === "database") expect(await users().adapter.getSessionAndUser(key)).toBeNull()
        expect((await audit()).map((row) => row.action)).toEqual(["admin.impersonate"])
      })

      it("stands while the admin does: a ban that ended, another user's ban", async () => {
        const { client } = await impersonatingByRole()
        await statusStore().banUser(users().user.id, { banReason: null, banExpiresAt: new Date(Date.now() - 1000), bannedBy: null })
        expect(((await client.session()) as Session).impersonatedBy?.id).toBe(users().user.id)
      })
    })

    // Finding 5 of the mend round: the user's sessions are theirs to end, not the impersonating admin's.
    it("refuses to end the user's sessions from inside an impersonation (function and route)", async () => {
      const { other, adapter } = users()
      const elsewhere = await signedIn("other", { config: config({ account: { routes: true } }) })
      const client = await signedIn("user", { config: elsewhere.config })
      await impersonate(client, other.id)
      await expect(revokeOtherSessions(requestOf(client), client.config)).rejects.toBeInstanceOf(ImpersonationRefused)
      const route = await client.postForm("sessions", { revokeOthers: "true", csrfToken: await client.csrfToken() })
      expect(route.status).toBe(403)
      expect(await route.json()).toMatchObject({ error: "ImpersonationRefused" })
      if (strategy === "database") {
        const [row] = (await adapter.listSessionsByUserId(other.id)).filter((listed) => storedKey(elsewhere.jar.get(SESSION_COOKIE)) === listed.sessionToken)
        expect(row).toBeDefined()
        await expect(revokeSession(requestOf(client), client.config, row!.id)).rejects.toBeInstanceOf(ImpersonationRefused)
      } else {
        expect(await adapter.getSessionVersion(other.id)).toBe(0)
      }
      // The user's own session elsewhere goes on.
      expect(((await elsewhere.session()) as Session).user?.email).toBe(other.email)
    })

    it("refuses to stop a session that is no impersonation", async () => {
      const client = await signedIn("user")
      await expect(stopImpersonating(requestOf(client), client.config)).rejects.toBeInstanceOf(ImpersonationRefused)
      expect(await audit()).toEqual([])
    })
  })
})
