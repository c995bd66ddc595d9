/**
 * The codemod's table of Auth.js modules against what it must agree with: every module the Auth.js
 * packages export is mapped or explained, every target is a module of this package's exports
 * map, and the README's "Coming from Auth.js" section lists exactly the table.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { AUTHJS_PACKAGES, SPECIFIER_MAPPINGS, UNMAPPED_SPECIFIERS } from "../../src/cli/authjs-mapping.js"
import { mapSpecifier, shippedProvider } from "../../src/cli/authjs-specifiers.js"

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> }
const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8")

/**
 * The subpaths each Auth.js package exports, from its package.json: @auth/core's read from the
 * installed dev dependency, the others as published (next-auth 5.0.0-beta.32, @auth/express
 * 0.12.3, @auth/sveltekit 1.11.3, @auth/solid-start 0.19.2), which the workspace does not install.
 */
// @auth/core exports no ./package.json: found through its main module instead.
const coreManifest = join(dirname(createRequire(import.meta.url).resolve("@auth/core")), "package.json")
const coreExports = Object.keys((JSON.parse(readFileSync(coreManifest, "utf8")) as { exports: Record<string, unknown> }).exports)
const AUTHJS_EXPORTS: Record<string, string[]> = {
  "@auth/core": coreExports,
  "next-auth": [".", "./adapters", "./jwt", "./middleware", "./next", "./package.json", "./providers", "./providers/*", "./react", "./webauthn"],
  "@auth/express": [".", "./adapters", "./package.json", "./providers", "./providers/*"],
  "@auth/sveltekit": [".", "./adapters", "./client", "./components", "./package.json", "./providers", "./providers/*", "./webauthn"],
  "@auth/solid-start": [".", "./adapters", "./client", "./providers", "./providers/*"],
}

/** `gatehouse-auth/x` → the exports map's key `./x`. */
function exportKey(specifier: string): string {
  return specifier === "gatehouse-auth" ? "." : `.${specifier.slice("gatehouse-auth".length)}`
}

describe("the Auth.js mapping table", () => {
  it("covers every package it replaces and no other", () => {
    expect(Object.keys(AUTHJS_EXPORTS).sort()).toEqual([...AUTHJS_PACKAGES].sort())
  })

  it("maps or explains every module each Auth.js package exports", () => {
    const explained = new Set([...SPECIFIER_MAPPINGS.map((mapping) => mapping.from), ...UNMAPPED_SPECIFIERS.map((entry) => entry.from)])
    const missing = Object.entries(AUTHJS_EXPORTS).flatMap(([name, subpaths]) =>
      subpaths.filter((subpath) => subpath !== "./package.json").map((subpath) => (subpath === "." ? name : `${name}${subpath.slice(1)}`)).filter((specifier) => !explained.has(specifier)),
    )
    expect(missing).toEqual([])
    expect(coreExports).toContain("./providers/*")
  })

  it("maps only to modules of this package's exports map", () => {
    const unknown = SPECIFIER_MAPPINGS.map((mapping) => exportKey(mapping.to)).filter((key) => !(key in manifest.exports))
    expect(unknown).toEqual([])
  })

  it("has each Auth.js specifier once", () => {
    const froms = [...SPECIFIER_MAPPINGS.map((mapping) => mapping.from), ...UNMAPPED_SPECIFIERS.map((entry) => entry.from)]
    expect(new Set(froms).size).toBe(froms.length)
  })

  it("maps a provider of every Auth.js package to the same file name, when Gatehouse ships that provider", () => {
    expect(shippedProvider("github")).toBe(true)
    expect(shippedProvider("types")).toBe(true)
    expect(shippedProvider("no-such-provider")).toBe(false)
    for (const name of AUTHJS_PACKAGES) expect(mapSpecifier(`${name}/providers/github`, shippedProvider)).toEqual({ to: "gatehouse-auth/providers/github" })
    expect(mapSpecifier("@auth/core/providers/no-such-provider", shippedProvider)).toEqual({ unmapped: 'Gatehouse has no provider module "no-such-provider"' })
  })
})

describe("the README's Coming from Auth.js section", () => {
  const section = readme.slice(readme.indexOf("## Coming from Auth.js\n"), readme.indexOf("\n## ", readme.indexOf("## Coming from Auth.js\n") + 1))

  it("starts with the codemod", () => {
    const firstCode = /```sh\n([\s\S]*?)```/.exec(section)?.[1]
    expect(firstCode).toContain("npx gatehouse-auth migrate-from-authjs --dry-run\nnpx gatehouse-auth migrate-from-authjs\n")
  })

  it("lists exactly the table's mappings, in its order", () => {
    const rows = [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| (.*?) *\|$/gm)].map((match) => ({ from: match[1], to: match[2], note: match[3] || undefined }))
    expect(rows).toEqual(SPECIFIER_MAPPINGS.map((mapping) => ({ from: mapping.from, to: mapping.to, note: mapping.note })))
  })

  it("names every module it does not map", () => {
    for (const entry of UNMAPPED_SPECIFIERS) expect(section).toContain(`\`${entry.from}\``)
  })
})
