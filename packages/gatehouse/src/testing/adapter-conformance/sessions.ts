/**
 * Conformance tests of the database-session methods: createSession, getSessionAndUser,
 * updateSession and deleteSession.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { assertFields, assertNothing, type ConformanceCase } from "./case.js"
import { secondsFromNow, sessionFixture, storedUser } from "./fixtures.js"

export const sessionCases: readonly ConformanceCase[] = [
  {
    name: "createSession: returns the session, expires as a Date",
    uses: ["createSession", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      assertFields(await adapter.createSession(session), session, "createSession result")
    },
  },
  {
    name: "createSession: rejects a sessionToken already in use",
    uses: ["createSession", "createUser", "getSessionAndUser"],
    async run(adapter) {
      const owner = await storedUser(adapter)
      const intruder = await storedUser(adapter)
      const session = await adapter.createSession(sessionFixture(owner.id))
      await assert.rejects(async () => adapter.createSession(sessionFixture(intruder.id, { sessionToken: session.sessionToken })))
      const found = await adapter.getSessionAndUser(session.sessionToken)
      assertFields(found?.user, owner, "getSessionAndUser after the rejected createSession: user")
    },
  },
  {
    name: "getSessionAndUser: returns null for an unknown sessionToken",
    uses: ["getSessionAndUser"],
    async run(adapter) {
      assert.equal(await adapter.getSessionAndUser(randomUUID()), null)
    },
  },
  {
    name: "getSessionAndUser: returns the session and its user",
    uses: ["getSessionAndUser", "createUser", "createSession"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = sessionFixture(user.id)
      await adapter.createSession(session)
      const found = await adapter.getSessionAndUser(session.sessionToken)
      assert.ok(found, "getSessionAndUser must find the session just created")
      assertFields(found.session, session, "getSessionAndUser result.session")
      assertFields(found.user, user, "getSessionAndUser result.user")
    },
  },
  {
    name: "getSessionAndUser: returns the session row's id where createSession returned one",
    uses: ["getSessionAndUser", "createUser", "createSession"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const created = await adapter.createSession(sessionFixture(user.id))
      const found = await adapter.getSessionAndUser(created.sessionToken)
      if (created.id !== undefined) assert.equal(found?.session.id, created.id, "getSessionAndUser result.session.id")
    },
  },
  {
    name: "updateSession: changes expires, keeps userId and persists it",
    uses: ["updateSession", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = await adapter.createSession(sessionFixture(user.id, { expires: secondsFromNow(60) }))
      const expected = { ...session, expires: secondsFromNow(30 * 24 * 60 * 60) }
      const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires: expected.expires })
      if (updated != null) assertFields(updated, expected, "updateSession result")
      assertFields((await adapter.getSessionAndUser(session.sessionToken))?.session, expected, "session after updateSession")
    },
  },
  {
    name: "updateSession: leaves fields given as undefined unchanged",
    uses: ["updateSession", "createUser", "createSession", "getSessionAndUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = await adapter.createSession(sessionFixture(user.id))
      await adapter.updateSession({ sessionToken: session.sessionToken, expires: undefined, userId: undefined })
      assertFields((await adapter.getSessionAndUser(session.sessionToken))?.session, session, "session after updateSession")
    },
  },
  {
    name: "updateSession: returns null or nothing for an unknown sessionToken and creates nothing",
    uses: ["updateSession", "getSessionAndUser"],
    async run(adapter) {
      const sessionToken = randomUUID()
      assertNothing(await adapter.updateSession({ sessionToken, expires: secondsFromNow(60) }), "updateSession result")
      assert.equal(await adapter.getSessionAndUser(sessionToken), null, "getSessionAndUser after updateSession")
    },
  },
  {
    name: "deleteSession: removes the session, keeps the user and returns the session or nothing",
    uses: ["deleteSession", "createUser", "createSession", "getSessionAndUser", "getUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const session = await adapter.createSession(sessionFixture(user.id))
      const deleted = await adapter.deleteSession(session.sessionToken)
      if (deleted != null) assertFields(deleted, session, "deleteSession result")
      assert.equal(await adapter.getSessionAndUser(session.sessionToken), null, "getSessionAndUser after deleteSession")
      assertFields(await adapter.getUser(user.id), user, "getUser after deleteSession")
    },
  },
  {
    name: "deleteSession: returns null or nothing for an unknown sessionToken",
    uses: ["deleteSession"],
    async run(adapter) {
      assertNothing(await adapter.deleteSession(randomUUID()), "deleteSession result")
    },
  },
]
