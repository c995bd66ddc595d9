/**
 * Conformance tests of the email sign-in token methods: createVerificationToken,
 * useVerificationToken, which must hand a token out once, even to concurrent callers, and
 * deleteVerificationTokens.
 * @module
 */
import assert from "node:assert/strict"
import { assertFields, type ConformanceCase } from "./case.js"
import { secondsFromNow, verificationTokenFixture } from "./fixtures.js"

/** How many callers race for one token; a read-then-delete without atomicity loses this race. */
const RACERS = 50

export const verificationTokenCases: readonly ConformanceCase[] = [
  {
    name: "createVerificationToken: returns the token or nothing",
    uses: ["createVerificationToken"],
    async run(adapter) {
      const token = verificationTokenFixture()
      const created = await adapter.createVerificationToken(token)
      if (created != null) assertFields(created, token, "createVerificationToken result")
    },
  },
  {
    name: "useVerificationToken: returns the token, expires as a Date",
    uses: ["useVerificationToken", "createVerificationToken"],
    async run(adapter) {
      const token = verificationTokenFixture()
      await adapter.createVerificationToken(token)
      assertFields(await adapter.useVerificationToken(token), token, "useVerificationToken result")
    },
  },
  {
    name: "useVerificationToken: a token works once",
    uses: ["useVerificationToken", "createVerificationToken"],
    async run(adapter) {
      const token = verificationTokenFixture()
      await adapter.createVerificationToken(token)
      assert.ok(await adapter.useVerificationToken(token), "the first use must return the token")
      assert.equal(await adapter.useVerificationToken(token), null, "the second use must return null")
    },
  },
  {
    name: "useVerificationToken: returns null for a wrong identifier and keeps the token",
    uses: ["useVerificationToken", "createVerificationToken"],
    async run(adapter) {
      const token = verificationTokenFixture()
      await adapter.createVerificationToken(token)
      const wrong = { identifier: `someone-else-${token.identifier}`, token: token.token }
      assert.equal(await adapter.useVerificationToken(wrong), null, "a wrong identifier must return null")
      assertFields(await adapter.useVerificationToken(token), token, "the right identifier afterwards")
    },
  },
  {
    name: "useVerificationToken: returns null for an unknown token",
    uses: ["useVerificationToken"],
    async run(adapter) {
      assert.equal(await adapter.useVerificationToken(verificationTokenFixture()), null)
    },
  },
  {
    name: "useVerificationToken: returns an expired token (the core checks expiry)",
    uses: ["useVerificationToken", "createVerificationToken"],
    async run(adapter) {
      const token = verificationTokenFixture({ expires: secondsFromNow(-60) })
      await adapter.createVerificationToken(token)
      assertFields(await adapter.useVerificationToken(token), token, "useVerificationToken result")
    },
  },
  {
    name: "useVerificationToken: leaves other tokens of the same identifier",
    uses: ["useVerificationToken", "createVerificationToken"],
    async run(adapter) {
      const first = verificationTokenFixture()
      const second = verificationTokenFixture({ identifier: first.identifier })
      await adapter.createVerificationToken(first)
      await adapter.createVerificationToken(second)
      await adapter.useVerificationToken(first)
      assertFields(await adapter.useVerificationToken(second), second, "the other token")
    },
  },
  {
    name: `useVerificationToken: of ${RACERS} concurrent uses of one token exactly one gets it`,
    uses: ["useVerificationToken", "createVerificationToken"],
    async run(adapter) {
      const token = verificationTokenFixture()
      await adapter.createVerificationToken(token)
      const results = await Promise.all(
        Array.from({ length: RACERS }, () => adapter.useVerificationToken({ identifier: token.identifier, token: token.token })),
      )
      const winners = results.filter((result) => result !== null)
      assert.equal(winners.length, 1, `${winners.length} of ${RACERS} concurrent uses got the token`)
      assertFields(winners[0], token, "the one use that got the token")
    },
  },
  {
    name: "deleteVerificationTokens: deletes every token of the identifier, and only those, returning how many",
    uses: ["deleteVerificationTokens", "createVerificationToken", "useVerificationToken"],
    async run(adapter) {
      const first = verificationTokenFixture()
      const second = verificationTokenFixture({ identifier: first.identifier })
      const other = verificationTokenFixture()
      for (const token of [first, second, other]) await adapter.createVerificationToken(token)
      assert.equal(await adapter.deleteVerificationTokens(first.identifier), 2)
      assert.equal(await adapter.useVerificationToken(first), null, "a deleted token must not be usable")
      assert.equal(await adapter.useVerificationToken(second), null, "a deleted token must not be usable")
      assertFields(await adapter.useVerificationToken(other), other, "another identifier's token")
      assert.equal(await adapter.deleteVerificationTokens(first.identifier), 0)
    },
  },
]
