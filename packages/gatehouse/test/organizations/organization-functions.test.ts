/**
 * The organizations' server functions on every stored adapter (memory, SQLite, PostgreSQL), as
 * the signed-in user of a real session: creating, reading, updating and deleting organizations,
 * members' pages, role changes and removals with their refusals (a member promoting themselves,
 * an admin making or changing an owner, the last owner leaving, a non-member reading another
 * organization), and one audit entry per change.
 */
import { beforeEach, describe, expect, it } from "vitest"
import type { AdapterOrganization, AdapterUser } from "../../src/adapters/index.js"
import { InvalidRequest, LastOwner, OrganizationNotFound, PermissionDenied, SessionRequired, SlugTaken, UserNotFound } from "../../src/errors.js"
import {
  createOrganization,
  defineAccess,
  deleteOrganization,
  getOrganization,
  leaveOrganization,
  listAuditLog,
  listMembers,
  listOrganizations,
  removeMember,
  updateMemberRole,
  updateOrganization,
} from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { newUser, openedStore, organizationConfig, requestAs, storedAdapters, type OrganizationAdapter } from "./organization-helpers.js"

const access = defineAccess({ project: ["create", "delete"] }, { roles: { editor: { project: ["create"] }, manager: { member: ["update", "remove"], organization: ["update", "delete"] } } })

describe.each(storedAdapters)("organization functions on the $name adapter", (store) => {
  const stored = openedStore(store)
  let adapter: OrganizationAdapter
  let config: AuthConfig
  let owner: AdapterUser
  let admin: AdapterUser
  let member: AdapterUser
  let outsider: AdapterUser
  let organization: AdapterOrganization
  let as: Map<string, Request>

  /** A signed-in request of `user`, made once per test. */
  async function request(user: AdapterUser): Promise<Request> {
    let made = as.get(user.id)
    if (!made) {
      made = await requestAs(config, user)
      as.set(user.id, made)
    }
    return made
  }

  /** The organization's audit actions, oldest first. */
  async function audited(organizationId = organization.id): Promise<string[]> {
    return (await adapter.listAuditEntries({ organizationId, limit: 100 })).map((entry) => entry.action).reverse()
  }

  beforeEach(async () => {
    adapter = stored()
    config = organizationConfig(adapter, { access, routes: true }, { admin: {} })
    as = new Map()
    ;[owner, admin, member, outsider] = [await newUser(adapter, "Olive"), await newUser(adapter, "Adam"), await newUser(adapter, "Mia"), await newUser(adapter, "Otto")]
    organization = await createOrganization(await request(owner), config, { name: "Acme", slug: `acme-${crypto.randomUUID()}` })
    await adapter.addMember({ organizationId: organization.id, userId: admin.id, role: "admin" })
    await adapter.addMember({ organizationId: organization.id, userId: member.id, role: "member" })
  })

  describe("organizations", () => {
    it("creates one with its creator as owner, listed and read back with the role's permissions, audited once", async () => {
      expect(organization).toMatchObject({ name: "Acme", policy: null })
      expect(await adapter.getMember(organization.id, owner.id)).toMatchObject({ role: "owner" })
      const listed = await listOrganizations(await request(owner), config)
      expect(listed.map((row) => [row.organization.id, row.role])).toEqual([[organization.id, "owner"]])
      const read = await getOrganization(await request(admin), config, organization.id)
      expect(read).toMatchObject({ id: organization.id, name: "Acme", role: "admin", unmet: [] })
      expect(read.permissions).toContain("member:update")
      expect(read.permissions).not.toContain("organization:delete")
      expect((await getOrganization(await request(member), config, organization.id)).permissions).toEqual([])
      expect(await audited()).toEqual(["organization.create"])
      const [entry] = await adapter.listAuditEntries({ organizationId: organization.id, limit: 1 })
      expect(entry).toMatchObject({ actorId: owner.id, targetType: "organization", targetId: organization.id, userAgent: "Organization tests" })
    })

    it("refuses a slug taken or malformed, a blank name, and a user allowCreate turns away; nothing is stored", async () => {
      const request_ = await request(outsider)
      await expect(createOrganization(request_, config, { name: "Copy", slug: organization.slug })).rejects.toThrow(SlugTaken)
      await expect(createOrganization(request_, config, { name: "Bad", slug: "Not A Slug" })).rejects.toThrow(InvalidRequest)
      await expect(createOrganization(request_, config, { name: " ", slug: `ok-${crypto.randomUUID()}` })).rejects.toThrow(InvalidRequest)
      const closed = organizationConfig(adapter, { allowCreate: (user) => user.id !== outsider.id })
      await expect(createOrganization(await requestAs(closed, outsider), closed, { name: "Mine", slug: `mine-${crypto.randomUUID()}` })).rejects.toThrow(PermissionDenied)
      expect(await adapter.listOrganizationsByUserId(outsider.id)).toEqual([])
    })

    it("needs a session", async () => {
      await expect(listOrganizations(new Request("https://app.test/"), config)).rejects.toThrow(SessionRequired)
      await expect(createOrganization(new Request("https://app.test/"), config, { name: "X", slug: "x" })).rejects.toThrow(SessionRequired)
    })

    it("answers a non-member OrganizationNotFound for another organization, as for one that does not exist", async () => {
      const outside = await request(outsider)
      for (const id of [organization.id, crypto.randomUUID(), "not-an-id"]) {
        await expect(getOrganization(outside, config, id)).rejects.toThrow(OrganizationNotFound)
        await expect(listMembers(outside, config, id)).rejects.toThrow(OrganizationNotFound)
        await expect(updateOrganization(outside, config, id, { name: "Mine now" })).rejects.toThrow(OrganizationNotFound)
        await expect(deleteOrganization(outside, config, id)).rejects.toThrow(OrganizationNotFound)
        await expect(leaveOrganization(outside, config, id)).rejects.toThrow(OrganizationNotFound)
        await expect(updateMemberRole(outside, config, id, member.id, "admin")).rejects.toThrow(OrganizationNotFound)
        await expect(removeMember(outside, config, id, member.id)).rejects.toThrow(OrganizationNotFound)
      }
      expect((await adapter.getOrganization({ id: organization.id }))?.name).toBe("Acme")
      expect(await audited()).toEqual(["organization.create"])
    })

    it("updates with organization:update (admins), not for members; refuses a slug taken; audits each change once", async () => {
      const { organization: other } = { organization: await createOrganization(await request(outsider), config, { name: "Other", slug: `other-${crypto.randomUUID()}` }) }
      await expect(updateOrganization(await request(member), config, organization.id, { name: "Mine" })).rejects.toThrow(PermissionDenied)
      const updated = await updateOrganization(await request(admin), config, organization.id, { name: "Acme Inc." })
      expect(updated).toMatchObject({ id: organization.id, name: "Acme Inc.", slug: organization.slug })
      await expect(updateOrganization(await request(admin), config, organization.id, { slug: other.slug })).rejects.toThrow(SlugTaken)
      await expect(updateOrganization(await request(admin), config, organization.id, {})).rejects.toThrow(InvalidRequest)
      expect((await adapter.getOrganization({ id: organization.id }))?.name).toBe("Acme Inc.")
      expect(await audited()).toEqual(["organization.create", "organization.update"])
    })

    it("deletes only with organization:delete (owners): an admin is refused; the audit entries stay", async () => {
      await expect(deleteOrganization(await request(admin), config, organization.id)).rejects.toThrow(PermissionDenied)
      expect(await adapter.getOrganization({ id: organization.id })).not.toBeNull()
      await deleteOrganization(await request(owner), config, organization.id)
      expect(await adapter.getOrganization({ id: organization.id })).toBeNull()
      await expect(getOrganization(await request(owner), config, organization.id)).rejects.toThrow(OrganizationNotFound)
      expect(await audited()).toEqual(["organization.create", "organization.delete"])
    })
  })

  describe("roles", () => {
    it("a member cannot promote themselves (nor anyone): PermissionDenied, the role unchanged", async () => {
      await expect(updateMemberRole(await request(member), config, organization.id, member.id, "owner")).rejects.toThrow(PermissionDenied)
      await expect(updateMemberRole(await request(member), config, organization.id, member.id, "admin")).rejects.toThrow(PermissionDenied)
      await expect(updateMemberRole(await request(member), config, organization.id, admin.id, "member")).rejects.toThrow(PermissionDenied)
      expect((await adapter.getMember(organization.id, member.id))?.role).toBe("member")
      expect(await audited()).toEqual(["organization.create"])
    })

    it("nobody changes their own role, an owner neither", async () => {
      await expect(updateMemberRole(await request(admin), config, organization.id, admin.id, "owner")).rejects.toThrow(PermissionDenied)
      await expect(updateMemberRole(await request(owner), config, organization.id, owner.id, "admin")).rejects.toThrow(PermissionDenied)
      expect((await adapter.getMember(organization.id, owner.id))?.role).toBe("owner")
    })

    it("an admin cannot make an owner or change an owner, nor grant a role that can do more than theirs", async () => {
      await expect(updateMemberRole(await request(admin), config, organization.id, member.id, "owner")).rejects.toThrow(PermissionDenied)
      await expect(updateMemberRole(await request(admin), config, organization.id, owner.id, "member")).rejects.toThrow(PermissionDenied)
      // manager can delete the organization, which an admin cannot.
      await expect(updateMemberRole(await request(admin), config, organization.id, member.id, "manager")).rejects.toThrow(PermissionDenied)
      expect((await adapter.getMember(organization.id, owner.id))?.role).toBe("owner")
      expect((await adapter.getMember(organization.id, member.id))?.role).toBe("member")
      expect(await audited()).toEqual(["organization.create"])
    })

    it("an admin makes a member an admin or an editor; an owner makes an owner; each change audited with from and to", async () => {
      expect(await updateMemberRole(await request(admin), config, organization.id, member.id, "editor")).toMatchObject({ userId: member.id, role: "editor" })
      expect((await getOrganization(await request(member), config, organization.id)).permissions).toEqual(["project:create"])
      await updateMemberRole(await request(owner), config, organization.id, member.id, "owner")
      expect((await adapter.getMember(organization.id, member.id))?.role).toBe("owner")
      expect(await audited()).toEqual(["organization.create", "member.update-role", "member.update-role"])
      const [last] = await adapter.listAuditEntries({ organizationId: organization.id, limit: 1 })
      expect(last).toMatchObject({ actorId: owner.id, targetType: "member", targetId: member.id, details: { from: "editor", to: "owner" } })
    })

    it("refuses a role nobody defined, and a user who is no member", async () => {
      await expect(updateMemberRole(await request(owner), config, organization.id, member.id, "wizard")).rejects.toThrow(InvalidRequest)
      await expect(updateMemberRole(await request(owner), config, organization.id, outsider.id, "admin")).rejects.toThrow(UserNotFound)
    })

    it("asks loadRole for roles the app keeps in its database", async () => {
      const loaded: [string, string][] = []
      const withLoader = organizationConfig(adapter, {
        access,
        loadRole: (organizationId, role) => {
          loaded.push([organizationId, role])
          return role === "auditor" ? ["project:create"] : null
        },
      })
      await updateMemberRole(await requestAs(withLoader, owner), withLoader, organization.id, member.id, "auditor")
      expect((await getOrganization(await requestAs(withLoader, member), withLoader, organization.id)).permissions).toEqual(["project:create"])
      expect(loaded).toContainEqual([organization.id, "auditor"])
      await expect(updateMemberRole(await requestAs(withLoader, owner), withLoader, organization.id, member.id, "ghost")).rejects.toThrow(InvalidRequest)
    })

    it("of two owners demoting each other at once, one is refused: the organization keeps an owner", async () => {
      await updateMemberRole(await request(owner), config, organization.id, admin.id, "owner")
      const results = await Promise.allSettled([
        updateMemberRole(await request(owner), config, organization.id, admin.id, "member"),
        updateMemberRole(await request(admin), config, organization.id, owner.id, "member"),
      ])
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1)
      const refused = results.find((result) => result.status === "rejected") as PromiseRejectedResult
      expect(refused.reason instanceof LastOwner || refused.reason instanceof PermissionDenied).toBe(true)
      const roles = [(await adapter.getMember(organization.id, owner.id))?.role, (await adapter.getMember(organization.id, admin.id))?.role]
      expect(roles.filter((role) => role === "owner")).toHaveLength(1)
    })
  })

  describe("members", () => {
    it("an admin removes a member; a member removes nobody; nobody removes an owner but an owner; removing oneself is leaving", async () => {
      const extra = await newUser(adapter, "Eve")
      await adapter.addMember({ organizationId: organization.id, userId: extra.id, role: "member" })
      await expect(removeMember(await request(member), config, organization.id, extra.id)).rejects.toThrow(PermissionDenied)
      await expect(removeMember(await request(admin), config, organization.id, owner.id)).rejects.toThrow(PermissionDenied)
      await expect(removeMember(await request(admin), config, organization.id, admin.id)).rejects.toThrow(InvalidRequest)
      await expect(removeMember(await request(admin), config, organization.id, outsider.id)).rejects.toThrow(UserNotFound)
      await removeMember(await request(admin), config, organization.id, extra.id)
      expect(await adapter.getMember(organization.id, extra.id)).toBeNull()
      expect(await adapter.getMember(organization.id, owner.id)).not.toBeNull()
      expect(await audited()).toEqual(["organization.create", "member.remove"])
    })

    it("the last owner cannot leave (LastOwner) nor be removed; a member leaves, audited", async () => {
      await expect(leaveOrganization(await request(owner), config, organization.id)).rejects.toThrow(LastOwner)
      expect((await adapter.getMember(organization.id, owner.id))?.role).toBe("owner")
      await leaveOrganization(await request(member), config, organization.id)
      expect(await adapter.getMember(organization.id, member.id)).toBeNull()
      await expect(getOrganization(await request(member), config, organization.id)).rejects.toThrow(OrganizationNotFound)
      expect(await audited()).toEqual(["organization.create", "member.leave"])
    })

    it("pages members by an opaque cursor, each once, with their users, and searches by name or email", async () => {
      for (const name of ["Zed", "Zara", "Yan"]) await adapter.addMember({ organizationId: organization.id, userId: (await newUser(adapter, name)).id, role: "member" })
      const seen: string[] = []
      let after: string | undefined
      let pages = 0
      do {
        const page = await listMembers(await request(member), config, organization.id, { limit: 2, ...(after && { after }) })
        expect(page.members.length).toBeLessThanOrEqual(2)
        seen.push(...page.members.map((row) => row.userId))
        for (const row of page.members) expect(row.user.email).toContain("@app.test")
        after = page.nextCursor ?? undefined
        if (after) expect(after).toMatch(/^[A-Za-z0-9_-]+$/)
        pages++
      } while (after && pages < 10)
      expect(seen).toHaveLength(6)
      expect(new Set(seen).size).toBe(6)
      expect(seen).toContain(owner.id)
      const found = await listMembers(await request(member), config, organization.id, { search: "za" })
      expect(found.members.map((row) => row.user.name)).toEqual(["Zara"])
      expect(found.nextCursor).toBeNull()
    })

    it("refuses a cursor it did not give and a limit out of range", async () => {
      for (const after of ["not-a-cursor", "eyJhIjoxfQ", Buffer.from(JSON.stringify([1, 2])).toString("base64url"), "%%%"]) {
        await expect(listMembers(await request(member), config, organization.id, { after })).rejects.toThrow(InvalidRequest)
      }
      for (const limit of [0, 101, 1.5]) await expect(listMembers(await request(member), config, organization.id, { limit })).rejects.toThrow(InvalidRequest)
    })
  })

  describe("policy", () => {
    // Passes once the policy part's unmetRequirements is merged (its seam answers "nothing unmet").
    it("a session that does not meet the organization's policy acts with no permission: no change, no member list", async () => {
      await adapter.updateOrganization(organization.id, { policy: { requireTwoFactor: true } })
      const read = await getOrganization(await request(owner), config, organization.id)
      expect(read).toMatchObject({ role: "owner", permissions: [], unmet: ["two-factor"] })
      await expect(updateOrganization(await request(owner), config, organization.id, { name: "Changed" })).rejects.toThrow(PermissionDenied)
      await expect(updateMemberRole(await request(owner), config, organization.id, member.id, "admin")).rejects.toThrow(PermissionDenied)
      await expect(removeMember(await request(admin), config, organization.id, member.id)).rejects.toThrow(PermissionDenied)
      await expect(listMembers(await request(member), config, organization.id)).rejects.toThrow(PermissionDenied)
      await expect(listAuditLog(await request(owner), config, { organizationId: organization.id })).rejects.toThrow(PermissionDenied)
      // Leaving needs no permission.
      await leaveOrganization(await request(member), config, organization.id)
      expect((await adapter.getMember(organization.id, admin.id))?.role).toBe("admin")
      expect((await adapter.getOrganization({ id: organization.id }))?.name).toBe("Acme")
    })
  })

  describe("setting a policy", () => {
    it("refuses a policy nobody could meet, or one the updater's own session does not meet; the organization stays unlocked", async () => {
      await expect(updateOrganization(await request(owner), config, organization.id, { policy: { requireTwoFactor: true } })).rejects.toThrow(/two-factor sign-in is not configured/)
      await expect(updateOrganization(await request(owner), config, organization.id, { policy: { signInMethods: ["github"] } })).rejects.toThrow(/"github", which is not a configured provider/)
      const strict = organizationConfig(adapter, { access }, { twoFactor: { totp: { issuer: "Tests" } } })
      // The owner signed in with one factor: requiring two would lock them (and everyone) out.
      await expect(updateOrganization(await requestAs(strict, owner), strict, organization.id, { policy: { requireTwoFactor: true } })).rejects.toThrow(/would lock out the session setting it \(it does not meet: two-factor\)/)
      expect((await adapter.getOrganization({ id: organization.id }))?.policy).toBeNull()
      // A policy the owner's session meets is set.
      await updateOrganization(await request(owner), config, organization.id, { policy: { signInMethods: ["credentials"] } })
      expect((await adapter.getOrganization({ id: organization.id }))?.policy).toEqual({ signInMethods: ["credentials"] })
      expect(await getOrganization(await request(owner), config, organization.id)).toMatchObject({ unmet: [] })
    })
  })

  describe("audit log", () => {
    // The log is ordered by time, then id: two entries of one millisecond have no order to assert.
    const laterMillisecond = () => new Promise((resolve) => setTimeout(resolve, 3))

    it("is read by the audit:read permission, not a role's name; the client's ip and user agent only by Gatehouse admins", async () => {
      await laterMillisecond()
      await updateOrganization(await request(owner), config, organization.id, { name: "Renamed" })
      const auditing = defineAccess({}, { roles: { auditor: { audit: ["read"] }, helper: { member: ["update"] } } })
      const audited = organizationConfig(adapter, { access: auditing }, { admin: { userIds: [outsider.id] } })
      await adapter.updateMemberRole(organization.id, member.id, "auditor")
      const read = await listAuditLog(await requestAs(audited, member), audited, { organizationId: organization.id })
      expect(read.entries.map((entry) => entry.action)).toEqual(["organization.update", "organization.create"])
      for (const entry of read.entries) {
        expect(entry).not.toHaveProperty("ip")
        expect(entry).not.toHaveProperty("userAgent")
      }
      await adapter.updateMemberRole(organization.id, member.id, "helper")
      await expect(listAuditLog(await requestAs(audited, member), audited, { organizationId: organization.id })).rejects.toThrow(/may not audit:read/)
      // The owner, by the built-in permission, without the client fields either.
      expect((await listAuditLog(await requestAs(audited, owner), audited, { organizationId: organization.id })).entries[0]).not.toHaveProperty("userAgent")
      // A Gatehouse admin sees them.
      const full = await listAuditLog(await requestAs(audited, outsider), audited, { organizationId: organization.id })
      expect(full.entries[0]).toMatchObject({ action: "organization.update", userAgent: "Organization tests" })
      expect(full.entries[0]).toHaveProperty("ip")
    })

    it("is read by the organization's owners and admins, not its members; the whole log by admins only", async () => {
      await laterMillisecond()
      await updateOrganization(await request(owner), config, organization.id, { name: "Renamed" })
      const page = await listAuditLog(await request(admin), config, { organizationId: organization.id })
      expect(page.entries.map((entry) => entry.action)).toEqual(["organization.update", "organization.create"])
      expect(page.nextCursor).toBeNull()
      const first = await listAuditLog(await request(owner), config, { organizationId: organization.id, limit: 1 })
      expect(first.entries.map((entry) => entry.action)).toEqual(["organization.update"])
      const second = await listAuditLog(await request(owner), config, { organizationId: organization.id, limit: 1, before: first.nextCursor! })
      expect(second.entries.map((entry) => entry.action)).toEqual(["organization.create"])
      await expect(listAuditLog(await request(member), config, { organizationId: organization.id })).rejects.toThrow(PermissionDenied)
      await expect(listAuditLog(await request(outsider), config, { organizationId: organization.id })).rejects.toThrow(OrganizationNotFound)
      await expect(listAuditLog(await request(owner), config)).rejects.toThrow(PermissionDenied)
      const admins = organizationConfig(adapter, {}, { admin: { userIds: [outsider.id] } })
      const all = await listAuditLog(await requestAs(admins, outsider), admins, { action: "organization.update" })
      expect(all.entries.some((entry) => entry.organizationId === organization.id)).toBe(true)
      expect((await listAuditLog(await requestAs(admins, outsider), admins, { organizationId: organization.id })).entries).toHaveLength(2)
    })
  })
})
