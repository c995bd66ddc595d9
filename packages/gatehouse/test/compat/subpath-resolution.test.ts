/**
 * Every subpath of the packed package resolves, with its types, under each of TypeScript's module
 * resolutions an application may use: `node10` (`moduleResolution: "node"`, which reads
 * `typesVersions`, as Auth.js's packages are found there), `node16` and `bundler` (which read
 * `exports`). An import that does not resolve is a compile error, so the file compiles or names it.
 */
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { typeCheck, type Resolution } from "../support/type-check.js"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))
const manifest = JSON.parse(readFileSync(`${packageDir}/package.json`, "utf8")) as { exports: Record<string, unknown> }

/** Every import specifier the exports map allows: each provider for `./providers/*`. */
const specifiers = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== "./package.json")
  .flatMap((subpath) =>
    subpath === "./providers/*"
      ? readdirSync(`${packageDir}/src/providers`)
          .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
          .map((file) => `gatehouse-auth/providers/${file.slice(0, -3)}`)
      : [`gatehouse-auth${subpath.slice(1)}`],
  )

describe("the package's subpaths under each module resolution", () => {
  it("has subpaths to check", () => {
    expect(specifiers).toContain("gatehouse-auth/next")
    expect(specifiers).toContain("gatehouse-auth/providers/github")
  })

  for (const resolution of ["node10", "node16", "bundler"] satisfies Resolution[]) {
    it(`resolves every subpath with its types under moduleResolution ${resolution}`, () => {
      const source = specifiers.map((specifier, index) => `import * as m${index} from "${specifier}"`).join("\n")
      const errors = typeCheck({ "imports.ts": `${source}\nexport const all: unknown[] = [${specifiers.map((_, index) => `m${index}`).join(", ")}]\n` }, resolution)
      expect(errors).toEqual([])
    })
  }
})
