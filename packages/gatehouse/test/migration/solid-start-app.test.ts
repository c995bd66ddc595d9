/**
 * An Auth.js app on SolidStart 1.3 (test/fixtures/authjs-apps/solid-start: SolidAuth in the API
 * route, providers from @auth/core, callbacks and augmentation of @auth/core/types and
 * @auth/core/jwt, getSession in server queries, the @auth/solid-start/client signIn and signOut)
 * switched by the built codemod, then `tsc --noEmit`, `vinxi build`, `node .output/server`, and
 * Chromium through sign-in, the protected page and sign-out.
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ExampleApp, RunningApp } from "../support/example-app.js"
import { exampleHarness } from "../support/example-harness.js"
import { exampleDir, migratedAppDir, migrateFixture, VERSION, type Migration } from "./migrated-app.js"

const app: ExampleApp = {
  dir: migratedAppDir("solid-start"),
  build: ["node_modules/vinxi/bin/cli.mjs", "build"],
  sources: ["src", "app.config.ts", "package.json", "tsconfig.json"],
  built: ".output/server/index.mjs",
}

let migration: Migration
// Runs before the build (the harness's beforeAll in the second describe), which needs what it puts in place.
beforeAll(() => {
  migration = migrateFixture("solid-start", exampleDir("solid-start"))
}, 600_000)

describe("the codemod on an Auth.js SolidStart app", () => {
  it("rewrites the imports of @auth/solid-start, its client and @auth/core's providers, the augmentations, and makes both dependencies one", () => {
    expect(migration.stderr).toBe("")
    expect(migration.status).toBe(0)
    expect(migration.stdout).toBe(
      [
        "Changed 12 specifiers and dependencies in 6 files of <app>:",
        "",
        "package.json",
        `  12: dependencies "@auth/core": "0.41.3" → "gatehouse-auth": "^${VERSION}"`,
        '  13: dependencies "@auth/solid-start": "0.19.2" removed (gatehouse-auth replaces it)',
        "",
        "src/lib/session.ts",
        '  1: import "@auth/solid-start" → "gatehouse-auth/solid-start"',
        "",
        "src/routes/api/auth/[...solidauth].ts",
        '  1: import "@auth/solid-start" → "gatehouse-auth/solid-start"',
        "",
        "src/routes/index.tsx",
        '  1: import "@auth/solid-start/client" → "gatehouse-auth/solid-start/client"',
        "",
        "src/routes/protected.tsx",
        '  1: import "@auth/solid-start/client" → "gatehouse-auth/solid-start/client"',
        "",
        "src/server/auth.ts",
        '  1: import "@auth/core/providers/credentials" → "gatehouse-auth/providers/credentials"',
        '  2: import "@auth/core/providers/github" → "gatehouse-auth/providers/github"',
        '  3: import "@auth/core/types" → "gatehouse-auth/types"',
        '  4: import "@auth/solid-start" → "gatehouse-auth/solid-start"',
        '  35: declare module "@auth/core/types" → "gatehouse-auth/types"',
        '  44: declare module "@auth/core/jwt" → "gatehouse-auth/jwt"',
        "",
        `Now install (npm install, or your package manager's) to bring in gatehouse-auth@^${VERSION}.`,
        "",
      ].join("\n"),
    )
  })

  it("finds nothing to change the second time", () => {
    expect(migration.second.stdout).toBe("No Auth.js imports or dependencies to change in <app>.\n")
  })

  it("type-checks the switched app with tsc", () => {
    try {
      execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--noEmit"], { cwd: app.dir, encoding: "utf8", stdio: "pipe" })
    } catch (failure) {
      const { stdout, stderr } = failure as { stdout?: string; stderr?: string }
      throw new Error(`tsc failed:\n${stdout ?? ""}${stderr ?? ""}`)
    }
  }, 120_000)
})

describe("the switched SolidStart app, built and started", () => {
  const harness = exampleHarness(app, "authjs-solid")
  let running: RunningApp
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    running = await harness.startBare({ callbackPath: "", command: () => [".output/server/index.mjs"], address: "AUTH_URL" }, "solid", (origin) => ({ AUTH_SECRET: randomBytes(32).toString("base64"), AUTH_URL: origin }), "/api/auth/providers")
    context = await harness.browser.newContext()
    page = await context.newPage()
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await running?.stop()
  })

  it("sends a signed-out visit of the protected page home, signs in through the client's signIn to its callbackUrl, and shows the role from the callbacks", async () => {
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(`${running.url}/`)
    await page.waitForSelector("body[data-hydrated]")
    expect(await page.locator("#status").textContent()).toBe("You're not signed in")
    await page.fill("#email", "ada@example.com")
    await page.fill("#password", "analytical engine")
    await Promise.all([page.waitForURL(`${running.url}/protected`), page.getByRole("button", { name: "Sign in with password" }).click()])
    await expect.poll(() => page.locator("#protected").textContent()).toBe("ada@example.com (admin)")
  })

  it("signs out through the client's signOut, after which the protected page sends the browser home again", async () => {
    await page.goto(`${running.url}/protected`)
    await page.waitForSelector("body[data-hydrated]")
    await Promise.all([page.waitForURL(`${running.url}/`), page.getByRole("button", { name: "Sign out" }).click()])
    await expect.poll(() => page.locator("#status").textContent()).toBe("You're not signed in")
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(`${running.url}/`)
  })
})
