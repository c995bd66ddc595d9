/**
 * The two builds of the cryptographic primitives (Web Crypto for every runtime, node:crypto under
 * Node's export condition) give the same bytes and the same refusals, each reading what the other
 * wrote. The token suites run on both builds too (see vitest.config.ts); this pins the primitives
 * themselves, including the cases a token test reaches only indirectly.
 */
import { describe, expect, it } from "vitest"
import type { ContentCipher, Primitives } from "../../src/primitives/contract.js"
import { primitives as node } from "../../src/primitives/node.js"
import { primitives as web } from "../../src/primitives/web.js"
import { encodeBase64url } from "../../src/encoding/base64.js"

const bytes = (...values: number[]) => Uint8Array.from(values)
const text = (value: string) => new TextEncoder().encode(value)
const key64 = Uint8Array.from({ length: 64 }, (_, i) => i * 3 + 1)
const key32 = key64.subarray(0, 32)
const builds: [string, Primitives, Primitives][] = [
  ["web → node", web, node],
  ["node → web", node, web],
]

describe("the Web Crypto and node:crypto primitives", () => {
  it("derive the same HKDF-SHA256 bytes and the same digests", async () => {
    const args = [text("a secret"), text("authjs.session-token"), text("Auth.js Generated Encryption Key (authjs.session-token)"), 64] as const
    expect(await node.hkdf(...args)).toEqual(await web.hkdf(...args))
    expect((await web.hkdf(...args)).length).toBe(64)
    for (const algorithm of ["SHA-256", "SHA-512"] as const) {
      expect(Buffer.from(await node.digest(algorithm, text("abc")))).toEqual(Buffer.from(await web.digest(algorithm, text("abc"))))
    }
    // A known answer, so both cannot be wrong alike: SHA-256("abc").
    expect(Buffer.from(await node.digest("SHA-256", text("abc"))).toString("hex")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })

  it.each(builds)("%s: A256CBC-HS512 sealed by one is opened by the other, with the same MAC", async (_, sealer, opener) => {
    const aad = text("protected-header")
    const plaintext = text(JSON.stringify({ sub: "user-1", name: "Ada" }))
    const sealed = await sealer.sealCbc(await sealer.contentCipher(key64, "A256CBC-HS512"), aad, plaintext)
    expect(sealed.iv.length).toBe(16)
    expect(sealed.mac.length).toBe(64)
    const opened = await opener.openCbc(await opener.contentCipher(key64, "A256CBC-HS512"), aad, sealed.iv, sealed.ciphertext)
    expect(Buffer.from(opened.mac)).toEqual(Buffer.from(sealed.mac))
    expect(opened.plaintext && new TextDecoder().decode(opened.plaintext)).toBe(JSON.stringify({ sub: "user-1", name: "Ada" }))
  })

  it.each([["web", web], ["node", node]] as const)("%s: gives another MAC for other AAD, and no plaintext for bad padding", async (_, build) => {
    const cipher: ContentCipher = await build.contentCipher(key64, "A256CBC-HS512")
    const sealed = await build.sealCbc(cipher, text("aad"), text("hello"))
    const other = await build.openCbc(cipher, text("aaD"), sealed.iv, sealed.ciphertext)
    expect(Buffer.from(other.mac)).not.toEqual(Buffer.from(sealed.mac))
    // Flipping the last IV byte changes only the last plaintext byte of a one-block message: its padding.
    const iv = Uint8Array.from(sealed.iv)
    iv[15]! ^= 0xff
    expect((await build.openCbc(cipher, text("aad"), iv, sealed.ciphertext)).plaintext).toBeUndefined()
  })

  it.each([["web", web], ["node", node]] as const)("%s: opens A256GCM from a known vector and refuses a changed tag or AAD", async (_, build) => {
    // Sealed with node:crypto's AES-256-GCM directly, the reference both builds must read.
    const { createCipheriv } = await import("node:crypto")
    const iv = bytes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    const sealer = createCipheriv("aes-256-gcm", key32, iv)
    sealer.setAAD(text("aad"))
    const ciphertext = Buffer.concat([sealer.update(text("gcm payload")), sealer.final()])
    const tag = sealer.getAuthTag()
    const cipher = await build.contentCipher(key32, "A256GCM")
    expect(new TextDecoder().decode(await build.openGcm(cipher, text("aad"), iv, ciphertext, tag))).toBe("gcm payload")
    const badTag = Uint8Array.from(tag)
    badTag[0]! ^= 1
    expect(await build.openGcm(cipher, text("aad"), iv, ciphertext, badTag)).toBeUndefined()
    expect(await build.openGcm(cipher, text("aaD"), iv, ciphertext, tag)).toBeUndefined()
    await expect(build.openCbc(cipher, text("aad"), iv, ciphertext)).rejects.toThrow(TypeError)
  })

  it("encode base64url alike, unpadded, as the JS codec does, for every length and every byte value", () => {
    const values = [...Array.from({ length: 41 }, (_, length) => Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 255)), Uint8Array.from({ length: 256 }, (_, i) => i)]
    for (const value of values) {
      const expected = encodeBase64url(value)
      expect(node.encodeBase64url(value)).toBe(expected)
      expect(web.encodeBase64url(value)).toBe(expected)
      expect(expected).toBe(Buffer.from(value).toString("base64url"))
    }
    // A view into a larger buffer is encoded as its own bytes only.
    const view = Uint8Array.from([1, 2, 3, 250, 251, 252, 9]).subarray(3, 6)
    expect(node.encodeBase64url(view)).toBe("-vv8")
    expect(web.encodeBase64url(view)).toBe("-vv8")
  })

  it("decode base64url alike: the same bytes for every length, and the same refusals", () => {
    for (let length = 0; length <= 40; length++) {
      const value = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 255)
      const encoded = Buffer.from(value).toString("base64url")
      expect(node.decodeBase64url(encoded), encoded).toEqual(value)
      expect(web.decodeBase64url(encoded), encoded).toEqual(value)
    }
    // Node's own decoder would take each of these (skipping, padding or ignoring what it must not).
    const refused = [
      "A", // a length no value has
      "AB==", // padding
      "AB", // spare bits set: "AA" is the canonical spelling of that byte
      "AAB", // likewise for two bytes
      "AA+A", // the standard alphabet's character
      "AA/A",
      "AA A",
      "AA.A",
      "QUJD\n",
      "QUJDé",
    ]
    for (const text of refused) {
      expect(web.decodeBase64url(text), `web: ${text}`).toBeUndefined()
      expect(node.decodeBase64url(text), `node: ${text}`).toBeUndefined()
    }
    expect(node.decodeBase64url("-_-_")).toEqual(web.decodeBase64url("-_-_"))
    expect(Buffer.from(node.decodeBase64url("-_-_")!)).toEqual(Buffer.from([0xfb, 0xff, 0xbf]))
  })
})
