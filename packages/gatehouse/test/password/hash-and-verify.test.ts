/** Hashing and verifying on both builds, checked against node:crypto computing the same keys. */
import { pbkdf2Sync, scryptSync } from "node:crypto"
import { beforeAll, describe, expect, it } from "vitest"
import * as nodeBuild from "../../src/password/node.js"
import * as webBuild from "../../src/password/index.js"
import { b64, fieldsOf, pbkdf2HashString, scryptHashString } from "./independent-hashes.js"

const password = "correct horse battery staple"

const builds = [
  { name: "the Node build", build: nodeBuild, format: /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/ },
  { name: "the Web Crypto build", build: webBuild, format: /^\$pbkdf2-sha256\$i=600000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/ },
] as const

/** The key node:crypto derives from a hash string's own salt with the default parameters. */
function independentKey(hash: string, text: string): string {
  const { id, salt } = fieldsOf(hash)
  const bytes = Buffer.from(text, "utf8")
  const saltBytes = Buffer.from(salt, "base64")
  return b64(
    id === "scrypt"
      ? scryptSync(bytes, saltBytes, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 2 ** 20 })
      : pbkdf2Sync(bytes, saltBytes, 600_000, 32, "sha256"),
  )
}

describe.each(builds)("$name", ({ build, format }) => {
  let hashes: string[]
  beforeAll(async () => {
    hashes = await Promise.all([build.hashPassword(password), build.hashPassword(password)])
  })

  it("verifies the password it hashed and refuses any other", async () => {
    const [hash] = hashes as [string]
    expect(await build.verifyPassword(password, hash)).toBe(true)
    expect(await build.verifyPassword("Correct horse battery staple", hash)).toBe(false)
    expect(await build.verifyPassword(`${password} `, hash)).toBe(false)
  })

  it("writes a PHC string naming the algorithm and its default parameters, with a 16-byte salt and a 32-byte key", () => {
    for (const hash of hashes) expect(hash).toMatch(format)
  })

  it("salts every hash afresh, so one password never hashes the same way twice", () => {
    const [one, two] = hashes.map(fieldsOf) as [ReturnType<typeof fieldsOf>, ReturnType<typeof fieldsOf>]
    expect(one.salt).not.toBe(two.salt)
    expect(one.key).not.toBe(two.key)
  })

  it("stores the key node:crypto derives from the same password and salt", () => {
    const [hash] = hashes as [string]
    expect(fieldsOf(hash).key).toBe(independentKey(hash, password))
  })

  it("verifies a PBKDF2 hash node:crypto made, with whatever iteration count it names", async () => {
    const hash = pbkdf2HashString(password, 1_000)
    expect(await build.verifyPassword(password, hash)).toBe(true)
    expect(await build.verifyPassword("wrong", hash)).toBe(false)
  })

  it("verifies a PBKDF2 hash that also states its key length (RustCrypto's l=32)", async () => {
    const hash = pbkdf2HashString(password, 1_000).replace("$i=1000$", "$i=1000,l=32$")
    expect(await build.verifyPassword(password, hash)).toBe(true)
  })

  it("treats composed and decomposed spellings, and compatibility forms, as the same password", async () => {
    // "é" as one code point and as "e" + combining acute; full-width digits and their ASCII twins.
    const composed = "caf\u00e9 \uff11\uff12\uff13"
    const decomposed = "cafe\u0301 123"
    expect(composed).not.toBe(decomposed)
    const hash = pbkdf2HashString(composed.normalize("NFKC"), 1_000)
    expect(await build.verifyPassword(decomposed, hash)).toBe(true)
    expect(await build.verifyPassword(composed, hash)).toBe(true)
    expect(await build.verifyPassword("cafe 123", hash)).toBe(false)
  })
})

describe("the Node build", () => {
  it("verifies scrypt hashes node:crypto made with other parameters, so hashes outlive a change of defaults", async () => {
    const hashes = [scryptHashString(password, { ln: 14, r: 8, p: 1 }), scryptHashString(password, { ln: 12, r: 4, p: 2 })]
    expect(await Promise.all(hashes.map((hash) => nodeBuild.verifyPassword(password, hash)))).toEqual([true, true])
    expect(await Promise.all(hashes.map((hash) => nodeBuild.verifyPassword("wrong", hash)))).toEqual([false, false])
  })

  it("verifies passlib's documented scrypt example, since other tools write this format too", async () => {
    const passlib = "$scrypt$ln=16,r=8,p=1$aM15713r3Xsvxbi31lqr1Q$nFNh2CVHVjNldFVKDHDlm4CbdRSCdEBsjjJxD+iCs5E"
    expect(await nodeBuild.verifyPassword("password", passlib)).toBe(true)
  })

  it("hashes the NFKC form of the password", async () => {
    const hash = await nodeBuild.hashPassword("cafe\u0301")
    expect(fieldsOf(hash).key).toBe(independentKey(hash, "caf\u00e9"))
  })

  it("writes PBKDF2 hashes when asked, for hashes that Web-only runtimes must verify too", async () => {
    const hash = await nodeBuild.hashPassword(password, { algorithm: "pbkdf2-sha256" })
    expect(hash).toMatch(/^\$pbkdf2-sha256\$i=600000\$/)
    expect(fieldsOf(hash).key).toBe(independentKey(hash, password))
    expect(await webBuild.verifyPassword(password, hash)).toBe(true)
  })
})

describe("the Web Crypto build", () => {
  it("refuses scrypt hashes with a needs-node PasswordHashError rather than answering false", async () => {
    const hash = scryptHashString(password, { ln: 10, r: 8, p: 1 })
    const refusal = webBuild.verifyPassword(password, hash)
    await expect(refusal).rejects.toBeInstanceOf(webBuild.PasswordHashError)
    await expect(refusal).rejects.toMatchObject({ reason: "needs-node", message: expect.stringMatching(/node/i) })
  })

  it("refuses to write scrypt hashes", async () => {
    await expect(webBuild.hashPassword(password, { algorithm: "scrypt" })).rejects.toMatchObject({ name: "PasswordHashError", reason: "needs-node" })
  })
})
