/**
 * Conformance tests of the account methods: linkAccount, unlinkAccount and getAccount.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { assertFields, assertNothing, type ConformanceCase } from "./case.js"
import { accountFixture, storedUser } from "./fixtures.js"

export const accountCases: readonly ConformanceCase[] = [
  {
    name: "linkAccount: links the account to its user and returns it or nothing",
    uses: ["linkAccount", "createUser", "getUserByAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      const linked = await adapter.linkAccount(account)
      if (linked != null) assertFields(linked, account, "linkAccount result")
      assertFields(await adapter.getUserByAccount(account), user, "getUserByAccount after linkAccount")
    },
  },
  {
    name: "linkAccount: a user can hold several accounts",
    uses: ["linkAccount", "createUser", "getUserByAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const github = accountFixture(user.id, { provider: "github" })
      const google = accountFixture(user.id, { provider: "google", type: "oidc" })
      await adapter.linkAccount(github)
      await adapter.linkAccount(google)
      assertFields(await adapter.getUserByAccount(github), user, "getUserByAccount(github)")
      assertFields(await adapter.getUserByAccount(google), user, "getUserByAccount(google)")
    },
  },
  {
    name: "linkAccount: rejects a second account with the same provider and providerAccountId",
    uses: ["linkAccount", "createUser", "getUserByAccount"],
    async run(adapter) {
      const owner = await storedUser(adapter)
      const intruder = await storedUser(adapter)
      const account = accountFixture(owner.id)
      await adapter.linkAccount(account)
      await assert.rejects(async () => adapter.linkAccount({ ...account, userId: intruder.id }))
      assertFields(await adapter.getUserByAccount(account), owner, "getUserByAccount after the rejected link")
    },
  },
  {
    name: "unlinkAccount: removes the account, keeps the user and returns the account or nothing",
    uses: ["unlinkAccount", "createUser", "linkAccount", "getUserByAccount", "getUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      await adapter.linkAccount(account)
      const unlinked = await adapter.unlinkAccount(account)
      if (unlinked != null) assertFields(unlinked, account, "unlinkAccount result")
      assert.equal(await adapter.getUserByAccount(account), null, "getUserByAccount after unlinkAccount")
      assertFields(await adapter.getUser(user.id), user, "getUser after unlinkAccount")
    },
  },
  {
    name: "unlinkAccount: returns nothing for an unknown account",
    uses: ["unlinkAccount"],
    async run(adapter) {
      assertNothing(await adapter.unlinkAccount({ provider: "github", providerAccountId: randomUUID() }), "unlinkAccount result")
    },
  },
  {
    name: "getAccount: returns null for an unknown account",
    uses: ["getAccount"],
    async run(adapter) {
      assert.equal(await adapter.getAccount(randomUUID(), "github"), null)
    },
  },
  {
    name: "getAccount: returns null for a known providerAccountId of another provider",
    uses: ["getAccount", "createUser", "linkAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id, { provider: "github" })
      await adapter.linkAccount(account)
      assert.equal(await adapter.getAccount(account.providerAccountId, "gitlab"), null)
    },
  },
  {
    name: "getAccount: returns the account with its token fields, expires_at as a number",
    uses: ["getAccount", "createUser", "linkAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      await adapter.linkAccount(account)
      // Arguments are (providerAccountId, provider): the reverse of most other lookups.
      const stored = await adapter.getAccount(account.providerAccountId, account.provider)
      assertFields(stored, account, "getAccount result")
      assert.equal(typeof stored?.expires_at, "number", "getAccount result.expires_at must be a number")
    },
  },
]
