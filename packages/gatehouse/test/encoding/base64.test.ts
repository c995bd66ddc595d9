/**
 * The one base64 codec, in each spelling Gatehouse reads or writes: the encoders against Node's,
 * and which spellings refuse a value whose last character carries spare bits.
 */
import { describe, expect, it } from "vitest"
import {
  decodeBase64,
  decodeBase64Unpadded,
  decodeBase64url,
  decodeBase64urlLenient,
  encodeBase64,
  encodeBase64Unpadded,
  encodeBase64url,
} from "../../src/encoding/base64.js"

const lengths = [0, 1, 2, 3, 4, 5, 31, 32, 33, 255, 256]

describe("encoding", () => {
  it.each(lengths)("writes %i random bytes as Node does in every spelling", (length) => {
    const bytes = crypto.getRandomValues(new Uint8Array(length))
    const buffer = Buffer.from(bytes)
    expect(encodeBase64url(bytes)).toBe(buffer.toString("base64url"))
    expect(encodeBase64(bytes)).toBe(buffer.toString("base64"))
    expect(encodeBase64Unpadded(bytes)).toBe(buffer.toString("base64").replace(/=+$/, ""))
  })

  it.each(lengths)("reads back %i random bytes in every spelling", (length) => {
    const bytes = crypto.getRandomValues(new Uint8Array(length))
    expect(decodeBase64url(encodeBase64url(bytes))).toEqual(bytes)
    expect(decodeBase64urlLenient(encodeBase64url(bytes))).toEqual(bytes)
    expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes)
    expect(decodeBase64Unpadded(encodeBase64Unpadded(bytes))).toEqual(bytes)
  })
})

describe("decoding", () => {
  it("refuses spare bits only in the canonical spellings (tokens, password hashes)", () => {
    // "AB" and "AAB" carry set spare bits; "AA" and "AAA" are their canonical spellings.
    expect(decodeBase64url("AB")).toBeUndefined()
    expect(decodeBase64url("AAB")).toBeUndefined()
    expect(decodeBase64Unpadded("AB")).toBeUndefined()
    expect(decodeBase64urlLenient("AB")).toEqual(new Uint8Array([0]))
    expect(decodeBase64("AAB=")).toEqual(new Uint8Array([0, 0]))
  })

  it("keeps each alphabet to itself", () => {
    expect(decodeBase64url("-_8")).toEqual(new Uint8Array([0xfb, 0xff]))
    expect(decodeBase64url("+/8")).toBeUndefined()
    expect(decodeBase64Unpadded("+/8")).toEqual(new Uint8Array([0xfb, 0xff]))
    expect(decodeBase64Unpadded("-_8")).toBeUndefined()
    expect(decodeBase64("-_8=")).toBeUndefined()
  })

  it("takes padding only where the spelling has it", () => {
    expect(decodeBase64url("AA==")).toBeUndefined()
    expect(decodeBase64Unpadded("AA==")).toBeUndefined()
    expect(decodeBase64("AA")).toBeUndefined()
    expect(decodeBase64urlLenient("AA==")).toEqual(new Uint8Array([0]))
    expect(decodeBase64urlLenient("AA")).toEqual(new Uint8Array([0]))
    expect(decodeBase64urlLenient("AA=")).toBeUndefined()
  })

  it.each(["A", "AAAAA", "AA AA", "AA!A", "ÄÖÜ", "A==="])("refuses %j in every spelling", (text) => {
    expect(decodeBase64url(text)).toBeUndefined()
    expect(decodeBase64urlLenient(text)).toBeUndefined()
    expect(decodeBase64(text)).toBeUndefined()
    expect(decodeBase64Unpadded(text)).toBeUndefined()
  })
})
