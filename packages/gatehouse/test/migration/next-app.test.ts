/**
 * An Auth.js app on Next 16 (test/fixtures/authjs-apps/next: auth.ts with callbacks and module
 * augmentation of next-auth and next-auth/jwt, the proxy, server actions, SessionProvider and
 * useSession) switched by the built codemod, then `next build` with its type check, `next start`,
 * and Chromium through sign-in, the protected page, the client page and sign-out.
 */
import { randomBytes } from "node:crypto"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ExampleApp, RunningApp } from "../support/example-app.js"
import { exampleHarness } from "../support/example-harness.js"
import { exampleDir, migratedAppDir, migrateFixture, VERSION, type Migration } from "./migrated-app.js"

const app: ExampleApp = {
  dir: migratedAppDir("next"),
  build: ["node_modules/next/dist/bin/next", "build"],
  sources: ["app", "components", "auth.ts", "proxy.ts", "next.config.ts", "package.json", "tsconfig.json"],
  built: ".next/BUILD_ID",
}

let migration: Migration
// Runs before the build (the harness's beforeAll in the second describe), which needs what it puts in place.
beforeAll(() => {
  migration = migrateFixture("next", exampleDir("next"))
}, 600_000)

describe("the codemod on an Auth.js Next app", () => {
  it("rewrites every Auth.js import, augmentation and the dependency, and leaves nothing to do by hand", () => {
    expect(migration.stderr).toBe("")
    expect(migration.status).toBe(0)
    expect(migration.stdout).toBe(
      [
        "Changed 11 specifiers and dependencies in 4 files of <app>:",
        "",
        "app/client/page.tsx",
        '  1: import "next-auth/react" → "gatehouse-auth/react"',
        "",
        "auth.ts",
        '  1: import "next-auth" → "gatehouse-auth/next"',
        '  2: import "next-auth/jwt" → "gatehouse-auth/jwt"',
        '  3: import "next-auth" → "gatehouse-auth/next"',
        '  4: import "next-auth/providers/credentials" → "gatehouse-auth/providers/credentials"',
        '  5: import "next-auth/providers/github" → "gatehouse-auth/providers/github"',
        '  46: declare module "next-auth" → "gatehouse-auth/next"',
        '  57: declare module "next-auth/jwt" → "gatehouse-auth/jwt"',
        "",
        "components/client-example.tsx",
        '  3: import "next-auth/react" → "gatehouse-auth/react"',
        '  4: import "next-auth" → "gatehouse-auth/next"',
        "",
        "package.json",
        `  12: dependencies "next-auth": "5.0.0-beta.32" → "gatehouse-auth": "^${VERSION}"`,
        "",
        `Now install (npm install, or your package manager's) to bring in gatehouse-auth@^${VERSION}.`,
        "",
      ].join("\n"),
    )
  })

  it("finds nothing to change the second time", () => {
    expect(migration.second.status).toBe(0)
    expect(migration.second.stdout).toBe("No Auth.js imports or dependencies to change in <app>.\n")
  })
})

describe("the switched Next app, built with its type check and started", () => {
  const harness = exampleHarness(app, "authjs-next")
  let running: RunningApp
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    running = await harness.startBare({ callbackPath: "", command: (port) => ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "localhost"], address: "AUTH_URL" }, "next", (origin) => ({ AUTH_SECRET: randomBytes(32).toString("base64"), AUTH_URL: origin }), "/api/auth/providers")
    context = await harness.browser.newContext()
    page = await context.newPage()
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await running?.stop()
  })

  it("sends a signed-out visit of the protected page through the proxy to sign in, then back, with the role from the callbacks", async () => {
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(/\/api\/auth\/signin\?callbackUrl=/)
    await page.fill("#input-email-for-credentials-provider", "ada@example.com")
    await page.fill("#input-password-for-credentials-provider", "analytical engine")
    await Promise.all([page.waitForURL(`${running.url}/protected`), page.getByRole("button", { name: "Sign in with Credentials" }).click()])
    expect(await page.locator("#protected").textContent()).toBe("ada@example.com (admin)")
  })

  it("shows the session through SessionProvider and useSession on the client page", async () => {
    await page.goto(`${running.url}/client`)
    await expect.poll(() => page.locator("#client-status").textContent()).toBe("authenticated")
    expect(await page.locator("#client-user").textContent()).toBe("ada@example.com (admin)")
  })

  it("signs out through the server action, after which the protected page asks to sign in again", async () => {
    await page.goto(`${running.url}/protected`)
    await Promise.all([page.waitForURL(`${running.url}/`), page.getByRole("button", { name: "Sign out" }).click()])
    expect(await page.locator("#status").textContent()).toBe("You're not signed in")
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(/\/api\/auth\/signin\?callbackUrl=/)
  })
})
