/**
 * Conformance tests of what the account routes and back-channel logout need of a database
 * session: createSessionDetails, listSessionsByUserId and deleteSessionsByIdpSid.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { AdapterSessionDetails } from "../../adapters/index.js"
import { assertSameDate, type ConformanceCase } from "./case.js"
import { secondsFromNow, sessionFixture, storedUser } from "./fixtures.js"

function detailsFixture(fields: Partial<AdapterSessionDetails> = {}): AdapterSessionDetails {
  return { createdAt: secondsFromNow(-60), userAgent: `Mozilla/5.0 test ${randomUUID()}`, idpProvider: null, idpSid: null, ...fields }
}

export const sessionDetailCases: readonly ConformanceCase[] = [
  {
    name: "listSessionsByUserId: returns every session of the user with its id and details, and none of another user's",
    uses: ["listSessionsByUserId", "createSessionDetails", "createUser", "createSession"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const other = await storedUser(adapter)
      const detailed = sessionFixture(user.id)
      const bare = sessionFixture(user.id)
      const details = detailsFixture({ idpProvider: "oidc", idpSid: randomUUID() })
      const created = await adapter.createSession(detailed)
      await adapter.createSession(bare)
      await adapter.createSession(sessionFixture(other.id))
      await adapter.createSessionDetails(detailed.sessionToken, details)

      const listed = await adapter.listSessionsByUserId(user.id)
      assert.equal(listed.length, 2, "the user's two sessions")
      const ids = new Set(listed.map((row) => row.id))
      assert.equal(ids.size, 2, "each session has its own id")
      for (const row of listed) {
        assert.equal(typeof row.id, "string", "listSessionsByUserId: id is a string")
        assert.equal(row.userId, user.id)
      }
      const first = listed.find((row) => row.sessionToken === detailed.sessionToken)
      assert.ok(first, "the detailed session is listed")
      if (created.id !== undefined) assert.equal(first.id, created.id, "the id createSession returned")
      assertSameDate(first.expires, detailed.expires, "listSessionsByUserId: expires")
      assert.ok(first.details, "the details stored for it")
      assertSameDate(first.details.createdAt, details.createdAt, "details.createdAt")
      assert.equal(first.details.userAgent, details.userAgent)
      assert.equal(first.details.idpProvider, "oidc")
      assert.equal(first.details.idpSid, details.idpSid)
      assert.equal(listed.find((row) => row.sessionToken === bare.sessionToken)?.details, null, "no details for a session without")
      assert.deepEqual(await adapter.listSessionsByUserId(randomUUID()), [], "an unknown user has none")
    },
  },
  {
    name: "createSessionDetails: rejects details for a session that does not exist",
    uses: ["createSessionDetails"],
    async run(adapter) {
      await assert.rejects(async () => adapter.createSessionDetails(`sha256:${randomUUID()}`, detailsFixture()))
    },
  },
  {
    name: "deleteSessionsByIdpSid: deletes the sessions of that provider session only, and returns each one's user id",
    uses: ["deleteSessionsByIdpSid", "createSessionDetails", "createUser", "createSession", "getSessionAndUser", "deleteSession"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const sid = randomUUID()
      const ended = [sessionFixture(user.id), sessionFixture(user.id)]
      const otherSid = sessionFixture(user.id)
      const otherProvider = sessionFixture(user.id)
      for (const session of [...ended, otherSid, otherProvider]) await adapter.createSession(session)
      for (const session of ended) await adapter.createSessionDetails(session.sessionToken, detailsFixture({ idpProvider: "oidc", idpSid: sid }))
      await adapter.createSessionDetails(otherSid.sessionToken, detailsFixture({ idpProvider: "oidc", idpSid: randomUUID() }))
      await adapter.createSessionDetails(otherProvider.sessionToken, detailsFixture({ idpProvider: "other", idpSid: sid }))

      assert.deepEqual(await adapter.deleteSessionsByIdpSid("oidc", sid), [user.id, user.id], "two sessions of that provider session, by their user")
      for (const session of ended) assert.equal(await adapter.getSessionAndUser(session.sessionToken), null, "ended")
      assert.ok(await adapter.getSessionAndUser(otherSid.sessionToken), "another provider session stays")
      assert.ok(await adapter.getSessionAndUser(otherProvider.sessionToken), "the same sid at another provider stays")
      assert.deepEqual(await adapter.deleteSessionsByIdpSid("oidc", sid), [], "nothing left to end")

      // Details go with their row: a deleted session is not ended again, nor listed.
      await adapter.deleteSession(otherSid.sessionToken)
      assert.deepEqual(await adapter.deleteSessionsByIdpSid("oidc", randomUUID()), [])
    },
  },
]
