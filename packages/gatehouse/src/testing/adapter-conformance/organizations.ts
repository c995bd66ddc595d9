/**
 * Conformance tests of the organization, invitation and audit-log methods: slugs unique, deletion
 * cascading, the last owner kept (also against concurrent demotions and removals), members listed
 * with their users in pages, invitations used once, audit entries filtered and paged.
 * @module
 */
import { ORGANIZATION_METHODS } from "../../adapters/organization-fields.js"
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { Adapter, AdapterOrganization, AdapterUser, NewAdapterInvitation } from "../../adapters/index.js"
import { assertFields, assertSameDate, type ConformanceCase, type FullAdapter } from "./case.js"
import { secondsFromNow, storedUser } from "./fixtures.js"

/**
 * The organization and audit-log methods: Gatehouse's additions, optional like the others (an
 * adapter without them runs the rest of the suite).
 */
export { ORGANIZATION_METHODS }

/**
 * How many times two owners race to step down: one round of two quick statements on two
 * connections often does not overlap, so a store without the lock passes a few rounds by luck.
 */
const ROUNDS = 30

/** How many callers race for one invitation; a read-then-write without atomicity lets several through. */
const RACERS = 20

const uniqueSlug = (): string => `org-${randomUUID()}`

/** A stored organization owned by a new user. */
async function ownedOrganization(adapter: FullAdapter, fields: { name?: string; slug?: string } = {}): Promise<{ owner: AdapterUser; organization: AdapterOrganization }> {
  // Not the fixtures' default name, which the search tests look for.
  const owner = await storedUser(adapter, { name: "Olive Owner" })
  const organization = await adapter.createOrganization({ name: fields.name ?? "Acme", slug: fields.slug ?? uniqueSlug() }, owner.id)
  assert.ok(typeof organization === "object", `createOrganization must store a free slug, got ${String(organization)}`)
  return { owner, organization }
}

/** An invitation to `organizationId` from `inviterId`, valid for a week, with a fresh token hash. */
function invitationFixture(organizationId: string, inviterId: string, fields: Partial<NewAdapterInvitation> = {}): NewAdapterInvitation {
  return {
    organizationId,
    inviterId,
    email: `invitee-${randomUUID()}@example.com`,
    role: "member",
    tokenHash: `hash-${randomUUID()}`,
    expiresAt: secondsFromNow(7 * 24 * 60 * 60),
    ...fields,
  }
}

/** How many of the results are not `null`, nor a refusal string. */
const winners = (results: unknown[]): number => results.filter((result) => typeof result === "object" && result !== null).length

export const organizationCases: readonly ConformanceCase[] = [
  {
    name: "createOrganization: stores the organization with its creator as owner, read back by id and by slug",
    uses: ["createOrganization", "createUser", "getOrganization", "getMember"],
    async run(adapter) {
      const owner = await storedUser(adapter)
      const slug = uniqueSlug()
      const createdAt = secondsFromNow(-60)
      const policy = { requireTwoFactor: true, signInMethods: ["github", "email"], emailDomains: ["example.com"] }
      const created = await adapter.createOrganization({ name: "Acme Corp", slug, createdAt, policy }, owner.id)
      assert.ok(typeof created === "object")
      assert.equal(typeof created.id, "string")
      assert.ok(created.id.length > 0, "an id is assigned")
      const expected = { id: created.id, name: "Acme Corp", slug, createdAt, policy }
      assert.deepEqual(created, expected)
      assert.deepEqual(await adapter.getOrganization({ id: created.id }), expected)
      assert.deepEqual(await adapter.getOrganization({ slug }), expected)
      assert.deepEqual(await adapter.getMember(created.id, owner.id), { organizationId: created.id, userId: owner.id, role: "owner", createdAt })
      const bare = await adapter.createOrganization({ name: "Bare", slug: uniqueSlug() }, owner.id)
      assert.ok(typeof bare === "object")
      assert.equal(bare.policy, null, "no policy reads back as null")
      assert.ok(bare.createdAt instanceof Date && Math.abs(bare.createdAt.getTime() - Date.now()) < 60_000, "createdAt defaults to now")
    },
  },
  {
    name: "createOrganization: refuses a slug already taken, storing nothing, and rejects an unknown owner",
    uses: ["createOrganization", "createUser", "listOrganizationsByUserId"],
    async run(adapter) {
      const { organization } = await ownedOrganization(adapter)
      const other = await storedUser(adapter)
      assert.equal(await adapter.createOrganization({ name: "Copy", slug: organization.slug }, other.id), "slug-taken")
      assert.deepEqual(await adapter.listOrganizationsByUserId(other.id), [], "no organization nor membership was stored")
      await assert.rejects(async () => adapter.createOrganization({ name: "Orphan", slug: uniqueSlug() }, randomUUID()))
    },
  },
  {
    name: "getOrganization: returns null for an unknown id or slug, and never reads a slug as an id",
    uses: ["getOrganization", "createUser", "createOrganization"],
    async run(adapter) {
      const { organization } = await ownedOrganization(adapter)
      assert.equal(await adapter.getOrganization({ id: randomUUID() }), null)
      assert.equal(await adapter.getOrganization({ slug: uniqueSlug() }), null)
      assert.equal(await adapter.getOrganization({ id: organization.slug }), null, "the slug is not an id")
      assert.equal(await adapter.getOrganization({ slug: organization.id }), null, "the id is not a slug")
    },
  },
  {
    name: "updateOrganization: changes the fields given, refuses a slug taken, and returns null for an unknown id",
    uses: ["updateOrganization", "createUser", "createOrganization", "getOrganization"],
    async run(adapter) {
      const { organization } = await ownedOrganization(adapter)
      const { organization: other } = await ownedOrganization(adapter)
      const slug = uniqueSlug()
      const updated = await adapter.updateOrganization(organization.id, { name: "Renamed", slug, policy: { emailDomains: ["acme.test"] } })
      const expected = { ...organization, name: "Renamed", slug, policy: { emailDomains: ["acme.test"] } }
      assert.deepEqual(updated, expected)
      assert.deepEqual(await adapter.updateOrganization(organization.id, { name: undefined }), expected, "undefined is not given")
      assert.equal(await adapter.updateOrganization(organization.id, { slug: other.slug, name: "Clash" }), "slug-taken")
      assert.deepEqual(await adapter.getOrganization({ id: organization.id }), expected, "a refused update changes nothing")
      assert.deepEqual(await adapter.updateOrganization(organization.id, { slug }), expected, "keeping its own slug is fine")
      assert.deepEqual(await adapter.updateOrganization(organization.id, { policy: null }), { ...expected, policy: null })
      assert.equal(await adapter.updateOrganization(randomUUID(), { name: "Nobody" }), null)
    },
  },
  {
    name: "deleteOrganization: removes the organization with its members and invitations, once",
    uses: ["deleteOrganization", "createUser", "createOrganization", "addMember", "createInvitation", "getOrganization", "getMember", "getInvitationByTokenHash", "listOrganizationsByUserId"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const { organization: kept } = await ownedOrganization(adapter)
      const member = await storedUser(adapter)
      await adapter.addMember({ organizationId: organization.id, userId: member.id, role: "member" })
      await adapter.addMember({ organizationId: kept.id, userId: member.id, role: "admin" })
      const invitation = await adapter.createInvitation(invitationFixture(organization.id, owner.id))
      assert.equal(await adapter.deleteOrganization(organization.id), true)
      assert.equal(await adapter.getOrganization({ id: organization.id }), null)
      assert.equal(await adapter.getMember(organization.id, owner.id), null)
      assert.equal(await adapter.getMember(organization.id, member.id), null)
      assert.equal(await adapter.getInvitationByTokenHash(invitation.tokenHash), null)
      assert.deepEqual((await adapter.listOrganizationsByUserId(member.id)).map((row) => row.organization.id), [kept.id], "other memberships stay")
      assert.equal(await adapter.deleteOrganization(organization.id), false, "a second delete finds nothing")
    },
  },
  {
    name: "listOrganizationsByUserId: returns each organization of the user with their role, oldest membership first",
    uses: ["listOrganizationsByUserId", "createUser", "createOrganization", "addMember"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const { organization: first } = await ownedOrganization(adapter, { name: "First" })
      const { organization: second } = await ownedOrganization(adapter, { name: "Second" })
      await ownedOrganization(adapter, { name: "Not theirs" })
      const earlier = secondsFromNow(-20)
      const later = new Date(earlier.getTime() + 10_000)
      await adapter.addMember({ organizationId: second.id, userId: user.id, role: "admin", createdAt: earlier })
      await adapter.addMember({ organizationId: first.id, userId: user.id, role: "member", createdAt: later })
      assert.deepEqual(await adapter.listOrganizationsByUserId(user.id), [
        { organization: second, role: "admin", joinedAt: earlier },
        { organization: first, role: "member", joinedAt: later },
      ])
      assert.deepEqual(await adapter.listOrganizationsByUserId(randomUUID()), [])
    },
  },
  {
    name: "addMember: adds a member once, and rejects an unknown user or organization",
    uses: ["addMember", "createUser", "createOrganization", "getMember"],
    async run(adapter) {
      const { organization } = await ownedOrganization(adapter)
      const user = await storedUser(adapter)
      const createdAt = secondsFromNow(-5)
      const expected = { organizationId: organization.id, userId: user.id, role: "billing", createdAt }
      assert.deepEqual(await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "billing", createdAt }), expected)
      assert.deepEqual(await adapter.getMember(organization.id, user.id), expected)
      assert.equal(await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "owner" }), "already-member")
      assert.deepEqual(await adapter.getMember(organization.id, user.id), expected, "a refused add changes nothing")
      await assert.rejects(async () => adapter.addMember({ organizationId: organization.id, userId: randomUUID(), role: "member" }))
      await assert.rejects(async () => adapter.addMember({ organizationId: randomUUID(), userId: user.id, role: "member" }))
    },
  },
  {
    name: "getMembership: returns the membership with its organization in one answer, and null for a non-member, unknown ids, or once removed",
    uses: ["getMembership", "createUser", "createOrganization", "addMember", "removeMember", "updateOrganization", "deleteOrganization"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter, { name: "Joined" })
      const { owner: stranger } = await ownedOrganization(adapter)
      const user = await storedUser(adapter)
      const joinedAt = secondsFromNow(-30)
      await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "billing", createdAt: joinedAt })
      assert.deepEqual(await adapter.getMembership(organization.id, user.id), { organization, role: "billing", joinedAt })
      assert.equal((await adapter.getMembership(organization.id, owner.id))?.role, "owner")
      const renamed = await adapter.updateOrganization(organization.id, { name: "Renamed", policy: { requireTwoFactor: true } })
      assert.deepEqual(await adapter.getMembership(organization.id, user.id), { organization: renamed, role: "billing", joinedAt }, "the organization is read with the member")
      assert.equal(await adapter.getMembership(organization.id, stranger.id), null, "a user of another organization is no member")
      assert.equal(await adapter.getMembership(randomUUID(), user.id), null)
      assert.equal(await adapter.getMembership(organization.id, randomUUID()), null)
      assert.equal(await adapter.getMembership("not-an-id", "not-an-id"), null, "an id that cannot be one is no member")
      await adapter.removeMember(organization.id, user.id)
      assert.equal(await adapter.getMembership(organization.id, user.id), null, "a removed member is none")
      await adapter.deleteOrganization(organization.id)
      assert.equal(await adapter.getMembership(organization.id, owner.id), null, "nor is anyone of a deleted organization")
    },
  },
  {
    name: "getMember: returns null for a user of another organization and for unknown ids",
    uses: ["getMember", "createUser", "createOrganization"],
    async run(adapter) {
      const { organization } = await ownedOrganization(adapter)
      const { owner: stranger } = await ownedOrganization(adapter)
      assert.equal(await adapter.getMember(organization.id, stranger.id), null)
      assert.equal(await adapter.getMember(randomUUID(), stranger.id), null)
      assert.equal(await adapter.getMember(organization.id, randomUUID()), null)
    },
  },
  {
    name: "updateMemberRole: changes a role, and refuses to demote the last owner or change a non-member",
    uses: ["updateMemberRole", "createUser", "createOrganization", "addMember", "getMember"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const user = await storedUser(adapter)
      await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "member" })
      assert.equal(await adapter.updateMemberRole(organization.id, owner.id, "admin"), "last-owner")
      assert.equal((await adapter.getMember(organization.id, owner.id))?.role, "owner", "a refused demotion changes nothing")
      assert.equal(await adapter.updateMemberRole(organization.id, randomUUID(), "admin"), "not-found")
      assert.equal(await adapter.updateMemberRole(randomUUID(), owner.id, "admin"), "not-found")
      assertFields(await adapter.updateMemberRole(organization.id, owner.id, "owner"), { role: "owner" }, "an owner kept as owner")
      assertFields(await adapter.updateMemberRole(organization.id, user.id, "owner"), { userId: user.id, role: "owner" }, "a promotion")
      assertFields(await adapter.updateMemberRole(organization.id, owner.id, "admin"), { userId: owner.id, role: "admin" }, "a demotion with another owner left")
      assert.equal(await adapter.updateMemberRole(organization.id, user.id, "member"), "last-owner", "now the other is the last owner")
    },
  },
  {
    name: "updateMemberRole: of concurrent demotions of an organization's last two owners, one is refused",
    uses: ["updateMemberRole", "createUser", "createOrganization", "addMember", "getMember"],
    async run(adapter) {
      for (let round = 0; round < ROUNDS; round++) {
        const { owner, organization } = await ownedOrganization(adapter)
        const second = await storedUser(adapter)
        await adapter.addMember({ organizationId: organization.id, userId: second.id, role: "owner" })
        const results = await Promise.all([
          adapter.updateMemberRole(organization.id, owner.id, "member"),
          adapter.updateMemberRole(organization.id, second.id, "member"),
        ])
        assert.equal(winners(results), 1, `exactly one demotion passes, got ${JSON.stringify(results)}`)
        assert.ok(results.includes("last-owner"))
        const roles = [(await adapter.getMember(organization.id, owner.id))?.role, (await adapter.getMember(organization.id, second.id))?.role]
        assert.equal(roles.filter((role) => role === "owner").length, 1, "one owner remains")
      }
    },
  },
  {
    name: "removeMember: removes a member, and refuses to remove the last owner or a non-member",
    uses: ["removeMember", "createUser", "createOrganization", "addMember", "getMember"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const user = await storedUser(adapter)
      const createdAt = secondsFromNow(-3)
      await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "member", createdAt })
      assert.deepEqual(await adapter.removeMember(organization.id, user.id), { organizationId: organization.id, userId: user.id, role: "member", createdAt })
      assert.equal(await adapter.getMember(organization.id, user.id), null)
      assert.equal(await adapter.removeMember(organization.id, user.id), "not-found", "a second removal finds nothing")
      assert.equal(await adapter.removeMember(organization.id, owner.id), "last-owner")
      assert.equal((await adapter.getMember(organization.id, owner.id))?.role, "owner", "a refused removal changes nothing")
    },
  },
  {
    name: "removeMember: of concurrent removals of an organization's last two owners, one is refused",
    uses: ["removeMember", "createUser", "createOrganization", "addMember", "getMember"],
    async run(adapter) {
      for (let round = 0; round < ROUNDS; round++) {
        const { owner, organization } = await ownedOrganization(adapter)
        const second = await storedUser(adapter)
        await adapter.addMember({ organizationId: organization.id, userId: second.id, role: "owner" })
        const results = await Promise.all([adapter.removeMember(organization.id, owner.id), adapter.removeMember(organization.id, second.id)])
        assert.equal(winners(results), 1, `exactly one removal passes, got ${JSON.stringify(results)}`)
        const left = [await adapter.getMember(organization.id, owner.id), await adapter.getMember(organization.id, second.id)].filter((member) => member !== null)
        assert.equal(left.length, 1, "one owner remains")
        assert.equal(left[0]?.role, "owner")
      }
    },
  },
  {
    name: "listMembers: returns members with their users' name, email and image, in pages continued after the last member",
    uses: ["listMembers", "createUser", "createOrganization", "addMember"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const joined = secondsFromNow(-100)
      const later = (seconds: number): Date => new Date(joined.getTime() + seconds * 1000)
      const users: AdapterUser[] = []
      // Three members share one createdAt, so the userId decides their order and the page break.
      for (let index = 0; index < 5; index++) {
        const user = await storedUser(adapter, { name: `Member ${index}` })
        users.push(user)
        await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "member", createdAt: index < 3 ? joined : later(index) })
      }
      // Ties on createdAt go by userId in the store's order of ids (text, or integer in an
      // Auth.js SERIAL layout), so the whole list gives the order the pages must follow.
      const all = await adapter.listMembers(organization.id, { limit: 100 })
      const tied = new Set(users.slice(0, 3).map((user) => user.id))
      assert.deepEqual(new Set(all.slice(0, 3).map((member) => member.userId)), tied, "the three who joined first, together")
      assert.deepEqual(all.slice(3).map((member) => member.userId), [users[3]!.id, users[4]!.id, owner.id], "then by createdAt")
      const expectedOrder = all.map((member) => users.find((user) => user.id === member.userId) ?? owner)
      const first = await adapter.listMembers(organization.id, { limit: 2 })
      assert.deepEqual(first.map((member) => member.userId), expectedOrder.slice(0, 2).map((user) => user.id))
      assert.deepEqual(first[0], {
        organizationId: organization.id,
        userId: expectedOrder[0]!.id,
        role: "member",
        createdAt: joined,
        user: { name: expectedOrder[0]!.name, email: expectedOrder[0]!.email, image: expectedOrder[0]!.image },
      })
      const last = first[1]!
      const second = await adapter.listMembers(organization.id, { limit: 2, after: { createdAt: last.createdAt, userId: last.userId } })
      assert.deepEqual(second.map((member) => member.userId), expectedOrder.slice(2, 4).map((user) => user.id))
      const tail = second[1]!
      const third = await adapter.listMembers(organization.id, { limit: 2, after: { createdAt: tail.createdAt, userId: tail.userId } })
      // The owner joined at creation (now), after every member above.
      assert.deepEqual(third.map((member) => member.userId), [users[4]!.id, owner.id])
      const rest = await adapter.listMembers(organization.id, { limit: 2, after: { createdAt: third[1]!.createdAt, userId: owner.id } })
      assert.deepEqual(rest, [], "nothing after the last member")
      assert.equal((await adapter.listMembers(organization.id, { limit: 100 })).length, 6)
      assert.deepEqual(await adapter.listMembers(randomUUID(), { limit: 10 }), [])
    },
  },
  {
    name: "listMembers: searches by the start of the email or the name, ignoring case, with % and _ as plain characters",
    uses: ["listMembers", "createUser", "createOrganization", "addMember"],
    async run(adapter) {
      const { organization } = await ownedOrganization(adapter)
      const tag = randomUUID().slice(0, 8)
      const ada = await storedUser(adapter, { name: "Ada Lovelace", email: `ada_${tag}@example.com` })
      const grace = await storedUser(adapter, { name: "Grace Hopper", email: `grace-${tag}@example.com` })
      const adam = await storedUser(adapter, { name: "Adam Smith", email: `smith-${tag}@example.com` })
      const percent = await storedUser(adapter, { name: "100% Sure", email: `sure-${tag}@example.com` })
      const start = secondsFromNow(-10)
      for (const [index, user] of [ada, grace, adam, percent].entries()) {
        await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "member", createdAt: new Date(start.getTime() + index * 1000) })
      }
      const ids = async (search: string, limit = 10): Promise<string[]> =>
        (await adapter.listMembers(organization.id, { limit, search })).map((member) => member.userId)
      assert.deepEqual(await ids("ada"), [ada.id, adam.id], "a name prefix, any case")
      assert.deepEqual(await ids("GRACE-"), [grace.id], "an email prefix, any case")
      assert.deepEqual(await ids("Lovelace"), [], "not the middle of a name")
      assert.deepEqual(await ids("ada%"), [], "% is not a wildcard")
      assert.deepEqual(await ids("ad_"), [], "_ is not a wildcard")
      assert.deepEqual(await ids(`ada_${tag}`), [ada.id], "_ matches itself")
      assert.deepEqual(await ids("100%"), [percent.id], "% matches itself")
      assert.deepEqual(await ids("ada", 1), [ada.id], "the limit applies after the search")
      const next = await adapter.listMembers(organization.id, { limit: 1, search: "ada", after: { createdAt: start, userId: ada.id } })
      assert.deepEqual(next.map((member) => member.userId), [adam.id], "search pages too")
      assert.equal((await ids("")).length, 5, "an empty search is every member")
    },
  },
  {
    name: "listMembers: rejects a limit that is not a positive integer",
    uses: ["listMembers", "createUser", "createOrganization"],
    async run(adapter) {
      const { organization } = await ownedOrganization(adapter)
      for (const limit of [0, -1, 1.5, Number.NaN]) await assert.rejects(async () => adapter.listMembers(organization.id, { limit }), `limit ${limit}`)
    },
  },
  {
    name: "deleteUser: removes the user's memberships",
    uses: ["deleteUser", "createUser", "createOrganization", "addMember", "getMember", "listMembers"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const user = await storedUser(adapter)
      await adapter.addMember({ organizationId: organization.id, userId: user.id, role: "admin" })
      await adapter.deleteUser(user.id)
      assert.equal(await adapter.getMember(organization.id, user.id), null)
      assert.deepEqual((await adapter.listMembers(organization.id, { limit: 10 })).map((member) => member.userId), [owner.id])
    },
  },
  {
    name: "createInvitation: stores a pending invitation, read back by id and by token hash",
    uses: ["createInvitation", "createUser", "createOrganization", "getInvitation", "getInvitationByTokenHash"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const createdAt = secondsFromNow(-30)
      const input = invitationFixture(organization.id, owner.id, { role: "admin", createdAt })
      const created = await adapter.createInvitation(input)
      assert.ok(typeof created.id === "string" && created.id.length > 0)
      const { createdAt: _createdAt, ...fields } = input
      const expected = { ...fields, id: created.id, status: "pending", createdAt }
      assert.deepEqual(created, expected)
      assert.deepEqual(await adapter.getInvitation(created.id), expected)
      assert.deepEqual(await adapter.getInvitationByTokenHash(input.tokenHash), expected)
    },
  },
  {
    name: "createInvitation: rejects a token hash already in use and an unknown organization",
    uses: ["createInvitation", "createUser", "createOrganization"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const first = await adapter.createInvitation(invitationFixture(organization.id, owner.id))
      await assert.rejects(async () => adapter.createInvitation(invitationFixture(organization.id, owner.id, { tokenHash: first.tokenHash })))
      await assert.rejects(async () => adapter.createInvitation(invitationFixture(randomUUID(), owner.id)))
    },
  },
  {
    name: "getInvitation: returns null for an unknown id",
    uses: ["getInvitation"],
    async run(adapter) {
      assert.equal(await adapter.getInvitation(randomUUID()), null)
    },
  },
  {
    name: "getInvitationByTokenHash: returns null for an unknown hash",
    uses: ["getInvitationByTokenHash"],
    async run(adapter) {
      assert.equal(await adapter.getInvitationByTokenHash(`hash-${randomUUID()}`), null)
    },
  },
  {
    name: "setInvitationStatus: moves a pending invitation once: of concurrent calls exactly one gets it",
    uses: ["setInvitationStatus", "createUser", "createOrganization", "createInvitation", "getInvitation"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const invitation = await adapter.createInvitation(invitationFixture(organization.id, owner.id))
      const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => adapter.setInvitationStatus(invitation.id, "pending", index % 2 === 0 ? "accepted" : "declined")))
      assert.equal(winners(results), 1, "exactly one caller moves it")
      const winner = results.find((result) => result !== null)!
      assert.deepEqual(await adapter.getInvitation(invitation.id), winner)
      assert.deepEqual({ ...winner, status: "pending" }, invitation, "only the status changed")
      assert.equal(await adapter.setInvitationStatus(invitation.id, "pending", "revoked"), null, "an invitation no longer pending is not revoked")
      assert.equal(await adapter.setInvitationStatus(randomUUID(), "pending", "accepted"), null, "an unknown id")
    },
  },
  {
    name: "listInvitations: returns the organization's invitations, newest first, whatever their status",
    uses: ["listInvitations", "createUser", "createOrganization", "createInvitation", "setInvitationStatus"],
    async run(adapter) {
      const { owner, organization } = await ownedOrganization(adapter)
      const { organization: other } = await ownedOrganization(adapter)
      const older = await adapter.createInvitation(invitationFixture(organization.id, owner.id, { createdAt: secondsFromNow(-20) }))
      const newer = await adapter.createInvitation(invitationFixture(organization.id, owner.id, { createdAt: secondsFromNow(-10) }))
      await adapter.createInvitation(invitationFixture(other.id, owner.id))
      const revoked = await adapter.setInvitationStatus(older.id, "pending", "revoked")
      assert.deepEqual(await adapter.listInvitations(organization.id), [newer, revoked])
      assert.deepEqual(await adapter.listInvitations(randomUUID()), [])
    },
  },
  {
    name: "appendAuditEntry: stores an entry with its details as JSON, and nulls for what is left out",
    uses: ["appendAuditEntry", "listAuditEntries"],
    async run(adapter) {
      const organizationId = randomUUID()
      const createdAt = secondsFromNow(-1)
      const details = { from: "member", to: "admin", count: 2, flags: [true, null], nested: { note: "é ✓" } }
      const full = await adapter.appendAuditEntry({
        actorId: randomUUID(),
        action: "organization.member.role",
        organizationId,
        targetType: "user",
        targetId: randomUUID(),
        ip: "203.0.113.7",
        userAgent: "Mozilla/5.0",
        createdAt,
        details,
      })
      assert.ok(typeof full.id === "string" && full.id.length > 0)
      assertSameDate(full.createdAt, createdAt, "createdAt")
      assert.deepEqual(full.details, details)
      const bare = await adapter.appendAuditEntry({ actorId: null, action: "system.sweep", organizationId, targetType: null, targetId: null, ip: null, userAgent: null, details: null })
      assert.equal(bare.details, null)
      assert.ok(Math.abs(bare.createdAt.getTime() - Date.now()) < 60_000, "createdAt defaults to now")
      assert.deepEqual(await adapter.listAuditEntries({ organizationId, limit: 10 }), [bare, full])
    },
  },
  {
    name: "listAuditEntries: applies every filter given, together",
    uses: ["listAuditEntries", "appendAuditEntry"],
    async run(adapter) {
      const organizationId = randomUUID()
      const actorId = randomUUID()
      const otherActor = randomUUID()
      const entry = (actor: string, action: string, organization: string | null, seconds: number) =>
        adapter.appendAuditEntry({ actorId: actor, action, organizationId: organization, targetType: null, targetId: null, ip: null, userAgent: null, details: null, createdAt: secondsFromNow(seconds) })
      const a = await entry(actorId, "organization.update", organizationId, -5)
      const b = await entry(otherActor, "organization.update", organizationId, -4)
      const c = await entry(actorId, "admin.ban", null, -3)
      const d = await entry(actorId, "organization.delete", organizationId, -2)
      const ids = async (options: Parameters<FullAdapter["listAuditEntries"]>[0]): Promise<string[]> => (await adapter.listAuditEntries(options)).map((row) => row.id)
      assert.deepEqual(await ids({ organizationId, limit: 10 }), [d.id, b.id, a.id])
      assert.deepEqual(await ids({ actorId, limit: 10 }), [d.id, c.id, a.id])
      assert.deepEqual(await ids({ organizationId, actorId, limit: 10 }), [d.id, a.id])
      assert.deepEqual(await ids({ organizationId, action: "organization.update", limit: 10 }), [b.id, a.id])
      assert.deepEqual(await ids({ organizationId, actorId, action: "organization.update", limit: 10 }), [a.id])
      assert.deepEqual(await ids({ actorId, action: "admin.ban", limit: 10 }), [c.id])
      assert.deepEqual(await ids({ organizationId: randomUUID(), limit: 10 }), [])
    },
  },
  {
    name: "listAuditEntries: pages newest first, continued before the last entry, ties broken by id",
    uses: ["listAuditEntries", "appendAuditEntry"],
    async run(adapter) {
      const organizationId = randomUUID()
      const same = secondsFromNow(-30)
      const entries = []
      for (let index = 0; index < 5; index++) {
        entries.push(
          await adapter.appendAuditEntry({
            actorId: null,
            action: "organization.invite",
            organizationId,
            targetType: "invitation",
            targetId: String(index),
            ip: null,
            userAgent: null,
            details: { index },
            createdAt: index < 3 ? same : new Date(same.getTime() + index * 1000),
          }),
        )
      }
      const expected = [entries[4]!, entries[3]!, ...entries.slice(0, 3).sort((x, y) => (x.id < y.id ? 1 : -1))].map((row) => row.id)
      const seen: string[] = []
      let before: { createdAt: Date; id: string } | undefined
      for (;;) {
        const page = await adapter.listAuditEntries({ organizationId, limit: 2, ...(before ? { before } : {}) })
        if (page.length === 0) break
        assert.ok(page.length <= 2)
        seen.push(...page.map((row) => row.id))
        const last = page[page.length - 1]!
        before = { createdAt: last.createdAt, id: last.id }
      }
      assert.deepEqual(seen, expected)
      await assert.rejects(async () => adapter.listAuditEntries({ organizationId, limit: 0 }))
    },
  },
]
