/**
 * An Auth.js app on SvelteKit 2 (test/fixtures/authjs-apps/sveltekit: src/auth.ts with callbacks
 * and augmentation of @auth/core/types and @auth/core/jwt, the handle re-exported by the hooks,
 * the signIn/signOut form actions, @auth/sveltekit/components' SignIn and SignOut with their
 * slots, a page guarded in its load) switched by the built codemod, then svelte-check, `vite
 * build` (adapter-node), `node build`, and Chromium through sign-in, the protected page and
 * sign-out.
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ExampleApp, RunningApp } from "../support/example-app.js"
import { exampleHarness } from "../support/example-harness.js"
import { sveltekitScaffold } from "../support/sveltekit-scaffold.js"
import { migratedAppDir, migrateFixture, VERSION, type Migration } from "./migrated-app.js"

const app: ExampleApp = {
  dir: migratedAppDir("sveltekit"),
  build: ["node_modules/vite/bin/vite.js", "build"],
  sources: ["src", "svelte.config.js", "vite.config.ts", "package.json", "tsconfig.json"],
  built: "build/index.js",
}

let migration: Migration
// Runs before the build (the harness's beforeAll in the second describe), which needs what it puts in place.
beforeAll(() => {
  // Kit 2's modules, as the fixture is a Kit 2 app: the scaffold's (examples/sveltekit is on Kit 3).
  migration = migrateFixture("sveltekit", sveltekitScaffold())
}, 600_000)

describe("the codemod on an Auth.js SvelteKit app", () => {
  it("rewrites the imports of the modules and components, the augmentations and the dependency", () => {
    expect(migration.stderr).toBe("")
    expect(migration.status).toBe(0)
    expect(migration.stdout).toBe(
      [
        "Changed 7 specifiers and dependencies in 3 files of <app>:",
        "",
        "package.json",
        `  13: dependencies "@auth/sveltekit": "1.11.3" → "gatehouse-auth": "^${VERSION}"`,
        "",
        "src/auth.ts",
        '  1: import "@auth/sveltekit" → "gatehouse-auth/sveltekit"',
        '  2: import "@auth/sveltekit/providers/credentials" → "gatehouse-auth/providers/credentials"',
        '  3: import "@auth/sveltekit/providers/github" → "gatehouse-auth/providers/github"',
        '  34: declare module "@auth/core/types" → "gatehouse-auth/types"',
        '  43: declare module "@auth/core/jwt" → "gatehouse-auth/jwt"',
        "",
        "src/routes/+page.svelte",
        '  2: import "@auth/sveltekit/components" → "gatehouse-auth/sveltekit/components"',
        "",
        `Now install (npm install, or your package manager's) to bring in gatehouse-auth@^${VERSION}.`,
        "",
      ].join("\n"),
    )
  })

  it("finds nothing to change the second time", () => {
    expect(migration.second.stdout).toBe("No Auth.js imports or dependencies to change in <app>.\n")
  })

  it("type-checks the switched app with svelte-check", () => {
    const run = (args: string[]) => {
      try {
        return execFileSync(process.execPath, args, { cwd: app.dir, encoding: "utf8", stdio: "pipe" })
      } catch (failure) {
        const { stdout, stderr } = failure as { stdout?: string; stderr?: string }
        throw new Error(`${args[0]} failed:\n${stdout ?? ""}${stderr ?? ""}`)
      }
    }
    run(["node_modules/@sveltejs/kit/svelte-kit.js", "sync"])
    expect(run(["node_modules/svelte-check/bin/svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"])).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/)
  }, 120_000)
})

describe("the switched SvelteKit app, built and started", () => {
  const harness = exampleHarness(app, "authjs-kit")
  let running: RunningApp
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    running = await harness.startBare({ callbackPath: "", command: () => ["build"], env: (origin) => ({ HOST: "127.0.0.1", ORIGIN: origin }), address: "AUTH_URL" }, "kit", (origin) => ({ AUTH_SECRET: randomBytes(32).toString("base64"), AUTH_URL: origin }))
    context = await harness.browser.newContext()
    page = await context.newPage()
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await running?.stop()
  })

  it("sends a signed-out visit of the protected page home, signs in through the SignIn component's slots, and shows the role from the callbacks", async () => {
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(`${running.url}/`)
    expect(await page.locator("#status").textContent()).toBe("You're not signed in")
    await page.fill("#email", "ada@example.com")
    await page.fill("#password", "analytical engine")
    await Promise.all([page.waitForURL(`${running.url}/protected`), page.getByRole("button", { name: "Sign in with password" }).click()])
    expect(await page.locator("#protected").textContent()).toBe("ada@example.com (admin)")
    expect(await page.locator("#who").textContent()).toBe("ada@example.com")
  })

  it("signs out through the SignOut component, after which the protected page sends the browser home again", async () => {
    await page.goto(`${running.url}/`)
    expect(await page.locator("#status").textContent()).toBe("Signed in as ada@example.com")
    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => page.locator("#status").textContent(), { timeout: 10_000 }).toBe("You're not signed in")
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(`${running.url}/`)
  })
})
