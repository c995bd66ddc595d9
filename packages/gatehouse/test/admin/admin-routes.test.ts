/**
 * The admin routes (`admin.routes`) on each of Gatehouse's stores: JSON in and out, every one
 * refused to a signed-out request (401) and to a signed-in user who is not an admin (403), every
 * POST CSRF-checked, and an admin's search, details, ban, unban and audit log.
 */
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { Client } from "../flow/flow-helpers.js"
import { adminConfig, person, roleAdmin, sessionEmail, signedIn, signIn, STORE_KINDS } from "./admin-harness.js"

const jwt = { session: { strategy: "jwt" as const, revocationCheckAge: 0 } }

/** A POST of `body` as JSON with the browser's CSRF token. */
async function post(browser: Client, path: string, body: Record<string, unknown> = {}): Promise<Response> {
  return browser.postJson(path, { csrfToken: await browser.csrfToken(), ...body })
}

for (const kind of STORE_KINDS) {
  describe(`the admin routes on ${kind.name}`, () => {
    const store = kind.use()

    it("answer 401 signed out and 403 to a user who is not an admin, on every route, changing nothing", async () => {
      const adapter = store()
      const config = adminConfig(adapter, { ...jwt, admin: { setPassword: async () => {} } })
      const [member, target] = [await person(adapter), await person(adapter)]
      const browsers: [Client, number, string][] = [
        [await signedIn(config, member), 403, "PermissionDenied"],
        // Signed out: a fresh browser, with a CSRF cookie of its own for the POSTs.
        [(await signIn(config, { ...member, email: "nobody@app.test" })).browser, 401, "SessionRequired"],
      ]
      for (const [browser, status, error] of browsers) {
        for (const path of ["admin/users", "admin/users?search=p&limit=5", `admin/users/${target.id}`, "admin/audit", "admin/users?limit=banana"]) {
          const response = await browser.get(path)
          expect(response.status, path).toBe(status)
          expect(await response.json(), path).toMatchObject({ error })
        }
        for (const change of ["ban", "unban", "role", "password", "revoke-sessions", "delete"]) {
          const response = await post(browser, `admin/users/${encodeURIComponent(target.id)}/${change}`, { role: "admin", password: "x", reason: "x" })
          expect(response.status, change).toBe(status)
          expect(await response.json(), change).toMatchObject({ error })
        }
      }
      expect(await adapter.getUser(target.id)).not.toBeNull()
      expect(await adapter.getUserStatus(target.id)).toBeNull()
      expect(await adapter.getUserStatus(member.id)).toBeNull()
    })

    it("refuse a POST without the CSRF token, changing nothing", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, jwt)
      const target = await person(adapter)
      const browser = await signedIn(config, admin)
      // The handler's CSRF refusal, as for every POST: a redirect to the error page naming MissingCSRF.
      const response = await browser.postJson(`admin/users/${target.id}/ban`, { reason: "no token" })
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toMatch(/[?&]error=MissingCSRF$/)
      const forged = await browser.postJson(`admin/users/${target.id}/ban`, { reason: "forged", csrfToken: "0".repeat(64) })
      expect(forged.status).toBe(302)
      expect(forged.headers.get("location")).toMatch(/[?&]error=MissingCSRF$/)
      expect(await adapter.getUserStatus(target.id)).toBeNull()
    })

    it("let an admin search, read a user, ban and unban, and page through the audit log", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, jwt)
      const browser = await signedIn(config, admin)
      const prefix = `rt${randomUUID().slice(0, 8)}`
      const target = await person(adapter, `${prefix} Target`)
      await person(adapter, `${prefix} Other`)
      const targetBrowser = await signedIn(config, target)

      const first = await browser.get(`admin/users?search=${prefix.toUpperCase()}&limit=1`)
      expect(first.status).toBe(200)
      const page = (await first.json()) as { users: { id: string }[]; next: string | null }
      expect(page.users).toHaveLength(1)
      expect(page.next).toBe(page.users[0]!.id)
      const second = (await (await browser.get(`admin/users?search=${prefix}&limit=1&after=${encodeURIComponent(page.next!)}`)).json()) as typeof page
      expect(second.users).toHaveLength(1)
      expect(second.users[0]!.id).not.toBe(page.users[0]!.id)
      expect(second.next).toBeNull()

      const details = await browser.get(`admin/users/${encodeURIComponent(target.id)}`)
      expect(await details.json()).toMatchObject({ user: { id: target.id, email: target.email }, status: { banned: false } })
      expect((await browser.get(`admin/users/${randomUUID()}`)).status).toBe(404)

      const banned = await post(browser, `admin/users/${encodeURIComponent(target.id)}/ban`, { reason: "spam", expiresAt: new Date(Date.now() + 60_000).toISOString() })
      expect(banned.status).toBe(200)
      expect(await banned.json()).toMatchObject({ status: { banned: true, banReason: "spam", bannedBy: admin.id } })
      expect(await sessionEmail(targetBrowser)).toBeNull()
      expect((await signIn(config, target)).location).toMatch(/error=UserBanned/)
      const past = await post(browser, `admin/users/${encodeURIComponent(target.id)}/ban`, { expiresAt: "2001-01-01T00:00:00Z" })
      expect(past.status).toBe(400)
      expect(await past.json()).toMatchObject({ error: "InvalidRequest" })

      const unbanned = await post(browser, `admin/users/${encodeURIComponent(target.id)}/unban`)
      expect(await unbanned.json()).toMatchObject({ status: { banned: false } })
      expect(await sessionEmail(await signedIn(config, target))).toBe(target.email)

      const log = (await (await browser.get(`admin/audit?actorId=${encodeURIComponent(admin.id)}&limit=1`)).json()) as { entries: { action: string }[]; nextCursor: string | null }
      expect(log.entries.map((entry) => entry.action)).toEqual(["admin.unban"])
      const older = (await (await browser.get(`admin/audit?actorId=${encodeURIComponent(admin.id)}&limit=5&before=${log.nextCursor}`)).json()) as typeof log
      // The reads are audited too: the two searches and the details read (rows of one millisecond have no order).
      expect(older.entries.map((entry) => entry.action).sort()).toEqual(["admin.ban", "admin.search-users", "admin.search-users", "admin.view-user"])
      expect(older.nextCursor).toBeNull()
      expect((await browser.get("admin/audit?before=not-a-cursor")).status).toBe(400)
      // A cursor of the right shape whose time is no date (beyond 8.64e15 ms): refused, never sent to the store.
      const crafted = Buffer.from(JSON.stringify([9e15, "x"])).toString("base64url")
      const refused = await browser.get(`admin/audit?before=${crafted}`)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ error: "InvalidRequest" })
    })

    it("answer 409 to the delete of an organization's last owner, and 403 to an admin banning themselves", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, jwt)
      const browser = await signedIn(config, admin)
      const [owner, member] = [await person(adapter), await person(adapter)]
      const organization = await adapter.createOrganization({ name: "Kept", slug: `kept-${randomUUID()}` }, owner.id)
      if (typeof organization !== "object") throw new Error("slug taken")
      await adapter.addMember({ organizationId: organization.id, userId: member.id, role: "member" })
      const refused = await post(browser, `admin/users/${encodeURIComponent(owner.id)}/delete`)
      expect(refused.status).toBe(409)
      expect(await refused.json()).toMatchObject({ error: "LastOwner" })
      expect(await adapter.getUser(owner.id)).not.toBeNull()
      const self = await post(browser, `admin/users/${encodeURIComponent(admin.id)}/ban`)
      expect(self.status).toBe(403)
      expect(await adapter.getUserStatus(admin.id)).toMatchObject({ bannedAt: null })
      const deleted = await post(browser, `admin/users/${encodeURIComponent(member.id)}/delete`)
      expect(await deleted.json()).toEqual({ id: member.id, deletedOrganizations: [] })
    })
  })
}
