/**
 * Which passwords are hashed at all: the length bound (which bounds the work a request can
 * cause), emptiness and well-formed Unicode. The Web build's PBKDF2 keeps these quick; both
 * builds share the check.
 */
import { describe, expect, it } from "vitest"
import { hashPassword, MAX_PASSWORD_LENGTH, PasswordInputError, verifyPassword } from "../../src/password/index.js"
import * as nodeBuild from "../../src/password/node.js"
import { pbkdf2HashString } from "./independent-hashes.js"

// U+FDFA is a single character whose NFKC form is 18 characters long.
const LONG_LIGATURE = "\ufdfa"

describe("hashPassword's input", () => {
  it("is at most 1024 characters", () => {
    expect(MAX_PASSWORD_LENGTH).toBe(1024)
  })

  it.each([
    ["an empty password", "", "empty"],
    ["a password of 1025 characters", "a".repeat(1025), "too-long"],
    ["a password of a megabyte", "a".repeat(2 ** 20), "too-long"],
    ["57 characters that normalize to 1026", LONG_LIGATURE.repeat(57), "too-long"],
    ["a lone high surrogate", "pass\ud800word", "ill-formed-unicode"],
    ["a lone low surrogate", "\udc00password", "ill-formed-unicode"],
    ["undefined", undefined, "not-a-string"],
    ["a number", 12345678, "not-a-string"],
  ])("refuses %s with a PasswordInputError", async (_name, password, reason) => {
    for (const build of [hashPassword, nodeBuild.hashPassword]) {
      const refusal = build(password as string)
      await expect(refusal).rejects.toBeInstanceOf(PasswordInputError)
      await expect(refusal).rejects.toMatchObject({ name: "PasswordInputError", reason })
    }
  })

  it("accepts exactly 1024 characters, and counts them after normalization", async () => {
    const longest = "a".repeat(1024)
    expect(await verifyPassword(longest, await hashPassword(longest))).toBe(true)
    // 56 ligatures normalize to 1008 characters.
    const ligatures = LONG_LIGATURE.repeat(56)
    expect(await verifyPassword(ligatures, await hashPassword(ligatures))).toBe(true)
  })

  it("accepts a password typed in decomposed form though it is longer before normalization", async () => {
    // U+1F82 decomposes to four code units: 1000 of them are 4000 units typed, 1000 once composed.
    const composed = "\u1f82".repeat(1000)
    const decomposed = composed.normalize("NFD")
    expect(decomposed).toHaveLength(4000)
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true)
  })

  it("accepts surrogate pairs, which are well-formed", async () => {
    const emoji = "🔑 passphrase 🦄"
    expect(await verifyPassword(emoji, await hashPassword(emoji))).toBe(true)
  })
})

describe("verifyPassword's input", () => {
  const hash = pbkdf2HashString("a".repeat(1024), 1_000)

  it("answers false, never throwing, for a password hashPassword would refuse", async () => {
    const refused: unknown[] = ["", "a".repeat(1025), "a".repeat(2 ** 20), "pass\ud800word", undefined, null, 42, { toString: () => "a" }]
    const results = await Promise.all(refused.map((password) => verifyPassword(password as string, hash)))
    expect(results).toEqual(refused.map(() => false))
    expect(await nodeBuild.verifyPassword(undefined as unknown as string, hash)).toBe(false)
  })

  it("still verifies the longest accepted password", async () => {
    expect(await verifyPassword("a".repeat(1024), hash)).toBe(true)
  })
})
