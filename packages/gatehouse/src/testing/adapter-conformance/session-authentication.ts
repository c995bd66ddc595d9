/**
 * Conformance tests of how a database session was authenticated (its assurance level, `amr` and
 * when a second factor was last checked), stored beside the row: createSessionDetails stores it,
 * getSessionAndUser returns it in the same read, updateSessionAuthentication changes it (step-up),
 * and it goes with its session. Only for adapters with updateSessionAuthentication: one without
 * records nothing, and every session reads as one factor.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { AdapterSessionAuthentication, AdapterSessionDetails } from "../../adapters/index.js"
import { assertNothing, assertSameDate, type ConformanceCase } from "./case.js"
import { secondsFromNow, sessionFixture, storedUser } from "./fixtures.js"

function detailsFixture(fields: Partial<AdapterSessionDetails> = {}): AdapterSessionDetails {
  return { createdAt: secondsFromNow(-60), userAgent: `Mozilla/5.0 test ${randomUUID()}`, idpProvider: null, idpSid: null, ...fields }
}

/** `actual` is the authentication `expected` describes, its date compared by time. */
function assertAuthentication(actual: unknown, expected: AdapterSessionAuthentication, label: string): void {
  assert.ok(typeof actual === "object" && actual !== null, `${label} must be an object, got ${String(actual)}`)
  const { aal, amr, secondFactorAt } = actual as AdapterSessionAuthentication
  assert.equal(aal, expected.aal, `${label}.aal`)
  assert.deepEqual(amr, expected.amr, `${label}.amr`)
  if (expected.secondFactorAt === null) assert.equal(secondFactorAt, null, `${label}.secondFactorAt`)
  else assertSameDate(secondFactorAt, expected.secondFactorAt, `${label}.secondFactorAt`)
}

export const sessionAuthenticationCases: readonly ConformanceCase[] = [
  {
    name: "updateSessionAuthentication: changes how the session was authenticated, as getSessionAndUser returns it",
    uses: ["updateSessionAuthentication", "createUser", "createSession", "createSessionDetails", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      await adapter.createSessionDetails(session.sessionToken, detailsFixture({ aal: 1, amr: ["pwd"], secondFactorAt: null }))
      const raised = { aal: 2 as const, amr: ["pwd", "otp", "mfa"], secondFactorAt: secondsFromNow(-5) }
      assert.equal(await adapter.updateSessionAuthentication(session.sessionToken, raised), true)
      const found = await adapter.getSessionAndUser(session.sessionToken)
      assertAuthentication(found?.session.authentication, raised, "getSessionAndUser after the step-up: session.authentication")
      assert.equal(found?.user.id, user.id)
      assertSameDate(found?.session.expires, session.expires, "the row's expires is untouched")
    },
  },
  {
    name: "updateSessionAuthentication: works on a session stored without details (one made before the upgrade)",
    uses: ["updateSessionAuthentication", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      assertNothing((await adapter.getSessionAndUser(session.sessionToken))?.session.authentication, "nothing recorded yet")
      const raised = { aal: 2 as const, amr: ["otp", "mfa"], secondFactorAt: secondsFromNow(-1) }
      assert.equal(await adapter.updateSessionAuthentication(session.sessionToken, raised), true)
      assertAuthentication((await adapter.getSessionAndUser(session.sessionToken))?.session.authentication, raised, "after the step-up")
    },
  },
  {
    name: "updateSessionAuthentication: returns false for an unknown session and stores nothing for it",
    uses: ["updateSessionAuthentication", "getSessionAndUser"],
    async run(adapter) {
      const token = `sha256:${randomUUID()}`
      assert.equal(await adapter.updateSessionAuthentication(token, { aal: 2, amr: ["otp"], secondFactorAt: new Date() }), false)
      assert.equal(await adapter.getSessionAndUser(token), null)
    },
  },
  {
    name: "updateSessionAuthentication: rejects an aal other than 1, 2 or null and amr values with spaces",
    uses: ["updateSessionAuthentication", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      const bad = [
        { aal: 3 as unknown as 2, amr: ["pwd"], secondFactorAt: null },
        { aal: "2" as unknown as 2, amr: ["pwd"], secondFactorAt: null },
        { aal: 2 as const, amr: ["pwd otp"], secondFactorAt: null },
        { aal: 2 as const, amr: "pwd" as unknown as string[], secondFactorAt: null },
        { aal: 2 as const, amr: ["otp"], secondFactorAt: new Date(Number.NaN) },
      ]
      for (const authentication of bad) {
        await assert.rejects(async () => adapter.updateSessionAuthentication(session.sessionToken, authentication), JSON.stringify(authentication))
      }
      assertNothing((await adapter.getSessionAndUser(session.sessionToken))?.session.authentication, "nothing stored")
    },
  },
  {
    name: "updateSessionAuthentication: what createSessionDetails recorded is returned by getSessionAndUser and listSessionsByUserId",
    uses: ["updateSessionAuthentication", "createUser", "createSession", "createSessionDetails", "getSessionAndUser", "listSessionsByUserId"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const recorded = sessionFixture(user.id)
      const plain = sessionFixture(user.id)
      const empty = sessionFixture(user.id)
      for (const session of [recorded, plain, empty]) await adapter.createSession(session)
      const authentication = { aal: 2 as const, amr: ["hwk", "user", "mfa"], secondFactorAt: secondsFromNow(-30) }
      await adapter.createSessionDetails(recorded.sessionToken, detailsFixture(authentication))
      await adapter.createSessionDetails(plain.sessionToken, detailsFixture({ aal: 1, amr: [], secondFactorAt: null }))
      // A caller that records no authentication (details as before two-factor sign-in).
      await adapter.createSessionDetails(empty.sessionToken, detailsFixture())

      assertAuthentication((await adapter.getSessionAndUser(recorded.sessionToken))?.session.authentication, authentication, "getSessionAndUser")
      assertAuthentication((await adapter.getSessionAndUser(plain.sessionToken))?.session.authentication, { aal: 1, amr: [], secondFactorAt: null }, "an empty amr stays []")
      assertNothing((await adapter.getSessionAndUser(empty.sessionToken))?.session.authentication, "none recorded")

      const listed = await adapter.listSessionsByUserId(user.id)
      const details = listed.find((row) => row.sessionToken === recorded.sessionToken)?.details
      assert.ok(details, "listed with its details")
      assertAuthentication(details, authentication, "listSessionsByUserId: details")
      const bare = listed.find((row) => row.sessionToken === empty.sessionToken)?.details
      assert.ok(bare, "listed with its details")
      assert.equal(bare.aal ?? null, null, "no aal recorded")

      // A step-up shows in the listing too.
      const raised = { aal: 2 as const, amr: ["pwd", "otp", "mfa"], secondFactorAt: secondsFromNow(-1) }
      assert.equal(await adapter.updateSessionAuthentication(plain.sessionToken, raised), true)
      const after = (await adapter.listSessionsByUserId(user.id)).find((row) => row.sessionToken === plain.sessionToken)?.details
      assertAuthentication(after, raised, "listSessionsByUserId after the step-up")
    },
  },
  {
    name: "updateSessionAuthentication: the authentication goes with its session, also when the token is used again",
    uses: ["updateSessionAuthentication", "createUser", "createSession", "getSessionAndUser", "deleteSession"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      assert.equal(await adapter.updateSessionAuthentication(session.sessionToken, { aal: 2, amr: ["otp"], secondFactorAt: secondsFromNow(-1) }), true)
      await adapter.deleteSession(session.sessionToken)
      assert.equal(await adapter.updateSessionAuthentication(session.sessionToken, { aal: 2, amr: ["otp"], secondFactorAt: null }), false, "a deleted session")
      // A new row under the same token must not inherit the old one's second factor.
      await adapter.createSession(session)
      assertNothing((await adapter.getSessionAndUser(session.sessionToken))?.session.authentication, "a new session under the old token")
    },
  },
]
