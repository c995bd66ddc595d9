/**
 * Conformance tests of the passkey methods: createAuthenticator, getAuthenticator,
 * listAuthenticatorsByUserId, updateAuthenticatorCounter and deleteAuthenticator.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { assertFields, assertNothing, type ConformanceCase } from "./case.js"
import { authenticatorFixture, storedUser } from "./fixtures.js"

/** Sorted by credentialID, so that lists compare whatever order the store returns. */
function byCredential<T extends { credentialID: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => (a.credentialID < b.credentialID ? -1 : a.credentialID > b.credentialID ? 1 : 0))
}

export const authenticatorCases: readonly ConformanceCase[] = [
  {
    name: "createAuthenticator: returns the authenticator",
    uses: ["createAuthenticator", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const authenticator = authenticatorFixture(user.id)
      assertFields(await adapter.createAuthenticator(authenticator), authenticator, "createAuthenticator result")
    },
  },
  {
    name: "createAuthenticator: rejects a credentialID already in use",
    uses: ["createAuthenticator", "createUser", "getAuthenticator"],
    async run(adapter) {
      const owner = await storedUser(adapter)
      const intruder = await storedUser(adapter)
      const authenticator = await adapter.createAuthenticator(authenticatorFixture(owner.id))
      const duplicate = authenticatorFixture(intruder.id, { credentialID: authenticator.credentialID })
      await assert.rejects(async () => adapter.createAuthenticator(duplicate))
      assertFields(await adapter.getAuthenticator(authenticator.credentialID), authenticator, "getAuthenticator after the rejected create")
    },
  },
  {
    name: "createAuthenticator: stores absent transports as null or nothing",
    uses: ["createAuthenticator", "createUser", "getAuthenticator"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const { transports: _transports, ...authenticator } = authenticatorFixture(user.id)
      await adapter.createAuthenticator(authenticator)
      const stored = await adapter.getAuthenticator(authenticator.credentialID)
      assertFields(stored, authenticator, "getAuthenticator result")
      assertNothing(stored?.transports, "getAuthenticator result.transports")
    },
  },
  {
    name: "getAuthenticator: returns null for an unknown credentialID",
    uses: ["getAuthenticator"],
    async run(adapter) {
      assert.equal(await adapter.getAuthenticator(randomUUID()), null)
    },
  },
  {
    name: "getAuthenticator: returns the authenticator, counter as a number and credentialBackedUp as a boolean",
    uses: ["getAuthenticator", "createUser", "createAuthenticator"],
    async run(adapter) {
      const user = await storedUser(adapter)
      // Both boolean values, since a store keeping 0/1 must turn each back into a boolean.
      const backedUp = authenticatorFixture(user.id, { counter: 7, credentialBackedUp: true })
      const single = authenticatorFixture(user.id, { credentialBackedUp: false, credentialDeviceType: "singleDevice" })
      for (const authenticator of [backedUp, single]) {
        await adapter.createAuthenticator(authenticator)
        assertFields(await adapter.getAuthenticator(authenticator.credentialID), authenticator, "getAuthenticator result")
      }
    },
  },
  {
    name: "listAuthenticatorsByUserId: returns [] for an unknown user",
    uses: ["listAuthenticatorsByUserId"],
    async run(adapter) {
      assert.deepEqual(await adapter.listAuthenticatorsByUserId(randomUUID()), [])
    },
  },
  {
    name: "listAuthenticatorsByUserId: returns [] for a user without authenticators",
    uses: ["listAuthenticatorsByUserId", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.deepEqual(await adapter.listAuthenticatorsByUserId(user.id), [])
    },
  },
  {
    name: "listAuthenticatorsByUserId: returns exactly the user's authenticators",
    uses: ["listAuthenticatorsByUserId", "createUser", "createAuthenticator"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const other = await storedUser(adapter)
      const mine = [authenticatorFixture(user.id), authenticatorFixture(user.id)]
      for (const authenticator of [...mine, authenticatorFixture(other.id)]) await adapter.createAuthenticator(authenticator)
      const listed = byCredential(await adapter.listAuthenticatorsByUserId(user.id))
      const expected = byCredential(mine)
      assert.equal(listed.length, expected.length, `listAuthenticatorsByUserId must return ${expected.length} authenticators, got ${listed.length}`)
      expected.forEach((authenticator, i) => assertFields(listed[i], authenticator, `listAuthenticatorsByUserId result[${i}]`))
    },
  },
  {
    name: "updateAuthenticatorCounter: returns the authenticator with the new counter and persists it",
    uses: ["updateAuthenticatorCounter", "createUser", "createAuthenticator", "getAuthenticator"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const authenticator = await adapter.createAuthenticator(authenticatorFixture(user.id, { counter: 1 }))
      const expected = { ...authenticator, counter: 42 }
      assertFields(await adapter.updateAuthenticatorCounter(authenticator.credentialID, 42), expected, "updateAuthenticatorCounter result")
      assertFields(await adapter.getAuthenticator(authenticator.credentialID), expected, "getAuthenticator after updateAuthenticatorCounter")
    },
  },
  {
    name: "updateAuthenticatorCounter: rejects an unknown credentialID",
    uses: ["updateAuthenticatorCounter"],
    async run(adapter) {
      await assert.rejects(async () => adapter.updateAuthenticatorCounter(randomUUID(), 1))
    },
  },
  {
    name: "deleteAuthenticator: returns the authenticator and removes it, leaving the user's others",
    uses: ["deleteAuthenticator", "createUser", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const [gone, kept] = [authenticatorFixture(user.id), authenticatorFixture(user.id)]
      for (const authenticator of [gone, kept]) await adapter.createAuthenticator(authenticator)
      assertFields(await adapter.deleteAuthenticator(gone.credentialID), gone, "deleteAuthenticator result")
      assert.equal(await adapter.getAuthenticator(gone.credentialID), null, "getAuthenticator after deleteAuthenticator must return null")
      const left = await adapter.listAuthenticatorsByUserId(user.id)
      assert.deepEqual(left.map((authenticator) => authenticator.credentialID), [kept.credentialID])
    },
  },
  {
    name: "deleteAuthenticator: returns null for an unknown credentialID",
    uses: ["deleteAuthenticator"],
    async run(adapter) {
      assertNothing(await adapter.deleteAuthenticator(randomUUID()), "deleteAuthenticator result")
    },
  },
]
