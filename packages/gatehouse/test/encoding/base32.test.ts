/**
 * RFC 4648 base32 as TOTP secrets use it: the RFC's test vectors, round trips, the lenient reading
 * of typed secrets and the refusal of values with a second spelling.
 */
import { describe, expect, it } from "vitest"
import { decodeBase32, encodeBase32 } from "../../src/encoding/base32.js"

const encoder = new TextEncoder()
// RFC 4648 §10, padding removed (otpauth URIs carry none).
const vectors: [string, string][] = [
  ["", ""],
  ["f", "MY"],
  ["fo", "MZXQ"],
  ["foo", "MZXW6"],
  ["foob", "MZXW6YQ"],
  ["fooba", "MZXW6YTB"],
  ["foobar", "MZXW6YTBOI"],
]

describe("base32", () => {
  it.each(vectors)("encodes %j as RFC 4648 does", (plain, encoded) => {
    expect(encodeBase32(encoder.encode(plain))).toBe(encoded)
  })

  it.each(vectors)("decodes the RFC 4648 spelling of %j, padded or not", (plain, encoded) => {
    expect(decodeBase32(encoded)).toEqual(encoder.encode(plain))
    expect(decodeBase32(encoded.padEnd(Math.ceil(encoded.length / 8) * 8, "="))).toEqual(encoder.encode(plain))
  })

  it.each([0, 1, 5, 10, 20, 32, 33])("reads back %i random bytes", (length) => {
    const bytes = crypto.getRandomValues(new Uint8Array(length))
    expect(decodeBase32(encodeBase32(bytes))).toEqual(bytes)
  })

  it("encodes a 20-byte TOTP secret as 32 characters of the alphabet", () => {
    expect(encodeBase32(new Uint8Array(20).fill(255))).toMatch(/^[A-Z2-7]{32}$/)
  })

  it("reads a secret as people type it: lower case, spaces and hyphens", () => {
    expect(decodeBase32("mzxw 6ytb-oi")).toEqual(encoder.encode("foobar"))
  })

  it.each(["MZXW6YT1", "MZXW6YT!", "MZX=W6", "M", "MZX", "MZXW6Y"])("refuses %j (a character or length no encoder writes)", (text) => {
    expect(decodeBase32(text)).toBeUndefined()
  })

  it("refuses a last character whose spare bits are not zero", () => {
    // "MY" is "f"; "MZ" carries the same byte with a spare bit set.
    expect(decodeBase32("MZ")).toBeUndefined()
  })
})
