import { afterEach, describe, expect, it, vi } from "vitest"

// Whichever build of the primitives runs (node:crypto or Web Crypto), its HKDF is counted.
vi.mock("#primitives", async (importOriginal) => {
  const actual = await importOriginal<typeof import("#primitives")>()
  return { ...actual, hkdf: vi.fn(actual.hkdf) }
})
import { EncryptJWT, base64url, calculateJwkThumbprint } from "jose"
import { createCipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto"
import * as primitives from "#primitives"
import { decode, encode, getToken } from "../../src/jwt/index.js"
import { JWTSessionError, MissingSecret } from "../../src/errors.js"

const secret = "f0e5c6b1a7d24c8e9b3a1d6f2e8c4b7a9d0e3f1c"
const salt = "authjs.session-token"

function header(token: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0]!)))
}

afterEach(() => {
  vi.useRealTimers()
})

describe("encoding a session token", () => {
  it("round-trips the claims and adds iat, exp and jti", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date"] })
    const token = await encode({ token: { sub: "user-1", name: "Ada", custom: { role: "admin" } }, secret, salt })
    const claims = await decode({ token, secret, salt })
    const now = Date.parse("2026-01-01T00:00:00Z") / 1000
    expect(claims).toMatchObject({ sub: "user-1", name: "Ada", custom: { role: "admin" }, iat: now, exp: now + 2592000 })
    expect(claims?.jti).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("writes a dir + A256CBC-HS512 JWE whose kid is the SHA-512 thumbprint of the derived key", async () => {
    const token = await encode({ token: {}, secret, salt })
    const parts = token.split(".")
    expect(parts).toHaveLength(5)
    expect(parts[1]).toBe("")
    expect(Object.keys(header(token))).toEqual(["alg", "enc", "kid"])
    const key = new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64))
    const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha512")
    expect(header(token)).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid })
  })

  it("replaces iat, exp and jti the caller passed in", async () => {
    const token = await encode({ token: { sub: "1", iat: 1, exp: 2, jti: "old" }, secret, salt, maxAge: 60 })
    const claims = await decode({ token, secret, salt })
    expect(claims?.iat).toBeGreaterThan(1_700_000_000)
    expect(claims!.exp! - claims!.iat!).toBe(60)
    expect(claims?.jti).not.toBe("old")
  })

  it("gives every token a fresh jti", async () => {
    const a = await decode({ token: await encode({ token: {}, secret, salt }), secret, salt })
    const b = await decode({ token: await encode({ token: {}, secret, salt }), secret, salt })
    expect(a?.jti).not.toBe(b?.jti)
  })

  it("refuses to encode without a secret, with an empty one, or with a non-numeric maxAge", async () => {
    await expect(encode({ token: {}, secret: "", salt })).rejects.toBeInstanceOf(MissingSecret)
    await expect(encode({ token: {}, secret: [], salt })).rejects.toBeInstanceOf(MissingSecret)
    await expect(encode({ token: {}, secret: [undefined, ""] as unknown as string[], salt })).rejects.toBeInstanceOf(MissingSecret)
    await expect(encode({ token: "abc" as unknown as object, secret, salt })).rejects.toThrow(/must be an object/)
    await expect(encode({ token: [1] as unknown as object, secret, salt })).rejects.toThrow(/must be an object/)
    await expect(encode({ token: {}, secret, salt, maxAge: Number.NaN })).rejects.toThrow(/maxAge/)
    // @ts-expect-error salt is required
    await expect(encode({ token: {}, secret })).rejects.toThrow(/salt/)
  })
})

describe("rotating secrets", () => {
  const oldSecret = "old-secret-0123456789abcdef0123456789abcdef"
  const newSecret = "new-secret-0123456789abcdef0123456789abcdef"

  it("still decrypts tokens made with an older secret", async () => {
    const token = await encode({ token: { sub: "1" }, secret: oldSecret, salt })
    expect(await decode({ token, secret: [newSecret, oldSecret], salt })).toMatchObject({ sub: "1" })
  })

  it("encrypts new tokens with the first secret only", async () => {
    const token = await encode({ token: { sub: "1" }, secret: [newSecret, oldSecret], salt })
    expect(await decode({ token, secret: newSecret, salt })).toMatchObject({ sub: "1" })
    await expect(decode({ token, secret: oldSecret, salt })).rejects.toBeInstanceOf(JWTSessionError)
  })

  it("rejects a token no listed secret made", async () => {
    const token = await encode({ token: {}, secret: "a-third-secret-that-is-not-in-the-list!!", salt })
    await expect(decode({ token, secret: [newSecret, oldSecret], salt })).rejects.toThrow(/No secret matches/)
  })
})

describe("secret lists with gaps", () => {
  it("skips unset entries, as in [env.NEW, env.OLD] with NEW not yet set", async () => {
    const list = [undefined, secret] as unknown as string[]
    const token = await encode({ token: { sub: "gap" }, secret: list, salt })
    expect(await decode({ token, secret, salt })).toMatchObject({ sub: "gap" })
    expect(await decode({ token, secret: list, salt })).toMatchObject({ sub: "gap" })
  })

  it("rejects a secret that is not a string", async () => {
    await expect(encode({ token: {}, secret: [42] as unknown as string[], salt })).rejects.toThrow(/must be a string/)
  })
})

describe("tokens without a kid", () => {
  async function kidless(withSecret: string): Promise<string> {
    const key = new Uint8Array(hkdfSync("sha256", withSecret, salt, `Auth.js Generated Encryption Key (${salt})`, 64))
    return new EncryptJWT({ sub: "legacy" }).setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" }).setExpirationTime("1h").encrypt(key)
  }
  const other = "another-secret-0123456789abcdef0123456789ab"

  it("decrypt with the first secret, as Auth.js does", async () => {
    expect(await decode({ token: await kidless(secret), secret: [secret, other], salt })).toMatchObject({ sub: "legacy" })
  })

  it("are not tried against later secrets", async () => {
    await expect(decode({ token: await kidless(secret), secret: [other, secret], salt })).rejects.toBeInstanceOf(JWTSessionError)
  })
})

describe("rejecting bad tokens", () => {
  it("throws on any single changed character and getToken answers null", async () => {
    const token = await encode({ token: { sub: "1" }, secret, salt })
    const accepted: number[] = []
    for (let i = 0; i < token.length; i++) {
      const changed = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1)
      try {
        await decode({ token: changed, secret, salt })
        accepted.push(i)
      } catch (error) {
        expect(error).toBeInstanceOf(JWTSessionError)
      }
      const req = new Request("http://app.test/", { headers: { cookie: `${salt}=${changed}` } })
      expect(await getToken({ req, secret })).toBeNull()
    }
    expect(accepted).toEqual([])
  })

  it("accepts a token for 15 seconds past its exp and refuses it from exp + 15 s on (jose's rule, as Auth.js reads it), in decode and getToken", async () => {
    vi.useFakeTimers({ now: new Date("2026-03-01T12:00:00Z"), toFake: ["Date"] })
    const token = await encode({ token: { sub: "1" }, secret, salt, maxAge: 60 })
    expect((await decode({ token, secret, salt }))?.exp).toBe(Date.parse("2026-03-01T12:01:00Z") / 1000)
    const req = new Request("https://app.test/", { headers: { cookie: `${salt}=${token}` } })
    vi.setSystemTime(new Date("2026-03-01T12:01:14.999Z"))
    expect(await decode({ token, secret, salt })).toMatchObject({ sub: "1" })
    expect(await getToken({ req, secret })).toMatchObject({ sub: "1" })
    vi.setSystemTime(new Date("2026-03-01T12:01:15.000Z"))
    await expect(decode({ token, secret, salt })).rejects.toThrow(/exp/)
    expect(await getToken({ req, secret })).toBeNull()
  })

  it("rejects a token read with another salt", async () => {
    const token = await encode({ token: {}, secret, salt })
    await expect(decode({ token, secret, salt: "__Secure-authjs.session-token" })).rejects.toBeInstanceOf(JWTSessionError)
  })

  it("answers null for an empty token and throws a clean error for garbage, quickly", async () => {
    expect(await decode({ token: "", secret, salt })).toBeNull()
    expect(await decode({ token: undefined, secret, salt })).toBeNull()
    for (const garbage of ["x", "a.b.c.d.e", "....", "eyJ9.....", "🙂", "a".repeat(1 << 20), `${"A".repeat(1 << 20)}....`]) {
      const started = performance.now()
      await expect(decode({ token: garbage, secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
      expect(performance.now() - started).toBeLessThan(5_000)
    }
    // @ts-expect-error a number is not a token
    await expect(decode({ token: 42, secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
  })

  it("rejects a token whose header names an unsupported encryption", async () => {
    const key = new Uint8Array(32)
    const token = await new EncryptJWT({}).setProtectedHeader({ alg: "dir", enc: "A128CBC-HS256" }).encrypt(key)
    await expect(decode({ token, secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
  })
})

describe("rejecting well-encrypted tokens whose header or claims are wrong", () => {
  const key = new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64))

  /**
   * A token sealed with the right key (RFC 7518 §5.2.2.1, by node:crypto rather than our code)
   * under any `header`: alg dir, A256CBC-HS512 and the right kid unless overridden. The tag is
   * valid, so a refusal can only come from what the header or claims say.
   */
  async function madeWith(header: Record<string, unknown>, claims: unknown = { sub: "1" }): Promise<string> {
    const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha512")
    const protectedHeader = base64url.encode(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid, ...header }))
    const iv = randomBytes(16)
    const cipher = createCipheriv("aes-256-cbc", key.subarray(32), iv)
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(claims)), cipher.final()])
    const aadBits = Buffer.alloc(8)
    aadBits.writeBigUInt64BE(BigInt(protectedHeader.length * 8))
    const tag = createHmac("sha512", key.subarray(0, 32)).update(protectedHeader).update(iv).update(ciphertext).update(aadBits).digest().subarray(0, 32)
    return [protectedHeader, "", iv, ciphertext, tag].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".")
  }

  // 12 and 20 characters: canonical base64url of 9 and 15 bytes, so only the length check refuses them.
  const shortIv = (parts: string[]) => [parts[0], "", parts[2]!.slice(0, 12), ...parts.slice(3)]
  const truncatedTag = (parts: string[]) => [...parts.slice(0, 4), parts[4]!.slice(0, 20)]

  it("accepts the control token", async () => {
    expect(await decode({ token: await madeWith({}), secret, salt })).toEqual({ sub: "1" })
  })

  it.each([
    ["a kid no secret has", { kid: "unknown-kid" }],
    ["a kid that is not a string", { kid: 7 }],
    ["compression", { zip: "DEF" }],
    ["critical extensions", { crit: ["x-custom"], "x-custom": 1 }],
    ["alg none", { alg: "none" }],
    ["alg A256KW", { alg: "A256KW" }],
    ["another enc", { enc: "A128CBC-HS256" }],
  ])("rejects a token with %s", async (_, header) => {
    await expect(decode({ token: await madeWith(header), secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
  })

  it.each([
    ["a header that is not an object", (parts: string[]) => [base64url.encode("[1]"), ...parts.slice(1)]],
    ["an encrypted key", (parts: string[]) => [parts[0], "AAAA", ...parts.slice(2)]],
    ["a short IV", shortIv],
    ["a truncated tag", truncatedTag],
    ["an empty ciphertext", (parts: string[]) => [...parts.slice(0, 3), "", parts[4]]],
    ["six segments", (parts: string[]) => [...parts, ""]],
  ])("rejects a token changed to have %s", async (_, change) => {
    const token = change((await madeWith({})).split(".")).join(".")
    await expect(decode({ token, secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
  })

  it.each([
    ["a short IV", shortIv],
    ["a truncated tag", truncatedTag],
  ])("says why it refuses %s", async (_, change) => {
    const token = change((await madeWith({})).split(".")).join(".")
    await expect(decode({ token, secret, salt })).rejects.toThrow(/wrong length/)
  })

  it.each([
    ["alg", { alg: { toString: 0 } }],
    ["enc", { enc: { toString: 0 } }],
    ["alg", { alg: ["dir"] }],
  ])("answers a hostile %s with a JWTSessionError, not a TypeError", async (_, header) => {
    await expect(decode({ token: await madeWith(header), secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
  })

  it.each([
    ["an iat in the future", { iat: Math.floor(Date.now() / 1000) + 3600 }],
    ["an nbf in the future", { nbf: Math.floor(Date.now() / 1000) + 3600 }],
    ["an exp that is not a number", { exp: "never" }],
    ["an iat that is not a number", { iat: "now" }],
  ])("rejects claims with %s", async (_, claims) => {
    await expect(decode({ token: await madeWith({}, claims), secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
  })

  it("rejects a payload that is not a JSON object", async () => {
    await expect(decode({ token: await madeWith({}, [1, 2]), secret, salt })).rejects.toThrow(/JSON object/)
  })
})

describe("reading A256GCM tokens", () => {
  it("decrypts a dir + A256GCM token keyed by the 32-byte derivation", async () => {
    const key = new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 32))
    const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha256")
    const token = await new EncryptJWT({ sub: "gcm" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid })
      .setIssuedAt()
      .setExpirationTime("1h")
      .encrypt(key)
    expect(await decode({ token, secret: ["another-secret-that-is-long-enough!!", secret], salt })).toMatchObject({ sub: "gcm" })
  })
})

describe("caching derived keys", () => {
  it("runs HKDF once per secret and salt, however many tokens are read", async () => {
    const fresh = `cache-probe-${crypto.randomUUID()}`
    const hkdf = vi.mocked(primitives.hkdf)
    const before = hkdf.mock.calls.length
    const token = await encode({ token: {}, secret: fresh, salt })
    for (let i = 0; i < 5; i++) await decode({ token, secret: fresh, salt })
    expect(hkdf.mock.calls.length - before).toBe(1)
  })
})
