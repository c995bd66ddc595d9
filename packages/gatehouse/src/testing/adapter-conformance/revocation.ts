/**
 * Conformance tests of what `signOutEverywhere` needs: deleteSessionsByUserId for database
 * sessions, and session versions (getSessionVersion, incrementSessionVersion) for JWT sessions.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { ConformanceCase } from "./case.js"
import { sessionFixture, storedUser } from "./fixtures.js"

/** How many callers revoke one user at once; a read-then-write without atomicity loses this race. */
const RACERS = 20

export const revocationCases: readonly ConformanceCase[] = [
  {
    name: "deleteSessionsByUserId: deletes every session of the user and none of another user's",
    uses: ["deleteSessionsByUserId", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const other = await storedUser(adapter)
      const own = [sessionFixture(user.id), sessionFixture(user.id), sessionFixture(user.id)]
      const kept = sessionFixture(other.id)
      for (const session of [...own, kept]) await adapter.createSession(session)
      await adapter.deleteSessionsByUserId(user.id)
      for (const [i, session] of own.entries()) {
        assert.equal(await adapter.getSessionAndUser(session.sessionToken), null, `session ${i + 1} of the user must be gone`)
      }
      assert.ok(await adapter.getSessionAndUser(kept.sessionToken), "the other user's session must stay")
    },
  },
  {
    name: "deleteSessionsByUserId: resolves for a user without sessions and for an unknown id",
    uses: ["deleteSessionsByUserId", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      await adapter.deleteSessionsByUserId(user.id)
      await adapter.deleteSessionsByUserId(randomUUID())
    },
  },
  {
    name: "getSessionVersion: is 0 for a user whose sessions were never revoked, stored or not",
    uses: ["getSessionVersion", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.equal(await adapter.getSessionVersion(user.id), 0, "a stored user")
      assert.equal(await adapter.getSessionVersion(randomUUID()), 0, "an id no user has")
    },
  },
  {
    name: "incrementSessionVersion: returns 1, 2, 3 for one user, as numbers, and getSessionVersion reads the last",
    uses: ["incrementSessionVersion", "getSessionVersion", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const other = await storedUser(adapter)
      for (const expected of [1, 2, 3]) assert.equal(await adapter.incrementSessionVersion(user.id), expected, `increment ${expected}`)
      assert.equal(await adapter.getSessionVersion(user.id), 3, "the user's version")
      assert.equal(await adapter.getSessionVersion(other.id), 0, "another user's version is their own")
    },
  },
  {
    name: "incrementSessionVersion: takes any user id, also one no stored user has (a credentials user of a JWT app)",
    uses: ["incrementSessionVersion", "getSessionVersion"],
    async run(adapter) {
      const id = `credentials-${randomUUID()}`
      assert.equal(await adapter.incrementSessionVersion(id), 1)
      assert.equal(await adapter.getSessionVersion(id), 1)
    },
  },
  {
    name: `incrementSessionVersion: ${RACERS} concurrent calls for one user get the versions 1 to ${RACERS}, each once`,
    uses: ["incrementSessionVersion", "getSessionVersion", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const versions = await Promise.all(Array.from({ length: RACERS }, () => adapter.incrementSessionVersion(user.id)))
      assert.deepEqual(
        [...versions].sort((a, b) => a - b),
        Array.from({ length: RACERS }, (_, i) => i + 1),
      )
      assert.equal(await adapter.getSessionVersion(user.id), RACERS)
    },
  },
]
