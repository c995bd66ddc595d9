/**
 * What verifyPassword and needsRehash make of stored strings that were changed, are not ours, or
 * were written to cost the server dearly. Strings come from node:crypto at low cost (ln=10,
 * i=1000) so that every change can be tried quickly.
 */
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { needsRehash, PasswordHashError, verifyPassword } from "../../src/password/node.js"
import * as webBuild from "../../src/password/index.js"
import { b64, fieldsOf, pbkdf2HashString, scryptHashString, withField } from "./independent-hashes.js"

const password = "hunter2 but longer"
const scryptHash = scryptHashString(password, { ln: 10, r: 8, p: 1 })
const pbkdf2Hash = pbkdf2HashString(password, 1_000)

/** The same base64 text with one character changed to another base64 character. */
function flipCharacter(text: string, index: number): string {
  const swapped = text[index] === "A" ? "B" : "A"
  return text.slice(0, index) + swapped + text.slice(index + 1)
}

async function refusal(hash: unknown): Promise<PasswordHashError> {
  const error: unknown = await verifyPassword(password, hash as string).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(PasswordHashError)
  // needsRehash reads strings the same way, without deriving anything.
  expect(() => needsRehash(hash as string)).toThrow(PasswordHashError)
  return error as PasswordHashError
}

describe("a stored hash string that was tampered with", () => {
  it("fails to verify the right password once any scrypt parameter changes", async () => {
    expect(await verifyPassword(password, scryptHash)).toBe(true)
    const changed = ["ln=9,r=8,p=1", "ln=11,r=8,p=1", "ln=10,r=7,p=1", "ln=10,r=9,p=1", "ln=10,r=8,p=2"]
    const results = await Promise.all(changed.map((parameters) => verifyPassword(password, withField(scryptHash, "parameters", parameters))))
    expect(results).toEqual(changed.map(() => false))
  })

  it("fails to verify the right password once the PBKDF2 iteration count changes", async () => {
    expect(await verifyPassword(password, pbkdf2Hash)).toBe(true)
    const results = await Promise.all(["i=999", "i=1001", "i=2000"].map((parameters) => verifyPassword(password, withField(pbkdf2Hash, "parameters", parameters))))
    expect(results).toEqual([false, false, false])
  })

  it("fails to verify once any character of the salt or key changes", async () => {
    const { salt, key } = fieldsOf(scryptHash)
    const changed = [
      ...[0, 10, salt.length - 2].map((index) => withField(scryptHash, "salt", flipCharacter(salt, index))),
      ...[0, 20, key.length - 2].map((index) => withField(scryptHash, "key", flipCharacter(key, index))),
    ]
    expect(await Promise.all(changed.map((hash) => verifyPassword(password, hash)))).toEqual(changed.map(() => false))
  })

  it("fails to verify once the salt is cut short, and refuses a salt under 8 bytes", async () => {
    const { salt } = fieldsOf(pbkdf2Hash)
    expect(await verifyPassword(password, withField(pbkdf2Hash, "salt", salt.slice(0, 12)))).toBe(false)
    expect((await refusal(withField(pbkdf2Hash, "salt", b64(randomBytes(7))))).reason).toBe("parameters-out-of-range")
  })

  it("refuses a key of any length but 32 bytes, since a key cut short would still match as a prefix", async () => {
    const { key } = fieldsOf(pbkdf2Hash)
    expect((await refusal(withField(pbkdf2Hash, "key", key.slice(0, 32)))).reason).toBe("parameters-out-of-range")
    expect((await refusal(withField(pbkdf2Hash, "key", b64(randomBytes(64))))).reason).toBe("parameters-out-of-range")
  })

  it("refuses a base64 field whose unused low bits were set, an otherwise equal spelling of the same bytes", async () => {
    const { salt } = fieldsOf(scryptHash)
    // 16 bytes are 22 characters; the last one carries 2 bits of data and 4 spare bits.
    const spare = salt.slice(0, -1) + String.fromCharCode(salt.charCodeAt(salt.length - 1) + 1)
    expect(Buffer.from(spare, "base64")).toEqual(Buffer.from(salt, "base64"))
    expect((await refusal(withField(scryptHash, "salt", spare))).reason).toBe("malformed")
  })

  it("refuses a swapped algorithm name as malformed", async () => {
    expect((await refusal(withField(scryptHash, "id", "pbkdf2-sha256"))).reason).toBe("malformed")
    expect((await refusal(withField(pbkdf2Hash, "id", "scrypt"))).reason).toBe("malformed")
  })
})

describe("a stored string that is not a hash of ours", () => {
  const { salt, key } = fieldsOf(scryptHash)
  const malformed: Array<[string, unknown]> = [
    ["an empty string", ""],
    ["a bare algorithm name", "scrypt"],
    ["the demo's earlier scrypt$N$r$p$salt$key layout", `scrypt$131072$8$1$${salt}==$${key}=`],
    ["a hash without parameters, salt or key", "$scrypt"],
    ["a hash without salt or key", "$scrypt$ln=10,r=8,p=1"],
    ["a hash without its key", `$scrypt$ln=10,r=8,p=1$${salt}`],
    ["an empty key", `$scrypt$ln=10,r=8,p=1$${salt}$`],
    ["an empty salt", `$scrypt$ln=10,r=8,p=1$$${key}`],
    ["an extra field", `${scryptHash}$extra`],
    ["a version field", `$scrypt$v=1$ln=10,r=8,p=1$${salt}$${key}`],
    ["padded base64", `$scrypt$ln=10,r=8,p=1$${salt}==$${key}`],
    ["base64url characters", `$scrypt$ln=10,r=8,p=1$${salt.replace(/.$/, "_")}$${key}`],
    ["whitespace around it", ` ${scryptHash}\n`],
    ["an upper-case algorithm name", scryptHash.replace("$scrypt$", "$SCRYPT$")],
    ["parameters out of order", withField(scryptHash, "parameters", "r=8,ln=10,p=1")],
    ["a repeated parameter", withField(scryptHash, "parameters", "ln=10,ln=10,r=8,p=1")],
    ["a missing parameter", withField(scryptHash, "parameters", "ln=10,r=8")],
    ["an unknown parameter", withField(scryptHash, "parameters", "ln=10,r=8,p=1,x=1")],
    ["a leading zero", withField(scryptHash, "parameters", "ln=010,r=8,p=1")],
    ["a plus sign", withField(scryptHash, "parameters", "ln=+10,r=8,p=1")],
    ["a negative number", withField(scryptHash, "parameters", "ln=-10,r=8,p=1")],
    ["a fraction", withField(pbkdf2Hash, "parameters", "i=1000.5")],
    ["a number over 15 digits", withField(pbkdf2Hash, "parameters", `i=1${"0".repeat(15)}`)],
    ["passlib's own pbkdf2 layout (no i=)", withField(pbkdf2Hash, "parameters", "29000")],
    ["a key length that does not match the key", withField(pbkdf2Hash, "parameters", "i=1000,l=64")],
    ["a very long string", `$scrypt$ln=10,r=8,p=1$${"A".repeat(100_000)}$${key}`],
    ["a number", 42],
    ["null", null],
  ]

  it.each(malformed)("throws a malformed PasswordHashError for %s", async (_name, hash) => {
    expect((await refusal(hash)).reason).toBe("malformed")
  })

  it.each([
    ["bcrypt", "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"],
    ["argon2id", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"],
    ["sha512-crypt", "$6$rounds=5000$saltsalt$abc"],
  ])("throws an unknown-algorithm PasswordHashError naming %s hashes", async (_name, hash) => {
    const error = await refusal(hash)
    expect(error.reason).toBe("unknown-algorithm")
    expect(error.message).toContain(`"${hash.split("$")[1]}"`)
  })

  it("keeps the salt and key out of error messages, which end up in logs", async () => {
    const errors = await Promise.all([
      refusal(withField(scryptHash, "parameters", "ln=40,r=8,p=1")),
      refusal(withField(scryptHash, "parameters", "r=8,ln=10,p=1")),
      refusal(withField(scryptHash, "id", "argon2id")),
      refusal(withField(scryptHash, "key", key.slice(0, 30))),
    ])
    for (const error of errors) {
      expect(error.message).not.toContain(salt)
      expect(error.message).not.toContain(key.slice(0, 30))
    }
  })
})

describe("a stored string with hostile parameters", () => {
  // Each would stall the server or exhaust its memory if derived; a test that hangs or crashes
  // here is the failure. needsRehash never derives, and refusal() checks it throws the same.
  const hostile: Array<[string, string]> = [
    ["ln=40 (128 TiB)", withField(scryptHash, "parameters", "ln=40,r=8,p=1")],
    ["ln beyond any number", withField(scryptHash, "parameters", "ln=999999999999999,r=8,p=1")],
    ["ln=18, r=16 (512 MiB)", withField(scryptHash, "parameters", "ln=18,r=16,p=1")],
    ["ln=12, r=100000 (48 GiB)", withField(scryptHash, "parameters", "ln=12,r=100000,p=1")],
    ["p=64 (64 times the default work)", withField(scryptHash, "parameters", "ln=17,r=8,p=64")],
    ["ln=0", withField(scryptHash, "parameters", "ln=0,r=8,p=1")],
    ["r=0", withField(scryptHash, "parameters", "ln=10,r=0,p=1")],
    ["p=0", withField(scryptHash, "parameters", "ln=10,r=8,p=0")],
    ["i=10^12", withField(pbkdf2Hash, "parameters", "i=1000000000000")],
    ["i=6,000,001", withField(pbkdf2Hash, "parameters", "i=6000001")],
    ["i=0", withField(pbkdf2Hash, "parameters", "i=0")],
    ["a 65-byte salt", withField(pbkdf2Hash, "salt", b64(randomBytes(65)))],
  ]

  it.each(hostile)("refuses %s before deriving anything", async (_name, hash) => {
    expect((await refusal(hash)).reason).toBe("parameters-out-of-range")
    // The Web build reads strings with the same bounds.
    expect(() => webBuild.needsRehash(hash)).toThrow(/out of range/)
  })

  it("still accepts the largest scrypt cost within the bounds (twice the default memory)", () => {
    expect(needsRehash(withField(scryptHash, "parameters", "ln=18,r=8,p=1"))).toBe(false)
    expect(needsRehash(withField(scryptHash, "parameters", "ln=17,r=8,p=4"))).toBe(false)
  })
})
