/**
 * needsRehash: when a stored hash should be replaced at the next successful sign-in. It only
 * reads the string, so these strings carry random keys; nothing is derived.
 */
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import * as nodeBuild from "../../src/password/node.js"
import * as webBuild from "../../src/password/index.js"
import { b64 } from "./independent-hashes.js"

function stored(id: string, parameters: string, saltBytes = 16): string {
  return `$${id}$${parameters}$${b64(randomBytes(saltBytes))}$${b64(randomBytes(32))}`
}

const currentScrypt = stored("scrypt", "ln=17,r=8,p=1")
const currentPbkdf2 = stored("pbkdf2-sha256", "i=600000")

describe("needsRehash on Node, where new hashes are scrypt", () => {
  it("leaves a hash with the current scrypt parameters alone, and one with stronger parameters", () => {
    expect(nodeBuild.needsRehash(currentScrypt)).toBe(false)
    expect(nodeBuild.needsRehash(stored("scrypt", "ln=18,r=8,p=1"))).toBe(false)
    expect(nodeBuild.needsRehash(stored("scrypt", "ln=17,r=8,p=2"))).toBe(false)
    expect(nodeBuild.needsRehash(stored("scrypt", "ln=17,r=8,p=1", 32))).toBe(false)
  })

  it("asks for a rehash when any scrypt parameter or the salt is below the defaults", () => {
    expect(nodeBuild.needsRehash(stored("scrypt", "ln=16,r=8,p=1"))).toBe(true)
    expect(nodeBuild.needsRehash(stored("scrypt", "ln=17,r=4,p=1"))).toBe(true)
    // As much work as the default, but through a smaller N: still not the current parameters.
    expect(nodeBuild.needsRehash(stored("scrypt", "ln=16,r=8,p=2"))).toBe(true)
    expect(nodeBuild.needsRehash(stored("scrypt", "ln=17,r=8,p=1", 8))).toBe(true)
  })

  it("asks for PBKDF2 hashes, even with OWASP's iteration count, to become scrypt", () => {
    expect(nodeBuild.needsRehash(currentPbkdf2)).toBe(true)
    expect(nodeBuild.needsRehash(stored("pbkdf2-sha256", "i=1000000"))).toBe(true)
  })

  it("judges against PBKDF2 instead when told that is the algorithm new hashes use", () => {
    const options = { algorithm: "pbkdf2-sha256" } as const
    expect(nodeBuild.needsRehash(currentPbkdf2, options)).toBe(false)
    expect(nodeBuild.needsRehash(currentScrypt, options)).toBe(true)
    expect(nodeBuild.needsRehash(stored("pbkdf2-sha256", "i=100000"), options)).toBe(true)
  })
})

describe("needsRehash where only Web Crypto exists, where new hashes are PBKDF2", () => {
  it("leaves a hash with 600,000 iterations or more alone", () => {
    expect(webBuild.needsRehash(currentPbkdf2)).toBe(false)
    expect(webBuild.needsRehash(stored("pbkdf2-sha256", "i=1000000"))).toBe(false)
  })

  it("asks for a rehash below 600,000 iterations or with a short salt", () => {
    expect(webBuild.needsRehash(stored("pbkdf2-sha256", "i=599999"))).toBe(true)
    expect(webBuild.needsRehash(stored("pbkdf2-sha256", "i=310000"))).toBe(true)
    expect(webBuild.needsRehash(stored("pbkdf2-sha256", "i=600000", 12))).toBe(true)
  })

  it("flags scrypt hashes as another algorithm, though only Node can verify them", () => {
    expect(webBuild.needsRehash(currentScrypt)).toBe(true)
    expect(webBuild.needsRehash(currentScrypt, { algorithm: "scrypt" })).toBe(false)
  })
})

describe("the algorithm option", () => {
  it("refuses an algorithm it does not know, in hashPassword and needsRehash alike", async () => {
    const options = { algorithm: "argon2id" } as unknown as { algorithm: "scrypt" }
    expect(() => nodeBuild.needsRehash(currentScrypt, options)).toThrow(nodeBuild.PasswordHashError)
    await expect(nodeBuild.hashPassword("a password", options)).rejects.toMatchObject({ reason: "unknown-algorithm" })
    await expect(webBuild.hashPassword("a password", options)).rejects.toMatchObject({ reason: "unknown-algorithm" })
  })
})
