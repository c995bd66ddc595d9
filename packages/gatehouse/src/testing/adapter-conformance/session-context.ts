/**
 * Conformance tests of a database session's context (its active organization, the admin
 * impersonating its user, the provider it signed in with), stored beside the row:
 * setSessionContext changes only the fields it names, getSessionAndUser returns it in the same
 * read, and it goes with its session. Only for adapters with setSessionContext: one without
 * records nothing, and organizations and impersonation refuse to run on database sessions.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { AdapterSessionContext } from "../../adapters/index.js"
import { assertNothing, assertSameDate, type ConformanceCase } from "./case.js"
import { sessionFixture, storedUser } from "./fixtures.js"

/** `actual` is exactly the context `expected` describes. */
function assertContext(actual: unknown, expected: AdapterSessionContext, label: string): void {
  assert.ok(typeof actual === "object" && actual !== null, `${label} must be an object, got ${String(actual)}`)
  const { activeOrganizationId, impersonatorId, signInProvider } = actual as AdapterSessionContext
  assert.deepEqual({ activeOrganizationId, impersonatorId, signInProvider }, expected, label)
}

export const sessionContextCases: readonly ConformanceCase[] = [
  {
    name: "setSessionContext: stores the context getSessionAndUser returns, changing only the fields named",
    uses: ["setSessionContext", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      assertNothing((await adapter.getSessionAndUser(session.sessionToken))?.session.context, "nothing stored yet")

      const organizationId = randomUUID()
      assert.equal(await adapter.setSessionContext(session.sessionToken, { signInProvider: "github" }), true)
      assertContext((await adapter.getSessionAndUser(session.sessionToken))?.session.context, { activeOrganizationId: null, impersonatorId: null, signInProvider: "github" }, "after the first write")

      assert.equal(await adapter.setSessionContext(session.sessionToken, { activeOrganizationId: organizationId }), true)
      const found = await adapter.getSessionAndUser(session.sessionToken)
      assertContext(found?.session.context, { activeOrganizationId: organizationId, impersonatorId: null, signInProvider: "github" }, "the provider kept")
      assert.equal(found?.user.id, user.id)
      assertSameDate(found?.session.expires, session.expires, "the row's expires is untouched")

      assert.equal(await adapter.setSessionContext(session.sessionToken, { activeOrganizationId: null, impersonatorId: "admin-1" }), true)
      assertContext((await adapter.getSessionAndUser(session.sessionToken))?.session.context, { activeOrganizationId: null, impersonatorId: "admin-1", signInProvider: "github" }, "null clears a field")
    },
  },
  {
    name: "setSessionContext: returns false for an unknown session and stores nothing for it",
    uses: ["setSessionContext", "getSessionAndUser"],
    async run(adapter) {
      const token = `sha256:${randomUUID()}`
      assert.equal(await adapter.setSessionContext(token, { activeOrganizationId: randomUUID() }), false)
      assert.equal(await adapter.getSessionAndUser(token), null)
    },
  },
  {
    name: "setSessionContext: rejects values other than a non-empty string or null",
    uses: ["setSessionContext", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      const bad = [{ activeOrganizationId: 42 }, { impersonatorId: "" }, { signInProvider: { id: "github" } }] as unknown as Partial<AdapterSessionContext>[]
      for (const patch of bad) {
        await assert.rejects(async () => adapter.setSessionContext(session.sessionToken, patch), JSON.stringify(patch))
      }
      assertNothing((await adapter.getSessionAndUser(session.sessionToken))?.session.context, "nothing stored")
    },
  },
  {
    name: "setSessionContext: each session has its own context",
    uses: ["setSessionContext", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const first = sessionFixture(user.id)
      const second = sessionFixture(user.id)
      await adapter.createSession(first)
      await adapter.createSession(second)
      const organizationId = randomUUID()
      assert.equal(await adapter.setSessionContext(first.sessionToken, { activeOrganizationId: organizationId }), true)
      assertContext((await adapter.getSessionAndUser(first.sessionToken))?.session.context, { activeOrganizationId: organizationId, impersonatorId: null, signInProvider: null }, "the session changed")
      assertNothing((await adapter.getSessionAndUser(second.sessionToken))?.session.context, "the user's other session")
    },
  },
  {
    name: "setSessionContext: the context goes with its session, also when the token is used again",
    uses: ["setSessionContext", "createUser", "createSession", "getSessionAndUser", "deleteSession"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      assert.equal(await adapter.setSessionContext(session.sessionToken, { impersonatorId: "admin-1", activeOrganizationId: randomUUID() }), true)
      await adapter.deleteSession(session.sessionToken)
      assert.equal(await adapter.setSessionContext(session.sessionToken, { signInProvider: "github" }), false, "a deleted session")
      // A new row under the same token must not inherit the old one's impersonation.
      await adapter.createSession(session)
      assertNothing((await adapter.getSessionAndUser(session.sessionToken))?.session.context, "a new session under the old token")
    },
  },
  {
    name: "setSessionContext: the context goes when the user's sessions are deleted",
    uses: ["setSessionContext", "createUser", "createSession", "getSessionAndUser", "deleteSessionsByUserId"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      assert.equal(await adapter.setSessionContext(session.sessionToken, { impersonatorId: "admin-1" }), true)
      await adapter.deleteSessionsByUserId(user.id)
      assert.equal(await adapter.getSessionAndUser(session.sessionToken), null)
      await adapter.createSession(session)
      assertNothing((await adapter.getSessionAndUser(session.sessionToken))?.session.context, "a new session under the old token")
    },
  },
]
