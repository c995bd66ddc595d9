/**
 * Rotating the auth secret does not lock out a user with an authenticator app (issue 37, review
 * round B): their TOTP secret, sealed under the old auth secret, opens while the old one is still
 * configured behind the new one, and the first right code reseals it under the new one
 * (`updateTotpSecret`), so the old secret can then be dropped. Wrong codes are refused throughout.
 */
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { openTotpSecret, sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger } from "../flow/flow-helpers.js"
import { DASHBOARD, TWO_FACTOR_PAGE, currentStep, totpAt, type Adapted } from "./bypass-matrix-helpers.js"

const OLD = "old-auth-secret-0123456789abcdef0123456789"
const NEW = "new-auth-secret-0123456789abcdef0123456789"

describe("auth secret rotation and the authenticator secret", () => {
  it("signed in under [new, old], the secret is resealed; under [new] alone the right code still works, a wrong one does not", async () => {
    const adapter = MemoryAdapter() as Adapted
    const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
    const key = new Uint8Array(randomBytes(20))
    const sealedOld = await sealTotpSecret({ secret: [OLD] }, uid, key)
    await adapter.setTotpPendingSecret(uid, sealedOld)
    await adapter.enableTotp(uid, { sealed: sealedOld, step: currentStep() - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, ["ABCDE-FGHJK-MNPQR-STVWX-YZ012"]) })

    const config = (secret: string[]): AuthConfig => ({
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy: "jwt" },
      providers: [Credentials({ credentials: { password: {} }, authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada" } : null), rateLimit: false })],
      twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled", notify: false },
    })
    const signInWith = async (client: Client, code: string) => {
      expect((await client.signIn({ password: "correct horse", callbackUrl: DASHBOARD })).headers.get("location")).toBe(TWO_FACTOR_PAGE)
      return client.postForm("two-factor", { csrfToken: await client.csrfToken(), code })
    }
    const step = currentStep()

    const rotating = new Client(config([NEW, OLD]))
    expect((await signInWith(rotating, totpAt(key, step))).headers.get("location")).toBe(DASHBOARD)
    const stored = (await adapter.getTwoFactor!(uid))!
    expect(stored.totpSecret).not.toBe(sealedOld)
    expect(await openTotpSecret({ secret: [NEW] }, uid, stored.totpSecret!)).toMatchObject({ stale: false })

    const rotated = new Client(config([NEW]))
    const wrong = await signInWith(rotated, totpAt(key, step + 1) === "000000" ? "000001" : "000000")
    expect(wrong.headers.get("location")).toContain("error=InvalidTwoFactorCode")
    expect((await rotated.postForm("two-factor", { csrfToken: await rotated.csrfToken(), code: totpAt(key, step + 1) })).headers.get("location")).toBe(DASHBOARD)
  })
})
