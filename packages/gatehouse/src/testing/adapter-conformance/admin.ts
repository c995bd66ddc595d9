/**
 * Conformance tests of the admin API's methods: a user's status (role and ban) stored, replaced,
 * lifted and removed with the user, and users searched by the start of their email or name in
 * pages continued by keyset.
 * @module
 */
import assert from "node:assert/strict"
import { randomBytes, randomUUID } from "node:crypto"
import type { Adapter, AdapterUser } from "../../adapters/index.js"
import { assertSameDate, type ConformanceCase, type FullAdapter } from "./case.js"
import { secondsFromNow, storedUser } from "./fixtures.js"

/** The admin API's methods: Gatehouse's additions, optional like the others. */
export const ADMIN_METHODS = ["getUserStatus", "setUserRole", "banUser", "unbanUser", "searchUsers"] as const satisfies readonly (keyof Adapter)[]

/** A prefix no other test's user has: lower-case hex, which changes under case folding. */
const uniquePrefix = (): string => `q${randomBytes(6).toString("hex")}`

/** Whether `at` is within a minute of now: what "from now" means across clocks and rounding. */
function assertAboutNow(at: Date | null | undefined, label: string): void {
  assert.ok(at instanceof Date, `${label} must be a Date, got ${String(at)}`)
  assert.ok(Math.abs(at.getTime() - Date.now()) < 60_000, `${label} must be about now, got ${at.toISOString()}`)
}

/** Every user `search` finds, walked page by page of `limit` after the last id. */
async function walk(adapter: FullAdapter, search: string, limit: number): Promise<AdapterUser[][]> {
  const pages: AdapterUser[][] = []
  let after: string | undefined
  for (let guard = 0; guard < 50; guard++) {
    const page = await adapter.searchUsers({ search, limit, ...(after !== undefined && { after }) })
    pages.push(page)
    if (page.length < limit) return pages
    after = page[page.length - 1]!.id
  }
  throw new assert.AssertionError({ message: "searchUsers never returned a short page: the cursor is not followed" })
}

const ids = (users: readonly AdapterUser[]): string[] => users.map((user) => user.id)

export const adminCases: readonly ConformanceCase[] = [
  {
    name: "getUserStatus: returns null for a user with nothing stored, and for an unknown user",
    uses: ["getUserStatus", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.equal(await adapter.getUserStatus(user.id), null)
      assert.equal(await adapter.getUserStatus(randomUUID()), null)
    },
  },
  {
    name: "setUserRole: sets, replaces and clears the role, keeping a ban, and rejects an unknown user",
    uses: ["setUserRole", "createUser", "getUserStatus", "banUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      await adapter.setUserRole(user.id, "admin")
      assert.deepEqual(await adapter.getUserStatus(user.id), { userId: user.id, role: "admin", bannedAt: null, banReason: null, banExpiresAt: null, bannedBy: null })
      await adapter.setUserRole(user.id, "support")
      assert.equal((await adapter.getUserStatus(user.id))?.role, "support")
      await adapter.banUser(user.id, { banReason: "spam", banExpiresAt: null, bannedBy: null })
      await adapter.setUserRole(user.id, null)
      const status = await adapter.getUserStatus(user.id)
      assert.equal(status?.role, null, "the role is cleared")
      assert.equal(status?.banReason, "spam", "the ban stays")
      await assert.rejects(async () => adapter.setUserRole(randomUUID(), "admin"))
    },
  },
  {
    name: "banUser: bans from now with reason, expiry and who, replaces an earlier ban, keeps the role, and rejects an unknown user",
    uses: ["banUser", "createUser", "setUserRole", "getUserStatus"],
    async run(adapter) {
      const [user, admin] = [await storedUser(adapter), await storedUser(adapter)]
      await adapter.setUserRole(user.id, "editor")
      const expires = secondsFromNow(3600)
      await adapter.banUser(user.id, { banReason: "spam", banExpiresAt: expires, bannedBy: admin.id })
      const first = await adapter.getUserStatus(user.id)
      assert.ok(first, "a banned user has a status")
      assert.equal(first.userId, user.id)
      assert.equal(first.role, "editor", "the role stays")
      assertAboutNow(first.bannedAt, "bannedAt")
      assert.equal(first.banReason, "spam")
      assertSameDate(first.banExpiresAt, expires, "banExpiresAt")
      assert.equal(first.bannedBy, admin.id)
      await adapter.banUser(user.id, { banReason: null, banExpiresAt: null, bannedBy: null })
      const replaced = await adapter.getUserStatus(user.id)
      assert.deepEqual({ ...replaced, bannedAt: undefined }, { userId: user.id, role: "editor", bannedAt: undefined, banReason: null, banExpiresAt: null, bannedBy: null }, "every ban field is replaced")
      assertAboutNow(replaced?.bannedAt, "bannedAt")
      await assert.rejects(async () => adapter.banUser(randomUUID(), { banReason: null, banExpiresAt: null, bannedBy: null }))
    },
  },
  {
    name: "unbanUser: lifts the ban, keeping the role, and returns whether there was one",
    uses: ["unbanUser", "createUser", "setUserRole", "banUser", "getUserStatus"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.equal(await adapter.unbanUser(user.id), false, "nothing stored: no ban")
      await adapter.setUserRole(user.id, "editor")
      assert.equal(await adapter.unbanUser(user.id), false, "a role is no ban")
      await adapter.banUser(user.id, { banReason: "spam", banExpiresAt: secondsFromNow(60), bannedBy: null })
      assert.equal(await adapter.unbanUser(user.id), true)
      assert.deepEqual(await adapter.getUserStatus(user.id), { userId: user.id, role: "editor", bannedAt: null, banReason: null, banExpiresAt: null, bannedBy: null })
      assert.equal(await adapter.unbanUser(user.id), false, "lifted once")
      assert.equal(await adapter.unbanUser(randomUUID()), false)
    },
  },
  {
    name: "deleteUser: removes the user's status (role and ban) with them",
    uses: ["deleteUser", "createUser", "banUser", "getUserStatus"],
    async run(adapter) {
      const user = await storedUser(adapter)
      await adapter.banUser(user.id, { banReason: "spam", banExpiresAt: null, bannedBy: null })
      await adapter.deleteUser(user.id)
      assert.equal(await adapter.getUserStatus(user.id), null)
    },
  },
  {
    name: "searchUsers: returns pages continued after the last id, each user once, in one order",
    uses: ["searchUsers", "createUser"],
    async run(adapter) {
      const prefix = uniquePrefix()
      const created: AdapterUser[] = []
      for (let i = 0; i < 5; i++) created.push(await storedUser(adapter, { name: `${prefix} ${i}` }))
      const all = await adapter.searchUsers({ search: prefix, limit: 100 })
      assert.deepEqual(new Set(ids(all)), new Set(ids(created)), "every user named with the prefix, and only them")
      assert.equal(all.length, 5, "each user once")
      assert.deepEqual(all.find((user) => user.id === created[0]!.id), created[0], "users come back whole")
      const pages = await walk(adapter, prefix, 2)
      assert.deepEqual(pages.map((page) => page.length), [2, 2, 1], "pages of the limit, the last one short")
      assert.deepEqual(ids(pages.flat()), ids(all), "the pages, one after another, are the whole list in its order")
      assert.deepEqual(await adapter.searchUsers({ search: prefix, limit: 2, after: all[4]!.id }), [], "nothing after the last")
    },
  },
  {
    name: "searchUsers: searches by the start of the email or the name, ignoring case, with % and _ as plain characters",
    uses: ["searchUsers", "createUser"],
    async run(adapter) {
      const prefix = uniquePrefix()
      const byName = await storedUser(adapter, { name: `${prefix}alpha Smith` })
      const byEmail = await storedUser(adapter, { name: "Someone Else", email: `${prefix}beta-${randomUUID()}@example.com` })
      const underscore = await storedUser(adapter, { name: `${prefix}_under` })
      // The prefix inside the name and the email, not at their start.
      await storedUser(adapter, { name: `x${prefix}alpha`, email: `x${prefix}-${randomUUID()}@example.com` })
      const found = async (search: string): Promise<string[]> => ids(await adapter.searchUsers({ search, limit: 100 })).sort()
      assert.deepEqual(await found(prefix.toUpperCase()), [byName.id, byEmail.id, underscore.id].sort(), "case is ignored, and only the start matches")
      assert.deepEqual(await found(`${prefix}ALPHA s`), [byName.id])
      assert.deepEqual(await found(`${prefix}_`), [underscore.id], "_ is no wildcard")
      assert.deepEqual(await found(`${prefix}%`), [], "% is no wildcard")
    },
  },
  {
    name: "searchUsers: without a search, pages through every user after the cursor, at most the limit, and refuses a limit below 1",
    uses: ["searchUsers", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.equal((await adapter.searchUsers({ limit: 1 })).length, 1)
      const after = await adapter.searchUsers({ after: user.id, limit: 50 })
      assert.ok(after.length <= 50)
      assert.ok(!ids(after).includes(user.id), "the cursor's own user is not after itself")
      await assert.rejects(async () => adapter.searchUsers({ limit: 0 }))
    },
  },
]
