/**
 * The second-factor email code: its digits and spread, its binding to one pending sign-in, its
 * expiry, a secret rotation in between, and input that is no code.
 */
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { EMAIL_CODE_MAX_AGE, checkEmailCode, issueEmailCode, newEmailCode } from "../../src/core/two-factor/email-code.js"

const config = { secret: ["s3cret-s3cret-s3cret-s3cret-s3cret"] }
const NOW = 1_800_000_000_000

describe("email codes", () => {
  it.each([6, 7, 8])("makes %i-digit codes", (digits) => {
    for (let i = 0; i < 50; i++) expect(newEmailCode(digits)).toMatch(new RegExp(`^\\d{${digits}}$`))
  })

  it.each([5, 9, 6.5, Number.NaN])("refuses %s digits", (digits) => {
    expect(() => newEmailCode(digits)).toThrow(RangeError)
  })

  it("spreads codes over the whole range (leading zeros kept)", () => {
    const firsts = new Set(Array.from({ length: 400 }, () => newEmailCode()[0]))
    expect(firsts.size).toBe(10)
  })

  it("keeps only an HMAC of the pending id and the code, as computed here independently", async () => {
    const { code, state } = await issueEmailCode(config, "pending-1", { now: NOW })
    expect(JSON.stringify(state)).not.toContain(code)
    const expected = createHmac("sha256", config.secret[0]!).update(`gatehouse.two-factor.email-code\u0000pending-1\u0000${code}`).digest("base64url")
    expect(state.hash).toBe(expected)
  })

  it("accepts the right code for the same pending sign-in", async () => {
    const { code, state } = await issueEmailCode(config, "pending-1", { now: NOW })
    expect(await checkEmailCode(config, "pending-1", state, code, NOW)).toBe(true)
    expect(await checkEmailCode(config, "pending-1", state, ` ${code} `, NOW)).toBe(true)
  })

  it("refuses the code for another pending sign-in", async () => {
    const { code, state } = await issueEmailCode(config, "pending-1", { now: NOW })
    expect(await checkEmailCode(config, "pending-2", state, code, NOW)).toBe(false)
  })

  it("refuses a wrong code and input that is no code", async () => {
    const { code, state } = await issueEmailCode(config, "pending-1", { now: NOW })
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0")
    for (const typed of [wrong, "", "abcdef", `${code}123`, code.slice(1)]) {
      expect(await checkEmailCode(config, "pending-1", state, typed, NOW)).toBe(false)
    }
    expect(await checkEmailCode(config, "pending-1", { ...state, hash: "!!" }, code, NOW)).toBe(false)
  })

  it("expires after at most 10 minutes, and not after the pending sign-in ends", async () => {
    const { code, state } = await issueEmailCode(config, "pending-1", { now: NOW, maxAge: 3600 })
    expect(state.exp).toBe(NOW / 1000 + EMAIL_CODE_MAX_AGE)
    expect(await checkEmailCode(config, "pending-1", state, code, NOW + EMAIL_CODE_MAX_AGE * 1000)).toBe(true)
    expect(await checkEmailCode(config, "pending-1", state, code, NOW + (EMAIL_CODE_MAX_AGE + 1) * 1000)).toBe(false)
    const capped = await issueEmailCode(config, "pending-1", { now: NOW, notAfter: NOW / 1000 + 120 })
    expect(capped.state.exp).toBe(NOW / 1000 + 120)
  })

  it("stays good across a secret rotation, and not under unrelated secrets", async () => {
    const { code, state } = await issueEmailCode(config, "pending-1", { now: NOW })
    expect(await checkEmailCode({ secret: ["a-newer-secret-a-newer-secret-xx", ...config.secret] }, "pending-1", state, code, NOW)).toBe(true)
    expect(await checkEmailCode({ secret: ["a-newer-secret-a-newer-secret-xx"] }, "pending-1", state, code, NOW)).toBe(false)
  })
})
