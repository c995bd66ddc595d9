/**
 * Every sign-in becomes a session in one place (issue 37): a second factor that "no sign-in route
 * can skip" holds only while no route issues a session, fires `signIn` or raises `aal` by itself.
 * The guard reads the source: a new route that calls `issueSession` directly fails here, before
 * any matrix test has been written for it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const SRC = fileURLToPath(new URL("../../src/", import.meta.url))

/** Every TypeScript source file under src/, as [path relative to src/ with "/", text]. */
function sources(dir = SRC): [string, string][] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    if (!/\.(ts|tsx|svelte)$/.test(name)) return []
    return [[relative(SRC, path).split(sep).join("/"), readFileSync(path, "utf8")] as [string, string]]
  })
}

/** The files in which `pattern` occurs (outside its own definition in `definedIn`). */
function filesWith(pattern: RegExp, definedIn?: { file: string; definition: RegExp }): string[] {
  return sources()
    .filter(([file, text]) => {
      const lines = text.split("\n").filter((line) => pattern.test(line))
      const uses = definedIn && file === definedIn.file ? lines.filter((line) => !definedIn.definition.test(line)) : lines
      return uses.length > 0
    })
    .map(([file]) => file)
    .sort()
}

describe("the sign-in choke point", () => {
  it("reads the whole source tree (the guard is not vacuous)", () => {
    const files = sources().map(([file]) => file)
    expect(files).toContain("core/sign-in-session.ts")
    expect(files).toContain("core/complete-sign-in.ts")
    expect(files.length).toBeGreaterThan(100)
  })

  it("issueSession( is called only by core/sign-in-session.ts", () => {
    expect(filesWith(/\bissueSession\(/, { file: "core/sessions/index.ts", definition: /export function issueSession\(/ })).toEqual(["core/sign-in-session.ts"])
  })

  it("the session-issuing helpers of the choke point are called only there and by core/two-factor/complete.ts", () => {
    for (const helper of [/\bsessionCookies\(/, /\bsignedIn\(/]) {
      expect(filesWith(helper), String(helper)).toEqual(["core/sign-in-session.ts", "core/two-factor/complete.ts"])
    }
  })

  it('the signIn event is emitted only by core/sign-in-session.ts', () => {
    expect(filesWith(/emitEvent\([^)]*["']signIn["']/)).toEqual(["core/sign-in-session.ts"])
  })

  it("every first-factor route goes through startSignedInSession", () => {
    expect(filesWith(/\bstartSignedInSession\(/, { file: "core/sign-in-session.ts", definition: /export async function startSignedInSession\(/ })).toEqual([
      "core/actions/callback-credentials.ts",
      "core/complete-sign-in.ts",
    ])
  })

  it("a standing session is raised only by core/two-factor/raise.ts (step-up, enrolment)", () => {
    expect(filesWith(/\braiseJwtSession\(/, { file: "core/sessions/jwt-strategy.ts", definition: /export function raiseJwtSession\(/ })).toEqual(["core/two-factor/raise.ts"])
    const writers = filesWith(/["']updateSessionAuthentication["']\s*,\s*[^\]]/).filter((file) => !file.startsWith("testing/"))
    expect(writers).toEqual(["core/two-factor/raise.ts"])
  })

  it("aal 2 is written only under core/two-factor/ (shipped conformance tests aside)", () => {
    const writers = filesWith(/\baal:\s*2\b/).filter((file) => !file.startsWith("testing/"))
    expect(writers.length).toBeGreaterThan(0)
    for (const file of writers) expect(file).toMatch(/^core\/two-factor\//)
  })
})
