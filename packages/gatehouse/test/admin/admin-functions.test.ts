/**
 * The admin API's server functions on each of Gatehouse's stores: refused to anyone but an admin,
 * bans that end sessions at once and refuse sign-in, search, a user's details, roles, passwords,
 * and the delete of a user that never leaves an organization without its owner.
 */
import { randomUUID } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import {
  banUser,
  deleteUser,
  getUserDetails,
  revokeUserSessions,
  searchUsers,
  setUserPassword,
  setUserRole,
  unbanUser,
} from "../../src/index.js"
import { InvalidConfig, LastOwner, PermissionDenied, SessionRequired, UserNotFound } from "../../src/errors.js"
import type { AuthConfig } from "../../src/types.js"
import { moveClockOn } from "../flow/flow-helpers.js"
import { adminConfig, pageRequest, person, roleAdmin, sessionEmail, signedIn, signIn, STORE_KINDS, type AdminStore } from "./admin-harness.js"

const jwt = { session: { strategy: "jwt" as const, revocationCheckAge: 0 } }
const database = { session: { strategy: "database" as const } }

/** One call of every admin function against `target`, each as a thunk. */
function everyFunction(request: Request, config: AuthConfig, target: string): [string, () => Promise<unknown>][] {
  return [
    ["searchUsers", () => searchUsers(request, config, { search: "p" })],
    ["getUserDetails", () => getUserDetails(request, config, target)],
    ["banUser", () => banUser(request, config, target, { reason: "x" })],
    ["unbanUser", () => unbanUser(request, config, target)],
    ["setUserRole", () => setUserRole(request, config, target, "admin")],
    ["setUserPassword", () => setUserPassword(request, config, target, "new password")],
    ["revokeUserSessions", () => revokeUserSessions(request, config, target)],
    ["deleteUser", () => deleteUser(request, config, target)],
  ]
}

async function auditRows(adapter: AdminStore, actorId: string, action: string) {
  return adapter.listAuditEntries({ actorId, action, limit: 10 })
}

for (const kind of STORE_KINDS) {
  describe(`the admin functions on ${kind.name}`, () => {
    const store = kind.use()

    it("refuse a signed-in user who is not an admin (PermissionDenied) and a signed-out request (SessionRequired), changing nothing", async () => {
      const adapter = store()
      const config = adminConfig(adapter, { ...jwt, admin: { setPassword: async () => {} } })
      const [member, target] = [await person(adapter), await person(adapter)]
      const browser = await signedIn(config, member)
      for (const [name, call] of everyFunction(pageRequest(browser), config, target.id)) {
        await expect(call(), name).rejects.toBeInstanceOf(PermissionDenied)
      }
      for (const [name, call] of everyFunction(pageRequest(), config, target.id)) {
        await expect(call(), name).rejects.toBeInstanceOf(SessionRequired)
      }
      expect(await adapter.getUser(target.id)).toMatchObject({ id: target.id })
      expect(await adapter.getUserStatus(target.id)).toBeNull()
      expect(await adapter.getUserStatus(member.id)).toBeNull()
      // The member asking for themselves changes nothing either: a role is no way in.
      await expect(setUserRole(pageRequest(browser), config, member.id, "admin")).rejects.toBeInstanceOf(PermissionDenied)
      expect(await adapter.getUserStatus(member.id)).toBeNull()
    })

    it("ban a user under JWT sessions checked on every read (revocationCheckAge: 0): their session ends at once, the next sign-in is refused with UserBanned, one audit row", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, jwt)
      const target = await person(adapter)
      const [adminBrowser, targetBrowser] = [await signedIn(config, admin), await signedIn(config, target)]
      expect(await sessionEmail(targetBrowser)).toBe(target.email)

      const expiresAt = new Date(Date.now() + 3600_000)
      const status = await banUser(pageRequest(adminBrowser), config, target.id, { reason: "spam", expiresAt })
      expect(status).toEqual({ role: null, banned: true, bannedAt: expect.any(String), banReason: "spam", banExpiresAt: expiresAt.toISOString(), bannedBy: admin.id })
      expect(await sessionEmail(targetBrowser)).toBeNull()
      const again = await signIn(config, target)
      expect(again.location).toMatch(/error=UserBanned/)
      expect(await sessionEmail(again.browser)).toBeNull()
      // The admin is untouched.
      expect(await sessionEmail(adminBrowser)).toBe(admin.email)
      const rows = await auditRows(adapter, admin.id, "admin.ban")
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ targetType: "user", targetId: target.id, details: { reason: "spam", expiresAt: expiresAt.toISOString() } })
    })

    it("ban a user under JWT sessions with the default revocationCheckAge (60 s): their session stands until its next version check, and ends then", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, { session: { strategy: "jwt" } })
      const target = await person(adapter)
      const [adminBrowser, targetBrowser] = [await signedIn(config, admin), await signedIn(config, target)]
      await banUser(pageRequest(adminBrowser), config, target.id)
      try {
        // Checked less than 60 s ago: the session still reads as signed in...
        expect(await sessionEmail(targetBrowser)).toBe(target.email)
        moveClockOn(59_000)
        expect(await sessionEmail(targetBrowser)).toBe(target.email)
        // ...and once its check is due, the raised version ends it.
        moveClockOn(2_000)
        expect(await sessionEmail(targetBrowser)).toBeNull()
        expect(await sessionEmail(targetBrowser)).toBeNull()
      } finally {
        vi.useRealTimers()
      }
      expect((await signIn(config, target)).location).toMatch(/error=UserBanned/)
    })

    it("ban a user under database sessions: their session row is gone at once and sign-in is refused", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, database)
      const target = await person(adapter)
      const [adminBrowser, targetBrowser] = [await signedIn(config, admin), await signedIn(config, target)]
      expect(await sessionEmail(targetBrowser)).toBe(target.email)
      expect(await adapter.listSessionsByUserId(target.id)).toHaveLength(1)

      await banUser(pageRequest(adminBrowser), config, target.id)
      expect(await adapter.listSessionsByUserId(target.id)).toEqual([])
      expect(await sessionEmail(targetBrowser)).toBeNull()
      expect((await signIn(config, target)).location).toMatch(/error=UserBanned/)
      expect(await adapter.listSessionsByUserId(target.id)).toEqual([])
    })

    it("let a user whose ban has ended sign in, and one whose ban was lifted", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, database)
      const [expired, lifted] = [await person(adapter), await person(adapter)]
      await adapter.banUser(expired.id, { banReason: "cool down", banExpiresAt: new Date(Date.now() - 1000), bannedBy: admin.id })
      expect(await sessionEmail(await signedIn(config, expired))).toBe(expired.email)

      const adminBrowser = await signedIn(config, admin)
      await banUser(pageRequest(adminBrowser), config, lifted.id, { reason: "mistake" })
      expect((await signIn(config, lifted)).location).toMatch(/error=UserBanned/)
      const status = await unbanUser(pageRequest(adminBrowser), config, lifted.id)
      expect(status).toMatchObject({ banned: false, bannedAt: null, banReason: null })
      expect(await sessionEmail(await signedIn(config, lifted))).toBe(lifted.email)
      expect(await auditRows(adapter, admin.id, "admin.unban")).toEqual([expect.objectContaining({ targetId: lifted.id, details: { lifted: true } })])
    })

    it("refuse an admin banning, demoting or deleting themselves, and banning or deleting an admin listed in admin.userIds", async () => {
      const adapter = store()
      const [admin, listed] = [await roleAdmin(adapter), await person(adapter, "Lee Listed")]
      const config = adminConfig(adapter, { ...jwt, admin: { userIds: [listed.id] } })
      const request = pageRequest(await signedIn(config, admin))
      await expect(banUser(request, config, admin.id)).rejects.toBeInstanceOf(PermissionDenied)
      await expect(setUserRole(request, config, admin.id, null)).rejects.toBeInstanceOf(PermissionDenied)
      await expect(setUserRole(request, config, admin.id, "support")).rejects.toBeInstanceOf(PermissionDenied)
      await expect(deleteUser(request, config, admin.id)).rejects.toBeInstanceOf(PermissionDenied)
      await expect(banUser(request, config, listed.id)).rejects.toBeInstanceOf(PermissionDenied)
      await expect(deleteUser(request, config, listed.id)).rejects.toBeInstanceOf(PermissionDenied)
      expect(await adapter.getUserStatus(admin.id)).toMatchObject({ role: "admin", bannedAt: null })
      expect(await adapter.getUserStatus(listed.id)).toBeNull()
      expect(await adapter.getUser(listed.id)).not.toBeNull()
      // Keeping one's own admin role is no demotion.
      await expect(setUserRole(request, config, admin.id, "admin")).resolves.toMatchObject({ role: "admin" })
      await expect(banUser(request, config, randomUUID())).rejects.toBeInstanceOf(UserNotFound)
    })

    it("refuse setting the password of, or ending the sessions of, another admin unless the caller is listed in admin.userIds, and never of a listed admin", async () => {
      const adapter = store()
      const [admin, other, listed, target] = [await roleAdmin(adapter), await roleAdmin(adapter), await person(adapter, "Lee Listed"), await person(adapter)]
      const set: string[] = []
      const config = adminConfig(adapter, { ...jwt, admin: { userIds: [listed.id], setPassword: (user) => void set.push(user.id) } })
      const [adminRequest, listedRequest] = [pageRequest(await signedIn(config, admin)), pageRequest(await signedIn(config, listed))]
      const otherBrowser = await signedIn(config, other)
      for (const id of [other.id, listed.id, admin.id]) {
        await expect(setUserPassword(adminRequest, config, id, "taken over"), id).rejects.toBeInstanceOf(PermissionDenied)
        await expect(revokeUserSessions(adminRequest, config, id), id).rejects.toBeInstanceOf(PermissionDenied)
      }
      await expect(setUserPassword(listedRequest, config, listed.id, "x")).rejects.toBeInstanceOf(PermissionDenied)
      await expect(revokeUserSessions(listedRequest, config, listed.id)).rejects.toBeInstanceOf(PermissionDenied)
      expect(set).toEqual([])
      expect(await sessionEmail(otherBrowser)).toBe(other.email)
      expect(await auditRows(adapter, admin.id, "admin.set-password")).toEqual([])
      // A role admin still manages users who are not admins; a listed admin manages role admins.
      await setUserPassword(adminRequest, config, target.id, "reset")
      await setUserPassword(listedRequest, config, other.id, "reset")
      await revokeUserSessions(listedRequest, config, other.id)
      expect(set).toEqual([target.id, other.id])
      expect(await sessionEmail(otherBrowser)).toBeNull()
    })

    it("refuse a banned admin whose session still stands (a ban stored without its sessions ended), and an admin lifting their own ban", async () => {
      const adapter = store()
      const [admin, banned] = [await roleAdmin(adapter), await roleAdmin(adapter)]
      const config = adminConfig(adapter, { session: { strategy: "jwt" } })
      const [adminRequest, bannedBrowser] = [pageRequest(await signedIn(config, admin)), await signedIn(config, banned)]
      await expect(unbanUser(adminRequest, config, admin.id)).rejects.toBeInstanceOf(PermissionDenied)
      // Stored by the app through its adapter (or a ban whose session revocation failed): the
      // status row decides, not whether the session was ended.
      await adapter.banUser(banned.id, { banReason: "compromised", banExpiresAt: null, bannedBy: admin.id })
      expect(await sessionEmail(bannedBrowser)).toBe(banned.email)
      const bannedRequest = pageRequest(bannedBrowser)
      await expect(unbanUser(bannedRequest, config, banned.id)).rejects.toBeInstanceOf(PermissionDenied)
      await expect(searchUsers(bannedRequest, config)).rejects.toBeInstanceOf(PermissionDenied)
      await expect(banUser(bannedRequest, config, admin.id)).rejects.toBeInstanceOf(PermissionDenied)
      expect(await adapter.getUserStatus(banned.id)).toMatchObject({ banReason: "compromised", bannedAt: expect.any(Date) })
      expect(await adapter.getUserStatus(admin.id)).toMatchObject({ bannedAt: null })
      expect(await auditRows(adapter, banned.id, "admin.unban")).toEqual([])
    })

    it("search users by the start of their email or name, case ignored, in pages continued by next", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, jwt)
      const request = pageRequest(await signedIn(config, admin))
      const prefix = `zq${randomUUID().slice(0, 8)}`
      const named = []
      for (let i = 0; i < 5; i++) named.push(await person(adapter, `${prefix}Name ${i}`))
      const byEmail = await adapter.createUser({ email: `${prefix}mail-${randomUUID()}@app.test`, name: "Other", emailVerified: null, image: null })
      await person(adapter, `x${prefix}`)

      const pages = []
      let after: string | undefined
      do {
        const page = await searchUsers(request, config, { search: prefix.toUpperCase(), limit: 2, ...(after !== undefined && { after }) })
        pages.push(page.users)
        after = page.next ?? undefined
      } while (after !== undefined)
      expect(pages.map((page) => page.length)).toEqual([2, 2, 2])
      expect(pages.flat().map((user) => user.id).sort()).toEqual([...named, byEmail].map((user) => user.id).sort())
      expect(pages.flat()[0]).toEqual({ id: expect.any(String), name: expect.any(String), email: expect.any(String), emailVerified: null, image: null })
      expect((await searchUsers(request, config, { search: `${prefix}NAME 3` })).users.map((user) => user.id)).toEqual([named[3]!.id])
      await expect(searchUsers(request, config, { limit: 101 })).rejects.toMatchObject({ type: "InvalidRequest" })
      // Each search is audited with its text (rows of one millisecond have no order); the refused one is not.
      const searches = await adapter.listAuditEntries({ actorId: admin.id, action: "admin.search-users", limit: 10 })
      expect(searches.map((row) => (row.details as { search: string }).search).sort()).toEqual([`${prefix}NAME 3`, ...pages.map(() => prefix.toUpperCase())].sort())
    })

    it("show a user whole: status, live database sessions, accounts and memberships, and no token", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, database)
      const target = await person(adapter)
      await adapter.linkAccount({ userId: target.id, type: "oauth", provider: "github", providerAccountId: `gh-${randomUUID()}`, access_token: "secret-access-token", token_type: "bearer" })
      const organization = await adapter.createOrganization({ name: "Acme", slug: `acme-${randomUUID()}` }, target.id)
      if (typeof organization !== "object") throw new Error("slug taken")
      await signedIn(config, target)
      const details = await getUserDetails(pageRequest(await signedIn(config, admin)), config, target.id)
      expect(details.user).toEqual({ id: target.id, name: target.name, email: target.email, emailVerified: null, image: null })
      expect(details.status).toEqual({ role: null, banned: false, bannedAt: null, banReason: null, banExpiresAt: null, bannedBy: null })
      expect(details.sessions).toEqual([{ id: expect.any(String), createdAt: expect.any(String), expiresAt: expect.any(String), userAgent: null }])
      expect(details.accounts).toEqual([{ provider: "github", providerAccountId: expect.stringMatching(/^gh-/), type: "oauth" }])
      expect(details.memberships).toEqual([{ organizationId: organization.id, name: "Acme", slug: organization.slug, role: "owner", joinedAt: expect.any(String) }])
      expect(JSON.stringify(details)).not.toMatch(/secret-access-token|sha256:/)
      expect(await auditRows(adapter, admin.id, "admin.view-user")).toEqual([expect.objectContaining({ targetType: "user", targetId: target.id })])
    })

    it("delete a user with their accounts, sessions and memberships, their lone organizations with them, never an organization's last owner while others are in it", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const config = adminConfig(adapter, database)
      const adminRequest = pageRequest(await signedIn(config, admin))
      const [target, colleague] = [await person(adapter), await person(adapter)]
      // A plain membership, older than the rest (read first): a refusal must not leave it removed.
      const elsewhere = await adapter.createOrganization({ name: "Elsewhere", slug: `elsewhere-${randomUUID()}` }, colleague.id)
      if (typeof elsewhere !== "object") throw new Error("slug taken")
      await adapter.addMember({ organizationId: elsewhere.id, userId: target.id, role: "member", createdAt: new Date(Date.now() - 60_000) })
      const shared = await adapter.createOrganization({ name: "Shared", slug: `shared-${randomUUID()}` }, target.id)
      const alone = await adapter.createOrganization({ name: "Alone", slug: `alone-${randomUUID()}` }, target.id)
      if (typeof shared !== "object" || typeof alone !== "object") throw new Error("slug taken")
      await adapter.addMember({ organizationId: shared.id, userId: colleague.id, role: "member" })
      const account = { userId: target.id, type: "oauth" as const, provider: "github", providerAccountId: `gh-${randomUUID()}` }
      await adapter.linkAccount(account)
      const targetBrowser = await signedIn(config, target)

      await expect(deleteUser(adminRequest, config, target.id)).rejects.toBeInstanceOf(LastOwner)
      // Refused whole: nothing was removed.
      expect(await adapter.getUser(target.id)).not.toBeNull()
      expect(await adapter.getOrganization({ id: alone.id })).not.toBeNull()
      expect(await adapter.getMember(shared.id, target.id)).toMatchObject({ role: "owner" })
      expect(await adapter.getMember(elsewhere.id, target.id)).toMatchObject({ role: "member" })
      expect(await sessionEmail(targetBrowser)).toBe(target.email)

      await adapter.updateMemberRole(shared.id, colleague.id, "owner")
      expect(await deleteUser(adminRequest, config, target.id)).toEqual({ id: target.id, deletedOrganizations: [alone.id] })
      expect(await adapter.getUser(target.id)).toBeNull()
      expect(await adapter.getUserByAccount(account)).toBeNull()
      expect(await adapter.getOrganization({ id: alone.id })).toBeNull()
      expect(await adapter.getOrganization({ id: shared.id })).not.toBeNull()
      expect(await adapter.getMember(shared.id, target.id)).toBeNull()
      expect(await adapter.getMember(shared.id, colleague.id)).toMatchObject({ role: "owner" })
      expect(await adapter.getMember(elsewhere.id, target.id)).toBeNull()
      expect(await sessionEmail(targetBrowser)).toBeNull()
      expect(await auditRows(adapter, admin.id, "admin.delete-user")).toEqual([expect.objectContaining({ targetId: target.id, details: { email: target.email, deletedOrganizations: [alone.id] } })])
    })

    it("put back the memberships a refused delete removed: another owner demoted while the delete runs leaves the user whole", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const [target, colleague] = [await person(adapter), await person(adapter)]
      const joinedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000)
      const elsewhere = await adapter.createOrganization({ name: "Elsewhere", slug: `elsewhere-${randomUUID()}` }, colleague.id)
      if (typeof elsewhere !== "object") throw new Error("slug taken")
      await adapter.addMember({ organizationId: elsewhere.id, userId: target.id, role: "member", createdAt: joinedAt })
      const shared = await adapter.createOrganization({ name: "Shared", slug: `shared-${randomUUID()}` }, target.id)
      if (typeof shared !== "object") throw new Error("slug taken")
      await adapter.addMember({ organizationId: shared.id, userId: colleague.id, role: "owner" })
      // The colleague is demoted by someone else just as the first membership is removed.
      const racing: AdminStore = {
        ...adapter,
        removeMember: async (organizationId, userId) => {
          if (organizationId === elsewhere.id) await adapter.updateMemberRole(shared.id, colleague.id, "member")
          return adapter.removeMember(organizationId, userId)
        },
      }
      const config = adminConfig(racing, database)
      const targetBrowser = await signedIn(config, target)
      await expect(deleteUser(pageRequest(await signedIn(config, admin)), config, target.id)).rejects.toBeInstanceOf(LastOwner)
      expect(await adapter.getMember(elsewhere.id, target.id)).toMatchObject({ role: "member", createdAt: joinedAt })
      expect(await adapter.getMember(shared.id, target.id)).toMatchObject({ role: "owner" })
      expect(await adapter.getUser(target.id)).not.toBeNull()
      expect(await sessionEmail(targetBrowser)).toBe(target.email)
      expect(await auditRows(adapter, admin.id, "admin.delete-user")).toEqual([])
    })

    it("keep an organization judged the user's alone that gained a member while the delete ran", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const [target, newcomer] = [await person(adapter), await person(adapter)]
      const solo = await adapter.createOrganization({ name: "Solo", slug: `solo-${randomUUID()}` }, target.id)
      if (typeof solo !== "object") throw new Error("slug taken")
      let joined = false
      // The newcomer joins (as an owner) just after the organization was first judged alone.
      const racing: AdminStore = {
        ...adapter,
        listMembers: async (organizationId, options) => {
          const page = await adapter.listMembers(organizationId, options)
          if (organizationId === solo.id && !joined) {
            joined = true
            await adapter.addMember({ organizationId, userId: newcomer.id, role: "owner" })
          }
          return page
        },
      }
      const config = adminConfig(racing, database)
      expect(await deleteUser(pageRequest(await signedIn(config, admin)), config, target.id)).toEqual({ id: target.id, deletedOrganizations: [] })
      expect(joined).toBe(true)
      expect(await adapter.getOrganization({ id: solo.id })).not.toBeNull()
      expect(await adapter.getMember(solo.id, newcomer.id)).toMatchObject({ role: "owner" })
      expect(await adapter.getMember(solo.id, target.id)).toBeNull()
      expect(await adapter.getUser(target.id)).toBeNull()
    })

    it("set a role, which makes an admin, and a password through admin.setPassword (InvalidConfig without it); revoke a user's sessions", async () => {
      const adapter = store()
      const admin = await roleAdmin(adapter)
      const set: [string, string][] = []
      const config = adminConfig(adapter, { ...database, admin: { setPassword: (user, password) => void set.push([user.id, password]) } })
      const adminRequest = pageRequest(await signedIn(config, admin))
      const target = await person(adapter)
      const targetBrowser = await signedIn(config, target)

      expect(await setUserRole(adminRequest, config, target.id, "admin")).toMatchObject({ role: "admin" })
      // Now an admin: the admin API answers them.
      await expect(searchUsers(pageRequest(targetBrowser), config, { limit: 1 })).resolves.toMatchObject({ users: expect.any(Array) })
      await setUserRole(adminRequest, config, target.id, null)
      await expect(searchUsers(pageRequest(targetBrowser), config)).rejects.toBeInstanceOf(PermissionDenied)

      await setUserPassword(adminRequest, config, target.id, "a new passphrase")
      expect(set).toEqual([[target.id, "a new passphrase"]])
      const rows = await auditRows(adapter, admin.id, "admin.set-password")
      expect(rows).toHaveLength(1)
      expect(JSON.stringify(rows)).not.toContain("a new passphrase")
      const withoutHashing = adminConfig(adapter, database)
      await expect(setUserPassword(pageRequest(await signedIn(withoutHashing, admin)), withoutHashing, target.id, "x")).rejects.toBeInstanceOf(InvalidConfig)

      await revokeUserSessions(adminRequest, config, target.id)
      expect(await sessionEmail(targetBrowser)).toBeNull()
      expect(await auditRows(adapter, admin.id, "admin.revoke-sessions")).toHaveLength(1)
    })
  })
}
