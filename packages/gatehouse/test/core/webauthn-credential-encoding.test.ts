/**
 * How credential ids, public keys and transports are written down: base64url for browsers and
 * `@simplewebauthn/server`, standard padded base64 and a comma-joined list in the database (as
 * Auth.js stores them).
 */
import { describe, expect, it } from "vitest"
import {
  credentialIdForBrowser,
  fromBase64,
  fromBase64url,
  storedCredentialId,
  storedTransports,
  toBase64,
  toBase64url,
  transportsOf,
} from "../../src/core/webauthn/credential-encoding.js"

const bytes = (...values: number[]) => new Uint8Array(values)
/** Every byte value, so each base64 character (`+` and `/` included) appears. */
const allBytes = Uint8Array.from({ length: 256 }, (_, index) => index)

describe("base64url", () => {
  it.each([0, 1, 2, 3, 4, 5, 16, 32, 33, 64, 65])("round-trips %i random bytes", (length) => {
    const original = crypto.getRandomValues(new Uint8Array(length))
    const encoded = toBase64url(original)
    expect(encoded).toMatch(/^[A-Za-z0-9_-]*$/)
    expect(fromBase64url(encoded)).toEqual(original)
  })

  it("round-trips every byte value, as Node's base64url does", () => {
    const encoded = toBase64url(allBytes)
    expect(encoded).toBe(Buffer.from(allBytes).toString("base64url"))
    expect(fromBase64url(encoded)).toEqual(allBytes)
  })

  it("writes - and _ where base64 has + and /, and no padding", () => {
    // 0xfb 0xff is "+/8=" in standard base64.
    expect(toBase64url(bytes(0xfb, 0xff))).toBe("-_8")
    expect(toBase64url(bytes(0xff, 0xfe, 0xfd, 0xfc))).toBe("__79_A")
  })

  it("reads padded base64url too", () => {
    expect(fromBase64url("-_8=")).toEqual(bytes(0xfb, 0xff))
    expect(fromBase64url("AA==")).toEqual(bytes(0))
  })

  it("reads the empty string as no bytes", () => {
    expect(fromBase64url("")).toEqual(new Uint8Array(0))
  })

  it.each([
    ["standard base64's +", "+_8"],
    ["standard base64's /", "-/8"],
    ["a space", "AA AA"],
    ["a character outside the alphabet", "AA!A"],
    ["a length no encoding has (4n+1)", "AAAAA"],
    ["padding in the middle", "AA=A"],
    ["three padding characters", "A==="],
    ["padding that makes no whole group (AAA==)", "AAA=="],
    ["padding that makes no whole group (AA=)", "AA="],
    ["non-ASCII letters", "ÄÖÜ"],
  ])("rejects %s", (_case, value) => {
    expect(fromBase64url(value)).toBeUndefined()
  })
})

describe("standard base64 (the stored form)", () => {
  it("round-trips every byte value, as Node's base64 does", () => {
    const encoded = toBase64(allBytes)
    expect(encoded).toBe(Buffer.from(allBytes).toString("base64"))
    expect(fromBase64(encoded)).toEqual(allBytes)
  })

  it("writes + and / and pads", () => {
    expect(toBase64(bytes(0xfb, 0xff))).toBe("+/8=")
    expect(toBase64(bytes(1))).toBe("AQ==")
  })

  it.each([
    ["base64url characters", "-_8="],
    ["missing padding", "+/8"],
    ["a length no encoding has", "AAAAA"],
    ["a space", "AA AA"],
  ])("rejects %s", (_case, value) => {
    expect(fromBase64(value)).toBeUndefined()
  })
})

describe("credential ids", () => {
  it("stores a browser's base64url id as padded standard base64, + and / included", () => {
    expect(storedCredentialId("-_8")).toBe("+/8=")
    expect(storedCredentialId("__79_A")).toBe("//79/A==")
    const raw = crypto.getRandomValues(new Uint8Array(32))
    expect(storedCredentialId(Buffer.from(raw).toString("base64url"))).toBe(Buffer.from(raw).toString("base64"))
  })

  it("accepts a padded base64url id", () => {
    expect(storedCredentialId("-_8=")).toBe("+/8=")
  })

  it.each([
    ["empty", ""],
    ["only padding", "=="],
    ["standard base64", "+/8="],
    ["not base64 at all", "not an id!"],
    ["a length no encoding has", "AAAAA"],
  ])("has no stored form for an id that is %s", (_case, id) => {
    expect(storedCredentialId(id)).toBeUndefined()
  })

  it("gives the browser the base64url form of a stored id", () => {
    expect(credentialIdForBrowser("+/8=")).toBe("-_8")
    expect(credentialIdForBrowser("//79/A==")).toBe("__79_A")
  })

  it("round-trips between browser and stored forms for every byte value", () => {
    const browserId = Buffer.from(allBytes).toString("base64url")
    const stored = storedCredentialId(browserId)
    expect(stored).toBe(Buffer.from(allBytes).toString("base64"))
    expect(credentialIdForBrowser(stored!)).toBe(browserId)
  })

  it("passes through a stored id that another tool wrote in base64url", () => {
    expect(credentialIdForBrowser("-_8")).toBe("-_8")
    expect(credentialIdForBrowser("__79_A")).toBe("__79_A")
  })
})

describe("transports", () => {
  it("reads a stored comma-joined list", () => {
    expect(transportsOf("usb,nfc")).toEqual(["usb", "nfc"])
    expect(transportsOf("internal")).toEqual(["internal"])
  })

  it("trims spaces around each transport", () => {
    expect(transportsOf(" usb , hybrid ")).toEqual(["usb", "hybrid"])
  })

  it("drops transports it does not know, keeping the order of the rest", () => {
    expect(transportsOf("carrier-pigeon,ble,USB,smart-card,,cable")).toEqual(["ble", "smart-card", "cable"])
  })

  it.each([
    ["an empty string", ""],
    ["null", null],
    ["undefined", undefined],
    ["only unknown transports", "telepathy,fax"],
    ["only commas", ",,"],
  ])("reads %s as no transports (undefined, not [])", (_case, stored) => {
    expect(transportsOf(stored)).toBeUndefined()
  })

  it("joins a list with commas for storage", () => {
    expect(storedTransports(["usb", "nfc"])).toBe("usb,nfc")
    expect(storedTransports(["internal"])).toBe("internal")
  })

  it("drops unknown transports when storing", () => {
    expect(storedTransports(["usb", "warp-drive", "hybrid"])).toBe("usb,hybrid")
  })

  it.each([
    ["an empty list", []],
    ["undefined", undefined],
    ["only unknown transports", ["warp-drive"]],
  ])("stores nothing for %s", (_case, list) => {
    expect(storedTransports(list)).toBeUndefined()
  })

  it("reads back every known transport it stored", () => {
    const all = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]
    expect(transportsOf(storedTransports(all))).toEqual(all)
  })
})
