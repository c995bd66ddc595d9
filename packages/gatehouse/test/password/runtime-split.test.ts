/**
 * The two builds behind `gatehouse-auth/password`: package.json's `node` condition picks the scrypt
 * build, every other runtime the Web Crypto one, and the latter must load where `node:` does not.
 */
import { readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import * as nodeBuild from "../../src/password/node.js"
import * as webBuild from "../../src/password/index.js"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))
const src = join(packageDir, "src")

/** Every source file `entry` reaches through relative imports, and the bare specifiers it names. */
function importGraph(entry: string): { files: string[]; specifiers: string[] } {
  const files = new Set<string>()
  const specifiers = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const code = readFileSync(file, "utf8")
    // Type-only imports vanish from the output, so they cannot pull a module in.
    for (const match of code.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^"']*?from\s*["']([^"']+)["']/gm)) {
      const specifier = match[1]!
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier).replace(/\.js$/, ".ts"))
      else specifiers.add(specifier)
    }
  }
  visit(join(src, entry))
  return { files: [...files].map((file) => relative(src, file)).sort(), specifiers: [...specifiers].sort() }
}

describe("gatehouse-auth/password's builds", () => {
  it("export the same names, and the same error classes", () => {
    expect(Object.keys(nodeBuild).sort()).toEqual(Object.keys(webBuild).sort())
    expect(Object.keys(webBuild).sort()).toEqual([
      "MAX_PASSWORD_LENGTH", "PasswordHashError", "PasswordInputError", "getPasswordHashingConcurrency", "hashPassword", "needsRehash",
      "setPasswordHashingConcurrency", "verifyPassword",
    ])
    expect(nodeBuild.PasswordHashError).toBe(webBuild.PasswordHashError)
    expect(nodeBuild.PasswordInputError).toBe(webBuild.PasswordInputError)
  })

  it("keep node: modules out of the Web Crypto build and everything it imports", () => {
    const web = importGraph("password/index.ts")
    expect(web.files).toContain("password/pbkdf2.ts")
    expect(web.files.filter((file) => file.startsWith("password/node"))).toEqual([])
    expect(web.specifiers).toEqual([])
  })

  it("share parsing and PBKDF2 between the builds, so only the Node build reaches node:crypto", () => {
    const node = importGraph("password/node.ts")
    const shared = ["password/phc.ts", "password/parameters.ts", "password/password-input.ts", "password/hashing.ts", "password/pbkdf2.ts", "password/derivation-limit.ts"]
    expect(importGraph("password/index.ts").files).toEqual(expect.arrayContaining(shared))
    expect(node.files).toEqual(expect.arrayContaining([...shared, "password/node-scrypt.ts", "password/node-concurrency.ts"]))
    expect(node.specifiers).toEqual(["node:crypto", "node:os"])
  })

  it("are mapped in package.json: types first, then node to the scrypt build, then the Web Crypto default", () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { exports: Record<string, unknown> }
    expect(manifest.exports["./password"]).toEqual({
      types: "./dist/password/index.d.ts",
      node: "./dist/password/node.js",
      default: "./dist/password/index.js",
    })
    expect(Object.keys(manifest.exports["./password"] as object)).toEqual(["types", "node", "default"])
  })
})
