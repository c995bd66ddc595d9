/**
 * Conformance tests of the account methods: linkAccount, unlinkAccount, getAccount,
 * listAccountsByUserId and updateAccount.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { AdapterAccount } from "../../adapters/index.js"
import { assertFields, assertNothing, type ConformanceCase } from "./case.js"
import { accountFixture, storedUser } from "./fixtures.js"

/** Sorted by provider and providerAccountId, so that lists compare whatever order the store returns. */
function byKey<T extends Pick<AdapterAccount, "provider" | "providerAccountId">>(list: readonly T[]): T[] {
  const key = (account: T) => JSON.stringify([account.provider, account.providerAccountId])
  return [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** An expiry an hour later than the fixtures', in whole seconds as OAuth has it. */
const laterExpiry = () => Math.floor(Date.now() / 1000) + 2 * 60 * 60

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
  {
    name: "listAccountsByUserId: returns [] for an unknown user",
    uses: ["listAccountsByUserId"],
    async run(adapter) {
      assert.deepEqual(await adapter.listAccountsByUserId(randomUUID()), [])
    },
  },
  {
    // As with getUser: an id the store could never have issued (not a number for an integer
    // column, out of range, quoting) names no user.
    name: "listAccountsByUserId: returns [] for an id the store could never have issued",
    uses: ["listAccountsByUserId"],
    async run(adapter) {
      for (const id of ["not-a-number", "99999999999999999999999999", "1'; DROP TABLE accounts; --", ""]) {
        assert.deepEqual(await adapter.listAccountsByUserId(id), [], `listAccountsByUserId(${JSON.stringify(id)}) must be []`)
      }
    },
  },
  {
    name: "listAccountsByUserId: returns [] for a user without accounts",
    uses: ["listAccountsByUserId", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.deepEqual(await adapter.listAccountsByUserId(user.id), [])
    },
  },
  {
    name: "listAccountsByUserId: returns exactly the user's accounts, expires_at as a number",
    uses: ["listAccountsByUserId", "createUser", "linkAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const other = await storedUser(adapter)
      const mine = [accountFixture(user.id, { provider: "github" }), accountFixture(user.id, { provider: "google", type: "oidc" })]
      for (const account of [...mine, accountFixture(other.id)]) await adapter.linkAccount(account)
      const listed = byKey(await adapter.listAccountsByUserId(user.id))
      const expected = byKey(mine)
      assert.equal(listed.length, expected.length, `listAccountsByUserId must return ${expected.length} accounts, got ${listed.length}`)
      expected.forEach((account, i) => assertFields(listed[i], account, `listAccountsByUserId result[${i}]`))
      for (const account of listed) assert.equal(typeof account.expires_at, "number", "listAccountsByUserId result.expires_at must be a number")
    },
  },
  {
    name: "updateAccount: changes the given fields, keeps the others and returns the whole account",
    uses: ["updateAccount", "createUser", "linkAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      await adapter.linkAccount(account)
      const changes = { access_token: `access-${randomUUID()}`, expires_at: laterExpiry() }
      const updated = await adapter.updateAccount({ provider: account.provider, providerAccountId: account.providerAccountId, ...changes })
      assertFields(updated, { ...account, ...changes }, "updateAccount result")
      assert.equal(typeof updated?.expires_at, "number", "updateAccount result.expires_at must be a number")
    },
  },
  {
    name: "updateAccount: persists the change, leaving the user's other accounts alone",
    uses: ["updateAccount", "createUser", "linkAccount", "getAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id, { provider: "github" })
      const other = accountFixture(user.id, { provider: "google", type: "oidc" })
      await adapter.linkAccount(account)
      await adapter.linkAccount(other)
      const changes = { access_token: `access-${randomUUID()}`, refresh_token: `refresh-${randomUUID()}`, expires_at: laterExpiry() }
      await adapter.updateAccount({ provider: account.provider, providerAccountId: account.providerAccountId, ...changes })
      assertFields(await adapter.getAccount(account.providerAccountId, account.provider), { ...account, ...changes }, "getAccount after updateAccount")
      assertFields(await adapter.getAccount(other.providerAccountId, other.provider), other, "getAccount(the user's other account)")
    },
  },
  {
    name: "updateAccount: leaves fields given as undefined unchanged",
    uses: ["updateAccount", "createUser", "linkAccount", "getAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      await adapter.linkAccount(account)
      const access_token = `access-${randomUUID()}`
      await adapter.updateAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        access_token,
        refresh_token: undefined,
        id_token: undefined,
        expires_at: undefined,
      })
      assertFields(await adapter.getAccount(account.providerAccountId, account.provider), { ...account, access_token }, "getAccount after updateAccount")
    },
  },
  {
    name: "updateAccount: clears a field given as null",
    uses: ["updateAccount", "createUser", "linkAccount", "getAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const { refresh_token: _refresh, ...kept } = accountFixture(user.id)
      await adapter.linkAccount({ ...kept, refresh_token: `refresh-${randomUUID()}` })
      // JavaScript callers clear a token with null (a provider that stops issuing refresh tokens).
      const cleared = { provider: kept.provider, providerAccountId: kept.providerAccountId, refresh_token: null as unknown as string }
      const updated = await adapter.updateAccount(cleared)
      assertFields(updated, kept, "updateAccount result")
      assertNothing(updated?.refresh_token, "updateAccount result.refresh_token")
      const stored = await adapter.getAccount(kept.providerAccountId, kept.provider)
      assertFields(stored, kept, "getAccount after updateAccount")
      assertNothing(stored?.refresh_token, "getAccount after updateAccount: refresh_token")
    },
  },
  {
    name: "updateAccount: returns null for an unknown account",
    uses: ["updateAccount"],
    async run(adapter) {
      assert.equal(await adapter.updateAccount({ provider: "github", providerAccountId: randomUUID(), access_token: "access" }), null)
    },
  },
  {
    name: "updateAccount: matches provider and providerAccountId together",
    uses: ["updateAccount", "createUser", "linkAccount", "getAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id, { provider: "github" })
      await adapter.linkAccount(account)
      const otherProvider = { provider: "gitlab", providerAccountId: account.providerAccountId, access_token: `access-${randomUUID()}` }
      assert.equal(await adapter.updateAccount(otherProvider), null, "same providerAccountId, other provider")
      assertFields(await adapter.getAccount(account.providerAccountId, account.provider), account, "getAccount after updateAccount")
    },
  },
  {
    name: "updateAccount: never moves the account to another user or changes its type",
    uses: ["updateAccount", "createUser", "linkAccount", "getUserByAccount", "getAccount"],
    async run(adapter) {
      const owner = await storedUser(adapter)
      const intruder = await storedUser(adapter)
      const account = accountFixture(owner.id, { type: "oauth" })
      await adapter.linkAccount(account)
      const access_token = `access-${randomUUID()}`
      const updated = await adapter.updateAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        userId: intruder.id,
        type: "oidc",
        access_token,
      })
      // The other fields still apply; only the account's owner and kind are left as they were.
      assertFields(updated, { ...account, access_token }, "updateAccount result")
      assertFields(await adapter.getAccount(account.providerAccountId, account.provider), { ...account, access_token }, "getAccount after updateAccount")
      assertFields(await adapter.getUserByAccount(account), owner, "getUserByAccount after updateAccount")
    },
  },
]
