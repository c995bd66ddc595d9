/**
 * Conformance tests of the user methods: createUser, getUser, getUserByEmail, getUserByAccount,
 * updateUser and deleteUser (with its cascade to sessions, accounts and authenticators).
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { assertFields, assertNothing, type ConformanceCase } from "./case.js"
import {
  accountFixture,
  authenticatorFixture,
  secondsFromNow,
  sessionFixture,
  storedUser,
  userFixture,
} from "./fixtures.js"

export const userCases: readonly ConformanceCase[] = [
  {
    name: "createUser: returns the stored user with a string id",
    uses: ["createUser"],
    async run(adapter) {
      const input = userFixture()
      const user = await adapter.createUser(input)
      // The contract lets an adapter replace the id it is given.
      const { id: _id, ...fields } = input
      assert.equal(typeof user.id, "string", "createUser result.id must be a string")
      assert.notEqual(user.id, "", "createUser result.id must not be empty")
      assertFields(user, fields, "createUser result")
    },
  },
  {
    // The contract lets a store assign its own ids (PostgreSQL does, so SERIAL-id databases work);
    // whichever id comes back must be the one the user is found by.
    name: "createUser: the id it returns finds the user",
    uses: ["createUser", "getUser"],
    async run(adapter) {
      const input = userFixture()
      const user = await adapter.createUser(input)
      const { id: _id, ...fields } = input
      assertFields(await adapter.getUser(user.id), { ...fields, id: user.id }, "getUser(createUser result.id)")
    },
  },
  {
    name: "createUser: stores an absent name and image as null",
    uses: ["createUser", "getUser"],
    async run(adapter) {
      const { name: _name, image: _image, ...input } = userFixture()
      const created = await adapter.createUser(input)
      const read = await adapter.getUser(created.id)
      for (const [label, user] of [["createUser result", created], ["getUser result", read]] as const) {
        assert.equal(user?.name, null, `${label}.name must be null when no name was given`)
        assert.equal(user?.image, null, `${label}.image must be null when no image was given`)
      }
    },
  },
  {
    name: "createUser: stores an emailVerified of null as null",
    uses: ["createUser", "getUser"],
    async run(adapter) {
      const user = await storedUser(adapter, { emailVerified: null })
      assert.equal(user.emailVerified, null, "createUser result.emailVerified must be null")
      assert.equal((await adapter.getUser(user.id))?.emailVerified, null, "getUser result.emailVerified must be null")
    },
  },
  {
    name: "getUser: returns null for an unknown id",
    uses: ["getUser"],
    async run(adapter) {
      assert.equal(await adapter.getUser(randomUUID()), null)
    },
  },
  {
    // Ids reach getUser from cookies and tokens; one the store could never have issued (not a
    // number for an integer column, out of range, quoting) is still just "not found".
    name: "getUser: returns null for an id the store could never have issued",
    uses: ["getUser"],
    async run(adapter) {
      for (const id of ["not-a-number", "99999999999999999999999999", "1'; DROP TABLE users; --", ""]) {
        assert.equal(await adapter.getUser(id), null, `getUser(${JSON.stringify(id)}) must be null`)
      }
    },
  },
  {
    name: "getUser: returns the stored user, emailVerified as a Date",
    uses: ["getUser", "createUser"],
    async run(adapter) {
      const input = userFixture()
      const { id } = await adapter.createUser(input)
      assertFields(await adapter.getUser(id), { ...input, id }, "getUser result")
    },
  },
  {
    name: "getUserByEmail: returns null for an unknown email",
    uses: ["getUserByEmail"],
    async run(adapter) {
      assert.equal(await adapter.getUserByEmail(`nobody-${randomUUID()}@example.com`), null)
    },
  },
  {
    name: "getUserByEmail: returns the user with that email",
    uses: ["getUserByEmail", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assertFields(await adapter.getUserByEmail(user.email), user, "getUserByEmail result")
    },
  },
  {
    name: "getUserByAccount: returns null for an unknown account",
    uses: ["getUserByAccount"],
    async run(adapter) {
      assert.equal(await adapter.getUserByAccount({ provider: "github", providerAccountId: randomUUID() }), null)
    },
  },
  {
    name: "getUserByAccount: returns the user who holds the account",
    uses: ["getUserByAccount", "createUser", "linkAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      await adapter.linkAccount(account)
      assertFields(await adapter.getUserByAccount(account), user, "getUserByAccount result")
    },
  },
  {
    name: "getUserByAccount: matches provider and providerAccountId together",
    uses: ["getUserByAccount", "createUser", "linkAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id, { provider: "github" })
      await adapter.linkAccount(account)
      const otherProvider = { provider: "gitlab", providerAccountId: account.providerAccountId }
      assert.equal(await adapter.getUserByAccount(otherProvider), null, "same providerAccountId, other provider")
    },
  },
  {
    name: "updateUser: changes the given fields, keeps the others and persists them",
    uses: ["updateUser", "createUser", "getUser"],
    async run(adapter) {
      const user = await storedUser(adapter, { emailVerified: null })
      const emailVerified = secondsFromNow(0)
      const expected = { ...user, name: "Grace Hopper", emailVerified }
      const updated = await adapter.updateUser({ id: user.id, name: "Grace Hopper", emailVerified })
      assertFields(updated, expected, "updateUser result")
      assertFields(await adapter.getUser(user.id), expected, "getUser after updateUser")
    },
  },
  {
    name: "updateUser: leaves fields given as undefined unchanged",
    uses: ["updateUser", "createUser", "getUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      await adapter.updateUser({ id: user.id, name: "Grace Hopper", image: undefined, emailVerified: undefined })
      assertFields(await adapter.getUser(user.id), { ...user, name: "Grace Hopper" }, "getUser after updateUser")
    },
  },
  {
    name: "updateUser: sets a field given as null to null",
    uses: ["updateUser", "createUser", "getUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      await adapter.updateUser({ id: user.id, image: null, emailVerified: null })
      assertFields(await adapter.getUser(user.id), { ...user, image: null, emailVerified: null }, "getUser after updateUser")
    },
  },
  {
    name: "updateUser: rejects an unknown id",
    uses: ["updateUser"],
    async run(adapter) {
      await assert.rejects(async () => adapter.updateUser({ id: randomUUID(), name: "Nobody" }))
    },
  },
  {
    name: "deleteUser: removes the user and returns it or nothing",
    uses: ["deleteUser", "createUser", "getUser", "getUserByEmail"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const deleted = await adapter.deleteUser(user.id)
      if (deleted != null) assertFields(deleted, user, "deleteUser result")
      assert.equal(await adapter.getUser(user.id), null, "getUser after deleteUser")
      assert.equal(await adapter.getUserByEmail(user.email), null, "getUserByEmail after deleteUser")
    },
  },
  {
    name: "deleteUser: returns null or nothing for an unknown id",
    uses: ["deleteUser"],
    async run(adapter) {
      assertNothing(await adapter.deleteUser(randomUUID()), "deleteUser result")
    },
  },
  {
    name: "deleteUser: removes the user's sessions",
    uses: ["deleteUser", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = await adapter.createSession(sessionFixture(user.id))
      await adapter.deleteUser(user.id)
      assert.equal(await adapter.getSessionAndUser(session.sessionToken), null, "getSessionAndUser after deleteUser")
    },
  },
  {
    name: "deleteUser: removes the user's accounts",
    uses: ["deleteUser", "createUser", "linkAccount", "getUserByAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      await adapter.linkAccount(account)
      await adapter.deleteUser(user.id)
      assert.equal(await adapter.getUserByAccount(account), null, "getUserByAccount after deleteUser")
    },
  },
  {
    name: "deleteUser: removes the user's accounts, also as seen by getAccount",
    uses: ["deleteUser", "createUser", "linkAccount", "getAccount"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const account = accountFixture(user.id)
      await adapter.linkAccount(account)
      await adapter.deleteUser(user.id)
      assert.equal(await adapter.getAccount(account.providerAccountId, account.provider), null, "getAccount after deleteUser")
    },
  },
  {
    name: "deleteUser: removes the user's authenticators",
    uses: ["deleteUser", "createUser", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const authenticator = await adapter.createAuthenticator(authenticatorFixture(user.id))
      await adapter.deleteUser(user.id)
      assert.equal(await adapter.getAuthenticator(authenticator.credentialID), null, "getAuthenticator after deleteUser")
      assert.deepEqual(await adapter.listAuthenticatorsByUserId(user.id), [], "listAuthenticatorsByUserId after deleteUser")
    },
  },
  {
    name: "deleteUser: leaves other users and what they hold alone",
    uses: ["deleteUser", "createUser", "getUser", "createSession", "getSessionAndUser", "linkAccount", "getUserByAccount"],
    async run(adapter) {
      const doomed = await storedUser(adapter)
      const kept = await storedUser(adapter)
      await adapter.createSession(sessionFixture(doomed.id))
      const session = await adapter.createSession(sessionFixture(kept.id))
      const account = accountFixture(kept.id)
      await adapter.linkAccount(account)
      await adapter.deleteUser(doomed.id)
      assertFields(await adapter.getUser(kept.id), kept, "getUser(other user)")
      assertFields((await adapter.getSessionAndUser(session.sessionToken))?.session, session, "other user's session")
      assertFields(await adapter.getUserByAccount(account), kept, "getUserByAccount(other user's account)")
    },
  },
]
