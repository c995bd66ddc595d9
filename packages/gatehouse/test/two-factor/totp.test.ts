/**
 * TOTP against RFC 6238 Appendix B (SHA-1) and against codes this test computes itself with
 * node:crypto, never with the module under test: ±1 step, the matched step, replay guard, input
 * shapes, and the otpauth URI.
 */
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { decodeBase32 } from "../../src/encoding/base32.js"
import { newTotpSecret, otpauthUri, totpCode, totpStep, verifyTotp } from "../../src/core/two-factor/totp.js"

/** RFC 4226 HOTP, written here independently of the module. */
function referenceCode(secret: Uint8Array, step: number, digits = 6): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac("sha1", secret).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  return String(mac.readUInt32BE(offset) & 0x7fffffff).slice(-digits).padStart(digits, "0")
}

const RFC_SECRET = new TextEncoder().encode("12345678901234567890")
// RFC 6238 Appendix B, SHA1 column: time (s) and the 8-digit code.
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
]

describe("TOTP (RFC 6238)", () => {
  it.each(RFC_VECTORS)("gives the RFC 6238 Appendix B SHA-1 code at T=%i", async (time, code) => {
    expect(await totpCode(RFC_SECRET, totpStep(time * 1000), 8)).toBe(code)
    expect(referenceCode(RFC_SECRET, Math.floor(time / 30), 8)).toBe(code)
  })

  it("gives the 6-digit code an authenticator app computes, for random secrets and steps", async () => {
    for (let i = 0; i < 50; i++) {
      const secret = newTotpSecret()
      const step = Math.floor(Math.random() * 2 ** 40)
      expect(await totpCode(secret, step)).toBe(referenceCode(secret, step))
    }
  })

  it("makes 20-byte secrets that differ", () => {
    const a = newTotpSecret()
    expect(a).toHaveLength(20)
    expect(a).not.toEqual(newTotpSecret())
  })

  it("accepts the current step's code and its neighbours, returning the step matched", async () => {
    const secret = newTotpSecret()
    const now = 1_800_000_000_000
    const step = Math.floor(now / 30_000)
    for (const delta of [-1, 0, 1]) {
      expect(await verifyTotp(secret, referenceCode(secret, step + delta), { now })).toBe(step + delta)
    }
  })

  it("refuses codes two steps away", async () => {
    const secret = newTotpSecret()
    const now = 1_800_000_000_000
    const step = Math.floor(now / 30_000)
    for (const delta of [-2, 2]) {
      const code = referenceCode(secret, step + delta)
      // A code two steps away may equal a neighbour's by chance (one in a million): skip that case.
      if ([-1, 0, 1].some((d) => referenceCode(secret, step + d) === code)) continue
      expect(await verifyTotp(secret, code, { now })).toBeUndefined()
    }
  })

  it("refuses a used step and every earlier one (afterStep), but not a later one", async () => {
    const secret = newTotpSecret()
    const now = 1_800_000_000_000
    const step = Math.floor(now / 30_000)
    expect(await verifyTotp(secret, referenceCode(secret, step), { now, afterStep: step })).toBeUndefined()
    expect(await verifyTotp(secret, referenceCode(secret, step - 1), { now, afterStep: step })).toBeUndefined()
    expect(await verifyTotp(secret, referenceCode(secret, step + 1), { now, afterStep: step })).toBe(step + 1)
  })

  it("refuses another secret's code", async () => {
    const now = 1_800_000_000_000
    const code = referenceCode(newTotpSecret(), Math.floor(now / 30_000))
    const other = newTotpSecret()
    if ([-1, 0, 1].some((d) => referenceCode(other, Math.floor(now / 30_000) + d) === code)) return
    expect(await verifyTotp(other, code, { now })).toBeUndefined()
  })

  it("reads a code with spaces, and refuses anything but six digits", async () => {
    const secret = newTotpSecret()
    const now = 1_800_000_000_000
    const code = referenceCode(secret, Math.floor(now / 30_000))
    expect(await verifyTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, { now })).toBeDefined()
    for (const bad of ["", "12345", "1234567", "12a456", `${code}0`, "１２３４５６"]) {
      expect(await verifyTotp(secret, bad, { now })).toBeUndefined()
    }
    expect(await verifyTotp(secret, 123456 as unknown as string, { now })).toBeUndefined()
  })

  it("writes an otpauth URI apps read: label, base32 secret, parameters", () => {
    const secret = newTotpSecret()
    const uri = new URL(otpauthUri({ issuer: "Acme & Co", account: "ada@example.com", secret }))
    expect(uri.protocol).toBe("otpauth:")
    expect(uri.host).toBe("totp")
    expect(decodeURIComponent(uri.pathname)).toBe("/Acme & Co:ada@example.com")
    expect(uri.searchParams.get("issuer")).toBe("Acme & Co")
    expect(uri.searchParams.get("algorithm")).toBe("SHA1")
    expect(uri.searchParams.get("digits")).toBe("6")
    expect(uri.searchParams.get("period")).toBe("30")
    expect(decodeBase32(uri.searchParams.get("secret")!)).toEqual(secret)
    expect(uri.href).not.toContain("+")
  })
})
