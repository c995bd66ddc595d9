/**
 * What a sign-in page ships of the browser client, bundled from the built package as an app's
 * bundler would (esbuild: bundle, minify, ESM, browser; gzip -9, as bench/scenarios/size.ts):
 * the base client stays within its budget because the passkey ceremony is in
 * `gatehouse-auth/webauthn` alone. A size check, not a timing.
 */
import { build } from "esbuild"
import { gzipSync } from "node:zlib"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/** The base client's budget, gzipped: 1.5 KB (issue 36), read as 1,500 bytes. */
const BASE_CLIENT_BUDGET = 1_500

const workspace = fileURLToPath(new URL("../../../../", import.meta.url))

/** `entry` bundled (imports resolved through the package's exports map, i.e. its dist/). */
async function bundle(entry: string, external: string[] = []): Promise<{ code: string; gzip: number }> {
  const result = await build({
    stdin: { contents: entry, resolveDir: workspace, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    external,
    write: false,
    logLevel: "silent",
  })
  const bytes = result.outputFiles[0]!.contents
  return { code: new TextDecoder().decode(bytes), gzip: gzipSync(bytes, { level: 9 }).length }
}

/** The second-factor client's budget, gzipped, bundled alone. */
const TWO_FACTOR_CLIENT_BUDGET = 1_200

/** Marks of the second-factor helpers in a bundle: their routes. */
const TWO_FACTOR = [/\/totp\/confirm/, /\/recovery-codes/]

/** The organizations client's budget, gzipped, bundled alone. */
const ORGANIZATIONS_CLIENT_BUDGET = 1_600

/** Marks of the organization helpers in a bundle: their routes. */
const ORGANIZATIONS = [/\/organizations/, /\/members/]

/** Marks of the passkey ceremony in a bundle: its options route and the browser's WebAuthn API. */
const CEREMONY = [/webauthn-options/, /navigator\.credentials/, /parseRequestOptionsFromJSON/]

describe("the browser client a sign-in page loads", () => {
  it(`is at most ${BASE_CLIENT_BUDGET} bytes gzipped for signIn and signOut of gatehouse-auth/client, without the passkey ceremony`, async () => {
    const { code, gzip } = await bundle(`export { signIn, signOut } from "gatehouse-auth/client"`)
    for (const mark of CEREMONY) expect(code).not.toMatch(mark)
    expect(gzip).toBeGreaterThan(200)
    expect(gzip).toBeLessThanOrEqual(BASE_CLIENT_BUDGET)
  })

  it("keeps the ceremony out of the React bindings too", async () => {
    const { code } = await bundle(`export { SessionProvider, useSession, signIn, signOut } from "gatehouse-auth/react"`, ["react", "react/*"])
    for (const mark of CEREMONY) expect(code).not.toMatch(mark)
  })

  it("leaves the second-factor helpers to gatehouse-auth/client/two-factor, which bundles alone within 1.2 KB", async () => {
    const base = await bundle(`export * from "gatehouse-auth/client"`)
    for (const mark of TWO_FACTOR) expect(base.code).not.toMatch(mark)
    const twoFactor = await bundle(`export * from "gatehouse-auth/client/two-factor"`)
    for (const mark of TWO_FACTOR) expect(twoFactor.code).toMatch(mark)
    for (const mark of CEREMONY) expect(twoFactor.code).not.toMatch(mark)
    expect(twoFactor.gzip).toBeLessThanOrEqual(TWO_FACTOR_CLIENT_BUDGET)
  })

  it("leaves the organization helpers to gatehouse-auth/client/organizations, which bundles alone within 1.6 KB", async () => {
    const base = await bundle(`export * from "gatehouse-auth/client"`)
    for (const mark of ORGANIZATIONS) expect(base.code).not.toMatch(mark)
    const organizations = await bundle(`export * from "gatehouse-auth/client/organizations"`)
    for (const mark of ORGANIZATIONS) expect(organizations.code).toMatch(mark)
    for (const mark of [...CEREMONY, ...TWO_FACTOR]) expect(organizations.code).not.toMatch(mark)
    expect(organizations.gzip).toBeLessThanOrEqual(ORGANIZATIONS_CLIENT_BUDGET)
    // What a page that only hides buttons carries: can alone, without the route helpers.
    const canAlone = await bundle(`export { can } from "gatehouse-auth/client/organizations"`)
    for (const mark of ORGANIZATIONS) expect(canAlone.code).not.toMatch(mark)
    expect(canAlone.gzip).toBeLessThan(300)
  })

  it("has the ceremony in gatehouse-auth/webauthn, bundled alone", async () => {
    const { code } = await bundle(`export { signIn } from "gatehouse-auth/webauthn"`)
    for (const mark of CEREMONY) expect(code).toMatch(mark)
  })
})
