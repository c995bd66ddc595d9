/**
 * Constant-time comparison of secret-derived values. Gatehouse compares secrets itself in three
 * places, all through one primitive (`equalBytes` in src/jwt/constant-time.ts): the JWE tag of
 * every session, check and challenge cookie; the CSRF cookie's hash and token (through
 * `timingSafeEqual`, which encodes strings and calls it); and a password's derived key in
 * `gatehouse-auth/password`'s Web build (its Node build uses node:crypto's `timingSafeEqual`; both are
 * tested in test/password/). Everything else secret is compared by someone else, never with `===`
 * by us:
 * - email verification tokens are hashed with the secret and looked up by the adapter;
 * - database session tokens are hashed (SHA-256) and looked up by the adapter;
 * - the WebAuthn challenge travels encrypted (its cookie's tag is the comparison) and is checked
 *   by @simplewebauthn/server; it is spent through a counter keyed by its HMAC;
 * - OAuth state, PKCE and nonce are checked by oauth4webapi and the provider.
 *
 * This file proves it three ways: the primitive itself, the runtime paths calling it, and a scan
 * of src/ that fails on any new `===` (or `startsWith`…) comparing something named like a secret.
 */
import { fileURLToPath } from "node:url"
import { describe, expect, it, vi } from "vitest"
import { timingSafeEqual } from "../../src/core/crypto.js"
import { decode, encode } from "../../src/jwt/index.js"
import { equalBytes } from "../../src/jwt/constant-time.js"
import { JWTSessionError } from "../../src/errors.js"
import { Client, credentialsConfig, secret } from "../flow/flow-helpers.js"
import { scanSource, scanSources, wordsOf } from "./constant-time-support.js"

// Every call of the primitive is recorded, and still answered by the real function.
vi.mock("../../src/jwt/constant-time.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/jwt/constant-time.js")>()
  return { equalBytes: vi.fn(actual.equalBytes) }
})

const recorded = vi.mocked(equalBytes)
const utf8 = new TextDecoder()
const bytes = (...values: number[]) => Uint8Array.from(values)

/** A byte array that counts how often each index is read. */
function counting(source: Uint8Array): { array: Uint8Array; reads: number[] } {
  const reads = new Array<number>(source.length).fill(0)
  const array = new Proxy(source, {
    get(target, property) {
      if (typeof property === "string" && /^\d+$/.test(property)) reads[Number(property)]! += 1
      // The typed array's own getters need the array itself as `this`, not the proxy.
      const value: unknown = Reflect.get(target, property)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return { array, reads }
}

describe("the constant-time primitive (equalBytes)", () => {
  it("says equal bytes are equal, the empty arrays included", () => {
    expect(equalBytes(bytes(), bytes())).toBe(true)
    expect(equalBytes(bytes(0), bytes(0))).toBe(true)
    expect(equalBytes(bytes(1, 2, 3, 255), bytes(1, 2, 3, 255))).toBe(true)
    const random = crypto.getRandomValues(new Uint8Array(64))
    expect(equalBytes(random, random.slice())).toBe(true)
  })

  it("finds a difference of one bit at every position of a 32-byte value", () => {
    const value = crypto.getRandomValues(new Uint8Array(32))
    const missed: string[] = []
    for (let index = 0; index < value.length; index++) {
      for (let bit = 0; bit < 8; bit++) {
        const changed = value.slice()
        changed[index]! ^= 1 << bit
        if (equalBytes(value, changed) || equalBytes(changed, value)) missed.push(`${index}:${bit}`)
      }
    }
    expect(missed).toEqual([])
  })

  it("refuses inputs of different lengths, even when one is a prefix of the other", () => {
    expect(equalBytes(bytes(1, 2, 3), bytes(1, 2))).toBe(false)
    expect(equalBytes(bytes(1, 2), bytes(1, 2, 3))).toBe(false)
    expect(equalBytes(bytes(), bytes(0))).toBe(false)
    expect(equalBytes(bytes(0), bytes())).toBe(false)
  })

  it("tells all-zero bytes from bytes that are not, whichever side they are on", () => {
    const zeros = new Uint8Array(32)
    const lastBitSet = new Uint8Array(32)
    lastBitSet[31] = 1
    expect(equalBytes(zeros, new Uint8Array(32))).toBe(true)
    expect(equalBytes(zeros, lastBitSet)).toBe(false)
    expect(equalBytes(lastBitSet, zeros)).toBe(false)
    expect(equalBytes(zeros, new Uint8Array(32).fill(255))).toBe(false)
  })

  it("reads every byte of both inputs whether they differ first, last or nowhere", () => {
    const value = crypto.getRandomValues(new Uint8Array(32))
    for (const differsAt of [0, 15, 31, undefined]) {
      const other = value.slice()
      if (differsAt !== undefined) other[differsAt]! ^= 0x80
      const a = counting(value)
      const b = counting(other)
      expect(equalBytes(a.array, b.array)).toBe(differsAt === undefined)
      expect(a.reads, `left reads when differing at ${differsAt}`).toEqual(new Array(32).fill(1))
      expect(b.reads, `right reads when differing at ${differsAt}`).toEqual(new Array(32).fill(1))
    }
  })
})

describe("the string form (timingSafeEqual)", () => {
  it("compares strings by their UTF-8 bytes", () => {
    expect(timingSafeEqual("", "")).toBe(true)
    expect(timingSafeEqual("a1b2c3", "a1b2c3")).toBe(true)
    expect(timingSafeEqual("a1b2c3", "a1b2c4")).toBe(false)
    expect(timingSafeEqual("a1b2c3", "A1b2c3")).toBe(false)
    // Same UTF-16 length, different bytes; and one character against two.
    expect(timingSafeEqual("é", "e")).toBe(false)
    expect(timingSafeEqual("é", "e\u0301")).toBe(false)
  })

  it("refuses strings of different lengths, the empty string and NULs included", () => {
    expect(timingSafeEqual("abc", "ab")).toBe(false)
    expect(timingSafeEqual("ab", "abc")).toBe(false)
    expect(timingSafeEqual("", "\0")).toBe(false)
    expect(timingSafeEqual("\0", "")).toBe(false)
    expect(timingSafeEqual("\0\0", "\0")).toBe(false)
    expect(timingSafeEqual("\0\0", "\0\0")).toBe(true)
  })

  it("goes through the primitive", () => {
    recorded.mockClear()
    timingSafeEqual("left", "right")
    expect(recorded).toHaveBeenCalledTimes(1)
    const [left, right] = recorded.mock.calls[0]!
    expect([utf8.decode(left), utf8.decode(right)]).toEqual(["left", "right"])
  })
})

describe("comparisons of secrets go through the primitive at run time", () => {
  const salt = "__Secure-authjs.session-token"

  it("checks a session token's JWE tag with it, on every decode", async () => {
    const token = await encode({ token: { sub: "ct" }, secret, salt })
    const tag = Buffer.from(token.split(".")[4]!, "base64url")

    recorded.mockClear()
    await decode({ token, secret, salt })
    expect(recorded.mock.calls.some(([, given]) => Buffer.from(given).equals(tag))).toBe(true)
    expect(recorded.mock.results.at(-1)?.value).toBe(true)

    const flipped = Buffer.from(tag)
    flipped[0]! ^= 1
    const parts = token.split(".")
    parts[4] = flipped.toString("base64url")
    recorded.mockClear()
    await expect(decode({ token: parts.join("."), secret, salt })).rejects.toBeInstanceOf(JWTSessionError)
    expect(recorded.mock.calls.some(([, given]) => Buffer.from(given).equals(flipped))).toBe(true)
    expect(recorded.mock.results.at(-1)?.value).toBe(false)
  })

  it("checks the CSRF cookie's hash and the submitted token with it", async () => {
    const client = new Client(credentialsConfig())
    const csrfToken = await client.csrfToken()
    const [cookieToken, cookieHash] = client.jar.get("__Host-authjs.csrf-token")!.split("|") as [string, string]
    expect(cookieToken).toBe(csrfToken)

    recorded.mockClear()
    const response = await client.postForm("signin/credentials", { csrfToken })
    expect(response.status).toBe(302)
    const compared = recorded.mock.calls.map(([a, b]) => [utf8.decode(a), utf8.decode(b)])
    expect(compared).toContainEqual([cookieHash, cookieHash])
    expect(compared).toContainEqual([csrfToken, csrfToken])

    // A wrong token is refused by the same comparison.
    recorded.mockClear()
    const wrong = `${csrfToken.slice(0, -1)}${csrfToken.endsWith("0") ? "1" : "0"}`
    const refused = await client.postForm("signout", { csrfToken: wrong })
    expect(refused.headers.get("location")).toMatch(/error=MissingCSRF/)
    expect(recorded.mock.calls.map(([a, b]) => [utf8.decode(a), utf8.decode(b)])).toContainEqual([wrong, csrfToken])
  })

  it("refuses, by the same comparison, a CSRF cookie made with another secret", async () => {
    const client = new Client(credentialsConfig({ secret: "another-secret-0123456789abcdef0123456789" }))
    const foreignToken = await client.csrfToken()
    const ours = new Client(credentialsConfig())
    ours.jar.cookies.set("__Host-authjs.csrf-token", client.jar.cookies.get("__Host-authjs.csrf-token")!)
    const foreignHash = client.jar.get("__Host-authjs.csrf-token")!.split("|")[1]!
    recorded.mockClear()
    const response = await ours.postForm("signout", { csrfToken: foreignToken })
    expect(response.headers.get("location")).toMatch(/error=MissingCSRF/)
    // The cookie's hash was compared with ours and failed, so its token was never compared at all.
    const compared = recorded.mock.calls.map(([a, b]) => [utf8.decode(a), utf8.decode(b)])
    const hashCheck = compared.findIndex(([given]) => given === foreignHash)
    expect(hashCheck).not.toBe(-1)
    expect(recorded.mock.results[hashCheck]?.value).toBe(false)
    expect(compared.some(([given]) => given === foreignToken)).toBe(false)
  })
})

describe("no secret is compared with === in src/", () => {
  const src = fileURLToPath(new URL("../../src", import.meta.url))

  /**
   * Comparisons the scan flags that leak nothing, each with why. Keyed by file and the
   * comparison's text, so moving code around does not break the list.
   */
  const allowed: Record<string, string> = {
    "cli/doctor-secret.ts: secrets.indexOf(secrets[i]!)":
      "the deploy check finds a secret repeated in the environment's own rotation list, on the operator's machine; no request reaches it",
    "core/log-line.ts: name === code":
      "an error's class name against the code it is logged under, both from the library; no secret on either side",
    "core/config.ts: config.skipCSRFCheck === skipCSRFCheckMarker":
      "compares a config value with the exported skipCSRFCheck symbol; no secret on either side",
    "core/sessions/access-token-refresh.ts: current.refresh_token !== account.refresh_token":
      "both sides come from the database (the row now vs. the row this request read); no client input reaches either",
    "adapters/memory.ts: other.tokenHash === invitation.tokenHash":
      "two stored invitations' SHA-256 digests, kept unique as SQL keeps them; no client input reaches either",
    "adapters/memory.ts: invitation.tokenHash === tokenHash":
      "a lookup by the SHA-256 of the presented token, as SQL's index does: a client cannot choose the digest's bytes, so timing tells it nothing",
    "adapters/memory.ts: row.totpPendingSecret !== sealed":
      "a compare-and-set of two sealed secrets the server made (the stored one and the one it read back before confirming); no client input reaches either",
    "adapters/memory.ts: row.totpSecret !== previousSealed":
      "a compare-and-set of two sealed secrets the server made (rotation re-seals what it read); no client input reaches either",
    "testing/adapter-conformance/session-authentication.ts: row.sessionToken === recorded.sessionToken":
      "the conformance suite finds the row it created among an adapter's answers; test fixtures, no request reaches it",
    "testing/adapter-conformance/session-authentication.ts: row.sessionToken === empty.sessionToken":
      "the conformance suite finds the row it created among an adapter's answers; test fixtures, no request reaches it",
    "testing/adapter-conformance/session-authentication.ts: row.sessionToken === plain.sessionToken":
      "the conformance suite finds the row it created among an adapter's answers; test fixtures, no request reaches it",
    "testing/adapter-conformance/session-details.ts: row.sessionToken === detailed.sessionToken":
      "the conformance suite finds the row it created among an adapter's answers; test fixtures, no request reaches it",
    "testing/adapter-conformance/session-details.ts: row.sessionToken === bare.sessionToken":
      "the conformance suite finds the row it created among an adapter's answers; test fixtures, no request reaches it",
    "jwt/keys.ts: last.secret === secret":
      "finds the content key used last: both sides are the application's configured secret (the same string each read), never request input",
    "core/sessions/stored-token.ts: sessionToken.startsWith(HASHED_TOKEN_PREFIX)":
      "checks the cookie against a public prefix (sha256:) to refuse stored hashes as cookies; nothing secret is compared",
  }

  it("splits names into the words it looks for", () => {
    expect(wordsOf("sessionToken")).toEqual(["session", "token"])
    expect(wordsOf("CSRF_TOKEN")).toEqual(["csrf", "token"])
    expect(wordsOf("expectedHMACTag")).toEqual(["expected", "hmac", "tag"])
    expect(wordsOf("refresh_token")).toEqual(["refresh", "token"])
  })

  it("flags what it must and passes what is harmless, on a sample it can be checked against", () => {
    const sample = `
      // token === other in a comment is not code
      const a = cookie.sessionToken === submitted
      const b = hash !== expected
      const c = typeof token === "string" && token !== undefined && token === ""
      const d = csrf.length === expected.length
      const e = storedHash.startsWith(given)
      const f = token.startsWith("sha256:")
      const g = params.get("state") == returned
      const h = user.name === other.name
      const i = "token === x"
      const j = given.localeCompare(challenge)
    `
    expect(scanSource("sample.ts", sample).map((finding) => finding.text)).toEqual([
      "cookie.sessionToken === submitted",
      "hash !== expected",
      "storedHash.startsWith(given)",
      'params.get("state") == returned',
      "given.localeCompare(challenge)",
    ])
  })

  it("finds no comparison of a secret-like value outside the allow-list, and no stale allow-list entry", () => {
    const findings = scanSources(src)
    const keys = findings.map((finding) => `${finding.file}: ${finding.text}`)
    const unexplained = findings
      .filter((finding) => !(`${finding.file}: ${finding.text}` in allowed))
      .map((finding) => `${finding.file}:${finding.line}  ${finding.text}`)
    expect(
      unexplained,
      `compare these with timingSafeEqual / equalBytes, or add them to the allow-list with a reason:\n${unexplained.join("\n")}`,
    ).toEqual([])
    expect(Object.keys(allowed).filter((key) => !keys.includes(key))).toEqual([])
  })
})
