/**
 * Conformance tests of the second-factor methods two-factor sign-in needs: getTwoFactor,
 * setTotpPendingSecret, enableTotp, useTotpStep, updateTotpSecret, replaceRecoveryCodes,
 * useRecoveryCode, incrementTwoFactorTrustVersion and deleteTwoFactor. The single-use ones are
 * also raced: a store that reads and then writes lets a code through twice.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { AdapterUser } from "../../adapters/index.js"
import type { ConformanceCase, FullAdapter } from "./case.js"
import { storedUser } from "./fixtures.js"

/** How many callers race for one step, code or secret; a read-then-write without atomicity loses. */
const RACERS = 20

/** A stand-in for a sealed secret: any opaque string. */
const sealedSecret = (): string => `sealed.${randomUUID()}`
/** Stand-ins for recovery-code hashes. */
const codeHashes = (count: number): string[] => Array.from({ length: count }, () => `hash-${randomUUID()}`)
/** A time step near today's (30 s steps since the epoch). */
const currentStep = (): number => Math.floor(Date.now() / 30_000)

/** A stored user with TOTP enabled at `step`, and the recovery codes it got. */
async function enrolledUser(adapter: FullAdapter, step = currentStep()): Promise<{ user: AdapterUser; sealed: string; hashes: string[] }> {
  const user = await storedUser(adapter)
  const sealed = sealedSecret()
  const hashes = codeHashes(3)
  await adapter.setTotpPendingSecret(user.id, sealed)
  assert.equal(await adapter.enableTotp(user.id, { sealed, step, recoveryCodeHashes: hashes }), true, "enableTotp of the pending secret")
  return { user, sealed, hashes }
}

/** How many of the results are `true`. */
const winners = (results: boolean[]): number => results.filter((result) => result === true).length

export const twoFactorCases: readonly ConformanceCase[] = [
  {
    name: "getTwoFactor: returns null for a user without second factors and for an unknown id",
    uses: ["getTwoFactor", "createUser"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.equal(await adapter.getTwoFactor(user.id), null, "a stored user who never enrolled")
      assert.equal(await adapter.getTwoFactor(randomUUID()), null, "an unknown id")
    },
  },
  {
    name: "setTotpPendingSecret: stores a pending secret, which does not enable the second factor",
    uses: ["setTotpPendingSecret", "createUser", "getTwoFactor"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const first = sealedSecret()
      await adapter.setTotpPendingSecret(user.id, first)
      assert.deepEqual(await adapter.getTwoFactor(user.id), {
        userId: user.id,
        totpSecret: null,
        totpPendingSecret: first,
        totpLastStep: null,
        enabledAt: null,
        trustVersion: 0,
        recoveryCodesLeft: 0,
      })
      const second = sealedSecret()
      await adapter.setTotpPendingSecret(user.id, second)
      assert.equal((await adapter.getTwoFactor(user.id))?.totpPendingSecret, second, "a new enrolment replaces the pending secret")
    },
  },
  {
    name: "setTotpPendingSecret: rejects an unknown user",
    uses: ["setTotpPendingSecret"],
    async run(adapter) {
      await assert.rejects(async () => adapter.setTotpPendingSecret(randomUUID(), sealedSecret()))
    },
  },
  {
    name: "setTotpPendingSecret: leaves an enabled secret in use until a new one is enabled",
    uses: ["setTotpPendingSecret", "createUser", "enableTotp", "getTwoFactor"],
    async run(adapter) {
      const { user, sealed } = await enrolledUser(adapter)
      const next = sealedSecret()
      await adapter.setTotpPendingSecret(user.id, next)
      const pending = await adapter.getTwoFactor(user.id)
      assert.equal(pending?.totpSecret, sealed, "the enabled secret stays")
      assert.equal(pending?.totpPendingSecret, next)
      assert.ok(pending?.enabledAt instanceof Date, "still enabled")
      assert.equal(await adapter.enableTotp(user.id, { sealed: next, step: currentStep() + 5, recoveryCodeHashes: codeHashes(2) }), true)
      const replaced = await adapter.getTwoFactor(user.id)
      assert.equal(replaced?.totpSecret, next)
      assert.equal(replaced?.totpPendingSecret, null)
    },
  },
  {
    name: "enableTotp: enables the pending secret with its step, now as enabledAt, and the recovery codes",
    uses: ["enableTotp", "createUser", "setTotpPendingSecret", "getTwoFactor"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const sealed = sealedSecret()
      const step = currentStep()
      await adapter.setTotpPendingSecret(user.id, sealed)
      const before = Date.now()
      assert.equal(await adapter.enableTotp(user.id, { sealed, step, recoveryCodeHashes: codeHashes(10) }), true)
      const after = Date.now()
      const stored = await adapter.getTwoFactor(user.id)
      assert.ok(stored, "a row after enableTotp")
      assert.equal(stored.userId, user.id)
      assert.equal(stored.totpSecret, sealed)
      assert.equal(stored.totpPendingSecret, null, "the pending secret is cleared")
      assert.equal(stored.totpLastStep, step, "the confirming code's step counts as used (a number)")
      assert.ok(stored.enabledAt instanceof Date, "enabledAt is a Date")
      // Stores may keep seconds: a second either side.
      assert.ok(stored.enabledAt.getTime() >= before - 1000 && stored.enabledAt.getTime() <= after + 1000, "enabledAt is now")
      assert.equal(stored.trustVersion, 1, "the trust version goes up by one")
      assert.equal(stored.recoveryCodesLeft, 10)
    },
  },
  {
    name: "enableTotp: refuses a pending secret that changed, or none, and changes nothing",
    uses: ["enableTotp", "createUser", "setTotpPendingSecret", "getTwoFactor"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const first = sealedSecret()
      const second = sealedSecret()
      await adapter.setTotpPendingSecret(user.id, first)
      await adapter.setTotpPendingSecret(user.id, second)
      const before = await adapter.getTwoFactor(user.id)
      assert.equal(await adapter.enableTotp(user.id, { sealed: first, step: currentStep(), recoveryCodeHashes: codeHashes(3) }), false, "an older pending secret")
      assert.deepEqual(await adapter.getTwoFactor(user.id), before, "nothing changed")

      const never = await storedUser(adapter)
      assert.equal(await adapter.enableTotp(never.id, { sealed: first, step: currentStep(), recoveryCodeHashes: [] }), false, "no enrolment started")
      assert.equal(await adapter.getTwoFactor(never.id), null)
      assert.equal(await adapter.enableTotp(randomUUID(), { sealed: first, step: currentStep(), recoveryCodeHashes: [] }), false, "an unknown id")
    },
  },
  {
    name: "enableTotp: of concurrent confirmations of one pending secret exactly one enables it",
    uses: ["enableTotp", "createUser", "setTotpPendingSecret", "getTwoFactor"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const sealed = sealedSecret()
      await adapter.setTotpPendingSecret(user.id, sealed)
      const base = currentStep()
      const sets = Array.from({ length: RACERS }, () => codeHashes(2))
      const results = await Promise.all(sets.map((hashes, i) => adapter.enableTotp(user.id, { sealed, step: base + i, recoveryCodeHashes: hashes })))
      assert.equal(winners(results), 1, "one confirmation enables")
      const stored = await adapter.getTwoFactor(user.id)
      const winner = results.indexOf(true)
      assert.equal(stored?.totpLastStep, base + winner, "the winner's step")
      assert.equal(stored?.recoveryCodesLeft, 2, "the winner's codes only")
      assert.equal(stored?.trustVersion, 1)
    },
  },
  {
    name: "useTotpStep: accepts a later step once, then refuses it and every earlier one",
    uses: ["useTotpStep", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor"],
    async run(adapter) {
      const step = currentStep()
      const { user } = await enrolledUser(adapter, step)
      assert.equal(await adapter.useTotpStep(user.id, step), false, "the confirming code's step is used already")
      assert.equal(await adapter.useTotpStep(user.id, step - 1), false, "an earlier step")
      assert.equal(await adapter.useTotpStep(user.id, step + 1), true, "the next step")
      assert.equal((await adapter.getTwoFactor(user.id))?.totpLastStep, step + 1)
      assert.equal(await adapter.useTotpStep(user.id, step + 1), false, "the same step again (replay)")
      assert.equal(await adapter.useTotpStep(user.id, step), false, "the step before it")
      assert.equal(await adapter.useTotpStep(user.id, step + 3), true, "a step further on")
    },
  },
  {
    name: "useTotpStep: of concurrent uses of one step exactly one succeeds",
    uses: ["useTotpStep", "createUser", "setTotpPendingSecret", "enableTotp"],
    async run(adapter) {
      const step = currentStep()
      const { user } = await enrolledUser(adapter, step - 1)
      const results = await Promise.all(Array.from({ length: RACERS }, () => adapter.useTotpStep(user.id, step)))
      assert.equal(winners(results), 1, `one of ${RACERS} concurrent uses of a step`)
    },
  },
  {
    name: "useTotpStep: returns false for a user without TOTP enabled and for an unknown id",
    uses: ["useTotpStep", "createUser", "setTotpPendingSecret"],
    async run(adapter) {
      const user = await storedUser(adapter)
      assert.equal(await adapter.useTotpStep(user.id, currentStep()), false, "never enrolled")
      await adapter.setTotpPendingSecret(user.id, sealedSecret())
      assert.equal(await adapter.useTotpStep(user.id, currentStep()), false, "enrolment started, not confirmed")
      assert.equal(await adapter.useTotpStep(randomUUID(), currentStep()), false, "an unknown id")
    },
  },
  {
    name: "useTotpStep: rejects a step that is not a non-negative integer",
    uses: ["useTotpStep", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor"],
    async run(adapter) {
      const step = currentStep()
      const { user } = await enrolledUser(adapter, step)
      for (const bad of [Number.NaN, -1, step + 0.5, Number.POSITIVE_INFINITY, String(step + 1) as unknown as number]) {
        await assert.rejects(async () => adapter.useTotpStep(user.id, bad), `step ${String(bad)}`)
      }
      assert.equal((await adapter.getTwoFactor(user.id))?.totpLastStep, step, "nothing recorded")
    },
  },
  {
    name: "updateTotpSecret: replaces the enabled secret only while it is still the previous one",
    uses: ["updateTotpSecret", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor"],
    async run(adapter) {
      const { user, sealed } = await enrolledUser(adapter)
      const resealed = sealedSecret()
      assert.equal(await adapter.updateTotpSecret(user.id, resealed, sealedSecret()), false, "another previous secret")
      assert.equal((await adapter.getTwoFactor(user.id))?.totpSecret, sealed, "unchanged")
      assert.equal(await adapter.updateTotpSecret(user.id, resealed, sealed), true)
      const stored = await adapter.getTwoFactor(user.id)
      assert.equal(stored?.totpSecret, resealed)
      assert.ok(stored?.enabledAt instanceof Date, "still enabled")
      assert.equal(await adapter.updateTotpSecret(user.id, sealedSecret(), sealed), false, "the old secret is gone")

      const pendingOnly = await storedUser(adapter)
      const pending = sealedSecret()
      await adapter.setTotpPendingSecret(pendingOnly.id, pending)
      assert.equal(await adapter.updateTotpSecret(pendingOnly.id, sealedSecret(), pending), false, "a pending secret is not rotated")
      assert.equal(await adapter.updateTotpSecret(randomUUID(), sealedSecret(), sealed), false, "an unknown id")
    },
  },
  {
    name: "updateTotpSecret: of concurrent rotations from one secret exactly one succeeds",
    uses: ["updateTotpSecret", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor"],
    async run(adapter) {
      const { user, sealed } = await enrolledUser(adapter)
      const candidates = Array.from({ length: RACERS }, sealedSecret)
      const results = await Promise.all(candidates.map((next) => adapter.updateTotpSecret(user.id, next, sealed)))
      assert.equal(winners(results), 1, "one rotation")
      assert.equal((await adapter.getTwoFactor(user.id))?.totpSecret, candidates[results.indexOf(true)], "the winner's secret")
    },
  },
  {
    name: "replaceRecoveryCodes: replaces the set, voiding the old codes, and bumps the trust version",
    uses: ["replaceRecoveryCodes", "createUser", "useRecoveryCode", "getTwoFactor"],
    async run(adapter) {
      const user = await storedUser(adapter)
      const old = codeHashes(4)
      await adapter.replaceRecoveryCodes(user.id, old)
      const first = await adapter.getTwoFactor(user.id)
      assert.ok(first, "a row for a user who had none")
      assert.equal(first.recoveryCodesLeft, 4)
      assert.equal(first.totpSecret, null)
      assert.equal(first.enabledAt, null, "codes alone do not enable")
      const fresh = codeHashes(2)
      await adapter.replaceRecoveryCodes(user.id, fresh)
      const second = await adapter.getTwoFactor(user.id)
      assert.equal(second?.recoveryCodesLeft, 2)
      assert.equal(second?.trustVersion, first.trustVersion + 1, "regenerating voids trusted devices")
      for (const hash of old) assert.equal(await adapter.useRecoveryCode(user.id, hash), false, "an old code is void")
      assert.equal(await adapter.useRecoveryCode(user.id, fresh[0]!), true, "a new code works")
      await adapter.replaceRecoveryCodes(user.id, [])
      assert.equal((await adapter.getTwoFactor(user.id))?.recoveryCodesLeft, 0, "an empty set")
      assert.equal(await adapter.useRecoveryCode(user.id, fresh[1]!), false)
    },
  },
  {
    name: "replaceRecoveryCodes: rejects an unknown user",
    uses: ["replaceRecoveryCodes"],
    async run(adapter) {
      await assert.rejects(async () => adapter.replaceRecoveryCodes(randomUUID(), codeHashes(2)))
    },
  },
  {
    name: "useRecoveryCode: a code works once and only for its user, and the count goes down",
    uses: ["useRecoveryCode", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor"],
    async run(adapter) {
      const { user, hashes } = await enrolledUser(adapter)
      const other = await enrolledUser(adapter)
      assert.equal(await adapter.useRecoveryCode(other.user.id, hashes[0]!), false, "another user's code")
      assert.equal(await adapter.useRecoveryCode(user.id, hashes[0]!), true)
      assert.equal(await adapter.useRecoveryCode(user.id, hashes[0]!), false, "used already")
      assert.equal((await adapter.getTwoFactor(user.id))?.recoveryCodesLeft, hashes.length - 1)
      assert.equal((await adapter.getTwoFactor(other.user.id))?.recoveryCodesLeft, other.hashes.length, "the other user's codes stay")
      assert.equal(await adapter.useRecoveryCode(user.id, `hash-${randomUUID()}`), false, "a code never issued")
      assert.equal(await adapter.useRecoveryCode(randomUUID(), hashes[1]!), false, "an unknown id")
    },
  },
  {
    name: "useRecoveryCode: of concurrent uses of one code exactly one succeeds",
    uses: ["useRecoveryCode", "createUser", "setTotpPendingSecret", "enableTotp"],
    async run(adapter) {
      const { user, hashes } = await enrolledUser(adapter)
      const results = await Promise.all(Array.from({ length: RACERS }, () => adapter.useRecoveryCode(user.id, hashes[1]!)))
      assert.equal(winners(results), 1, `one of ${RACERS} concurrent uses of a code`)
    },
  },
  {
    name: "incrementTwoFactorTrustVersion: adds one per call, concurrent calls each get their own number, and 0 without a row",
    uses: ["incrementTwoFactorTrustVersion", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor"],
    async run(adapter) {
      const { user } = await enrolledUser(adapter)
      const start = (await adapter.getTwoFactor(user.id))!.trustVersion
      assert.equal(await adapter.incrementTwoFactorTrustVersion(user.id), start + 1)
      const results = await Promise.all(Array.from({ length: RACERS }, () => adapter.incrementTwoFactorTrustVersion(user.id)))
      assert.deepEqual([...results].sort((a, b) => a - b), Array.from({ length: RACERS }, (_, i) => start + 2 + i))
      assert.equal((await adapter.getTwoFactor(user.id))?.trustVersion, start + 1 + RACERS)
      const never = await storedUser(adapter)
      assert.equal(await adapter.incrementTwoFactorTrustVersion(never.id), 0, "no row: nothing to void")
      assert.equal(await adapter.getTwoFactor(never.id), null, "and none is created")
      assert.equal(await adapter.incrementTwoFactorTrustVersion(randomUUID()), 0, "an unknown id")
    },
  },
  {
    name: "deleteTwoFactor: deletes the user's row and codes, and only the user's",
    uses: ["deleteTwoFactor", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor", "useRecoveryCode"],
    async run(adapter) {
      const { user, hashes } = await enrolledUser(adapter)
      const other = await enrolledUser(adapter)
      assert.equal(await adapter.deleteTwoFactor(user.id), true)
      assert.equal(await adapter.getTwoFactor(user.id), null)
      assert.equal(await adapter.useRecoveryCode(user.id, hashes[0]!), false, "the codes went too")
      assert.equal(await adapter.deleteTwoFactor(user.id), false, "nothing left")
      assert.equal(await adapter.deleteTwoFactor(randomUUID()), false, "an unknown id")
      assert.equal((await adapter.getTwoFactor(other.user.id))?.totpSecret, other.sealed, "another user's stays")
      // Enrolling again starts afresh.
      await adapter.setTotpPendingSecret(user.id, sealedSecret())
      assert.equal((await adapter.getTwoFactor(user.id))?.enabledAt, null)
    },
  },
  {
    name: "deleteUser: removes the user's second factors and recovery codes",
    uses: ["deleteUser", "createUser", "setTotpPendingSecret", "enableTotp", "getTwoFactor", "useRecoveryCode"],
    async run(adapter) {
      const { user, hashes } = await enrolledUser(adapter)
      await adapter.deleteUser(user.id)
      assert.equal(await adapter.getTwoFactor(user.id), null, "getTwoFactor after deleteUser")
      assert.equal(await adapter.useRecoveryCode(user.id, hashes[0]!), false, "useRecoveryCode after deleteUser")
    },
  },
]
