/**
 * TOTP secrets sealed at rest: they open for their own user under the configured secrets only,
 * any change refuses them, and a secret rotation reports them stale until sealed again.
 */
import { describe, expect, it } from "vitest"
import { encode } from "../../src/jwt/index.js"
import { openTotpSecret, sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { newTotpSecret } from "../../src/core/two-factor/totp.js"

const OLD = "old-secret-old-secret-old-secret-old"
const NEW = "new-secret-new-secret-new-secret-new"

describe("TOTP secret sealing", () => {
  it("opens for the same user under the same secret, not stale", async () => {
    const secret = newTotpSecret()
    const sealed = await sealTotpSecret({ secret: [NEW] }, "user-1", secret)
    expect(sealed).not.toContain(Buffer.from(secret).toString("base64url"))
    expect(await openTotpSecret({ secret: [NEW] }, "user-1", sealed)).toEqual({ secret, stale: false })
  })

  it("seals the same secret differently each time (fresh IV)", async () => {
    const secret = newTotpSecret()
    expect(await sealTotpSecret({ secret: [NEW] }, "u", secret)).not.toBe(await sealTotpSecret({ secret: [NEW] }, "u", secret))
  })

  it("does not open for another user", async () => {
    const sealed = await sealTotpSecret({ secret: [NEW] }, "user-1", newTotpSecret())
    expect(await openTotpSecret({ secret: [NEW] }, "user-2", sealed)).toBeUndefined()
  })

  it("does not open once any character of it is changed", async () => {
    const sealed = await sealTotpSecret({ secret: [NEW] }, "user-1", newTotpSecret())
    const segments = sealed.split(".")
    for (const index of [0, 2, 3, 4]) {
      const changed = [...segments]
      const text = changed[index]!
      const at = Math.floor(text.length / 2)
      changed[index] = text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1)
      expect(await openTotpSecret({ secret: [NEW] }, "user-1", changed.join("."))).toBeUndefined()
    }
    expect(await openTotpSecret({ secret: [NEW] }, "user-1", "")).toBeUndefined()
    expect(await openTotpSecret({ secret: [NEW] }, "user-1", "not a token")).toBeUndefined()
  })

  it("does not open under a secret it was not sealed with", async () => {
    const sealed = await sealTotpSecret({ secret: [OLD] }, "user-1", newTotpSecret())
    expect(await openTotpSecret({ secret: [NEW] }, "user-1", sealed)).toBeUndefined()
  })

  it("opens a value sealed before a rotation, reported stale; sealed again, not stale", async () => {
    const secret = newTotpSecret()
    const before = await sealTotpSecret({ secret: [OLD] }, "user-1", secret)
    const rotated = { secret: [NEW, OLD] }
    expect(await openTotpSecret(rotated, "user-1", before)).toEqual({ secret, stale: true })
    const after = await sealTotpSecret(rotated, "user-1", secret)
    expect(await openTotpSecret(rotated, "user-1", after)).toEqual({ secret, stale: false })
    expect(await openTotpSecret({ secret: [NEW] }, "user-1", after)).toEqual({ secret, stale: false })
  })

  it("is not opened by, and does not open, a session token made with the same secret", async () => {
    const session = await encode({ token: { uid: "user-1", s: "AAAA", v: 1 }, secret: NEW, salt: "authjs.session-token" })
    expect(await openTotpSecret({ secret: [NEW] }, "user-1", session)).toBeUndefined()
  })

  it("refuses to seal without a secret", async () => {
    await expect(sealTotpSecret({ secret: [] }, "user-1", newTotpSecret())).rejects.toThrow(TypeError)
  })
})
