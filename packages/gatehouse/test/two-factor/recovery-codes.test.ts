/**
 * Recovery codes: their format and entropy, how typed codes are read back, and the hash that is
 * stored (bound to the user, the same for every spelling of one code).
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  RECOVERY_CODE_BITS,
  newRecoveryCodes,
  normalizeRecoveryCode,
  recoveryCodeHash,
  recoveryCodeHashes,
} from "../../src/core/two-factor/recovery-codes.js"

describe("recovery codes", () => {
  it("carries at least 112 random bits per code, so a plain hash may keep it (ASVS 5.0 6.5.2)", () => {
    expect(RECOVERY_CODE_BITS).toBeGreaterThanOrEqual(112)
  })

  it("makes the number asked for, as xxxxx-xxxxx-xxxxx-xxxxx-xxxxx in Crockford's alphabet, all different", () => {
    const codes = newRecoveryCodes(10)
    expect(codes).toHaveLength(10)
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}(?:-[0-9a-hjkmnp-tv-z]{5}){4}$/)
    expect(new Set(codes).size).toBe(10)
    expect(newRecoveryCodes(0)).toEqual([])
    expect(() => newRecoveryCodes(-1)).toThrow(RangeError)
  })

  it("uses every character of the alphabet (uniform choice, not a subset)", () => {
    const seen = new Set(newRecoveryCodes(200).join("").replace(/-/g, ""))
    expect(seen.size).toBe(32)
  })

  it("reads a code back in any case, with or without separators, look-alikes mended", () => {
    const [code] = newRecoveryCodes(1) as [string]
    const canonical = code.replace(/-/g, "").toUpperCase()
    expect(normalizeRecoveryCode(code)).toBe(canonical)
    expect(normalizeRecoveryCode(code.toUpperCase())).toBe(canonical)
    expect(normalizeRecoveryCode(` ${code.replace(/-/g, " ")} `)).toBe(canonical)
    expect(normalizeRecoveryCode("ILO00-11111-00000-22222-33333")).toBe("1100011111000002222233333")
  })

  it.each(["", "abcd-efgh-jkmn", "abcde-fghjk-mnpqr-stvwx-yz01", "abcde-fghjk-mnpqr-stvwx-yz0123", "abcde-fghjk-mnpqr-stvwx-yz01u", "abcde_fghjk_mnpqr_stvwx_yz012", "abcde-fghjk-mnpqr-stvwx-yz01!", "a".repeat(100)])(
    "refuses %j",
    async (typed) => {
      expect(normalizeRecoveryCode(typed)).toBeUndefined()
      expect(await recoveryCodeHash("user-1", typed)).toBeUndefined()
    },
  )

  it("hashes every spelling of a code alike, as SHA-256 of the user and the canonical code", async () => {
    const [code] = newRecoveryCodes(1) as [string]
    const canonical = normalizeRecoveryCode(code)!
    const expected = createHash("sha256").update(`gatehouse.recovery\u0000user-1\u0000${canonical}`).digest("hex")
    expect(await recoveryCodeHash("user-1", code)).toBe(expected)
    expect(await recoveryCodeHash("user-1", code.toUpperCase().replace(/-/g, ""))).toBe(expected)
    expect(await recoveryCodeHashes("user-1", [code])).toEqual([expected])
  })

  it("hashes one code differently for another user", async () => {
    const [code] = newRecoveryCodes(1) as [string]
    expect(await recoveryCodeHash("user-1", code)).not.toBe(await recoveryCodeHash("user-2", code))
  })
})
