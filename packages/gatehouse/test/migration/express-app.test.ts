/**
 * An Auth.js app on Express 5 (test/fixtures/authjs-apps/express: ExpressAuth mounted at
 * /auth/*splat, getSession in a middleware putting the session on res.locals, callbacks and
 * augmentation of @auth/core/types and @auth/core/jwt) switched by the built codemod, then `tsc`
 * (its build and type check), `node dist/server.js`, and Chromium through the built-in sign-in
 * page, the protected page and the built-in sign-out page.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ExampleApp, RunningApp } from "../support/example-app.js"
import { exampleHarness } from "../support/example-harness.js"
import { migratedAppDir, migrateFixture, VERSION, type Migration } from "./migrated-app.js"

const app: ExampleApp = {
  dir: migratedAppDir("express"),
  build: ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"],
  sources: ["src", "package.json", "tsconfig.json"],
  built: "dist/server.js",
}

let migration: Migration
// Runs before the build (the harness's beforeAll in the second describe), which needs what it puts in place.
beforeAll(() => {
  migration = migrateFixture("express", fileURLToPath(new URL("./express-modules/", import.meta.url)))
}, 600_000)

describe("the codemod on an Auth.js Express app", () => {
  it("rewrites every import of @auth/express and its providers, the augmentations and the dependency", () => {
    expect(migration.stderr).toBe("")
    expect(migration.status).toBe(0)
    expect(migration.stdout).toBe(
      [
        "Changed 11 specifiers and dependencies in 6 files of <app>:",
        "",
        "package.json",
        `  11: dependencies "@auth/express": "0.12.3" → "gatehouse-auth": "^${VERSION}"`,
        "",
        "src/app.ts",
        '  1: import "@auth/express" → "gatehouse-auth/express"',
        "",
        "src/config/auth.config.ts",
        '  1: import "@auth/express/providers/credentials" → "gatehouse-auth/providers/credentials"',
        '  2: import "@auth/express/providers/github" → "gatehouse-auth/providers/github"',
        '  3: import "@auth/express" → "gatehouse-auth/express"',
        '  4: import "@auth/core/types" → "gatehouse-auth/types"',
        '  36: declare module "@auth/core/types" → "gatehouse-auth/types"',
        '  45: declare module "@auth/core/jwt" → "gatehouse-auth/jwt"',
        "",
        "src/middleware/auth.middleware.ts",
        '  1: import "@auth/express" → "gatehouse-auth/express"',
        "",
        "src/types.d.ts",
        '  1: import "@auth/express" → "gatehouse-auth/express"',
        "",
        "src/views.ts",
        '  1: import "@auth/express" → "gatehouse-auth/express"',
        "",
        `Now install (npm install, or your package manager's) to bring in gatehouse-auth@^${VERSION}.`,
        "",
      ].join("\n"),
    )
  })

  it("finds nothing to change the second time", () => {
    expect(migration.second.stdout).toBe("No Auth.js imports or dependencies to change in <app>.\n")
  })
})

describe("the switched Express app, built with tsc and started", () => {
  const harness = exampleHarness(app, "authjs-express")
  let running: RunningApp
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    running = await harness.startBare({ callbackPath: "", command: () => ["dist/server.js"], address: "AUTH_URL" }, "express", () => ({ AUTH_SECRET: randomBytes(32).toString("base64") }), "/auth/providers")
    context = await harness.browser.newContext()
    page = await context.newPage()
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await running?.stop()
  })

  it("answers the API route 401 signed out", async () => {
    const answer = await fetch(`${running.url}/api/protected`)
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({ message: "Not Authenticated" })
  })

  it("sends a signed-out visit of the protected page to the sign-in page, then back, with the role from the callbacks", async () => {
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(/\/auth\/signin\?callbackUrl=/)
    await page.fill("#input-email-for-credentials-provider", "ada@example.com")
    await page.fill("#input-password-for-credentials-provider", "analytical engine")
    await Promise.all([page.waitForURL(`${running.url}/protected`), page.getByRole("button", { name: "Sign in with Credentials" }).click()])
    expect(await page.locator("#protected").textContent()).toBe("ada@example.com (admin)")
    expect(await (await page.request.get(`${running.url}/api/protected`)).json()).toMatchObject({ user: { email: "ada@example.com", role: "admin" } })
  })

  it("signs out through the built-in sign-out page, after which the protected page asks to sign in again", async () => {
    await page.goto(`${running.url}/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    // The page posts the callback URL the sign-in left (the protected page), as Auth.js's does: it sends the browser to sign in.
    await page.waitForURL(/\/auth\/signin\?callbackUrl=/)
    expect((await context.cookies()).some((cookie) => cookie.name === "authjs.session-token")).toBe(false)
    await page.goto(`${running.url}/`)
    expect(await page.locator("#status").textContent()).toBe("You're not signed in")
  })
})
