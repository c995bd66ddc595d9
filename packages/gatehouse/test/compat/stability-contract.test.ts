/**
 * STABILITY.md's lists of what is public, held to the code: its entry points are the `exports`
 * map, its routes are the router's actions (and the two-factor routes below one), its cookies are
 * the names the library sets, with the prefixes it gives them on https. Adding an export, a route
 * or a cookie without writing it into the promise (or the reverse) fails here.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { defaultCookies } from "../../src/cookies/defaults.js"
import { isAuthAction, isTwoFactorSubPath, type AuthAction, type TwoFactorSubPath } from "../../src/core/auth-action.js"

const STABILITY = readFileSync(new URL("../../../../STABILITY.md", import.meta.url), "utf8")
const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> }

/** The rows of the table under `### heading`: each cell's text. */
function tableRows(heading: string): string[][] {
  const start = STABILITY.indexOf(`\n### ${heading}\n`)
  if (start === -1) throw new Error(`STABILITY.md has no section "### ${heading}"`)
  const next = STABILITY.slice(start + 1).search(/\n#{2,3} /)
  const section = STABILITY.slice(start, next === -1 ? undefined : start + 1 + next)
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    )
}

/** The text of a cell's first code span. */
function code(cell: string | undefined): string {
  const found = /`([^`]+)`/.exec(cell ?? "")
  if (!found) throw new Error(`no code span in "${cell}"`)
  return found[1]!
}

/**
 * Every action and two-factor route, as an exhaustive record: a new member of either union that is
 * missing here fails the test type-check, and then the comparison with STABILITY.md below.
 */
const ACTIONS: Record<AuthAction, true> = {
  accounts: true,
  admin: true,
  "backchannel-logout": true,
  callback: true,
  csrf: true,
  error: true,
  link: true,
  organizations: true,
  providers: true,
  session: true,
  sessions: true,
  signin: true,
  signout: true,
  "two-factor": true,
  "verify-request": true,
  "webauthn-options": true,
}
const TWO_FACTOR_ROUTES: Record<TwoFactorSubPath, true> = { totp: true, "totp/confirm": true, "recovery-codes": true, disable: true, status: true }

describe("STABILITY.md, held to the code", () => {
  it("lists as entry points exactly the package's exports map", () => {
    const listed = tableRows("Entry points").map(([entry]) => code(entry))
    const exported = Object.keys(manifest.exports).map((subpath) => `gatehouse-auth${subpath.slice(1)}`)
    expect(listed.length).toBeGreaterThan(20)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed].sort()).toEqual([...exported].sort())
  })

  it("lists as routes exactly the actions the router serves and the two-factor routes", () => {
    const listed = tableRows("Routes").map(([route]) => code(route))
    for (const route of listed) {
      const [action, ...rest] = route.split("/")
      expect(isAuthAction(action!), route).toBe(true)
      if (rest.length > 0) expect(action === "two-factor" && isTwoFactorSubPath(rest.join("/")), route).toBe(true)
    }
    const served = [...Object.keys(ACTIONS), ...Object.keys(TWO_FACTOR_ROUTES).map((sub) => `two-factor/${sub}`)]
    expect(served.every((route) => route.includes("/") ? isTwoFactorSubPath(route.slice("two-factor/".length)) : isAuthAction(route))).toBe(true)
    expect([...listed].sort()).toEqual(served.sort())
  })

  it("lists as cookies exactly the names the library sets, with the prefix each takes on https", () => {
    const listed = tableRows("Cookies").map(([name, prefix]) => ({ name: code(name), prefix: code(prefix) }))
    const plain = Object.values(defaultCookies(false)).map((cookie) => cookie.name)
    const secure = Object.values(defaultCookies(true)).map((cookie) => cookie.name)
    expect(listed.map(({ name }) => name).sort()).toEqual([...plain].sort())
    expect(listed.map(({ name, prefix }) => `${prefix}${name}`).sort()).toEqual([...secure].sort())
  })

  it("is linked from the README", () => {
    const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8")
    expect(readme).toContain("(STABILITY.md)")
  })
})
