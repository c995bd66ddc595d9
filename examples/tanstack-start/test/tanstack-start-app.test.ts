/**
 * examples/tanstack-start as its users run it, under Node 24 (TanStack Start needs 22.12 or newer;
 * installed from npm): the packed gatehouse-auth installed into it, `node --run build` (`vite
 * build && tsc --noEmit`: the type check on), `node .output/server/index.mjs`, and Chromium
 * through a credentials sign-in with the React client, the loader reading the session, the
 * function-middleware-guarded server function refused signed out (401) and answered signed in, a
 * failed sign-in landing on the app's own sign-in page with its error, beforeLoad's redirect, and
 * sign-out.
 *
 * The app is also the README's TanStack Start section pasted into a scaffold: laid out as `npm
 * create @tanstack/start` lays one out (vite.config.ts with the Start, React and nitro plugins,
 * `~/` paths, src/router.tsx, src/routes/__root.tsx), every file the README shows is that file
 * here, byte for byte (checked below), and the rest are the app's own pages. So one install and one
 * build serve both tests.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../../../packages/gatehouse/test/support/chromium.js"
import { buildExampleApp, startExampleApp, type ExampleApp, type RunningApp } from "../../../packages/gatehouse/test/support/example-app.js"
import { nodeRelease } from "../../../packages/gatehouse/test/support/node-release.js"
import { codeBlocks, fileOf } from "../../../packages/gatehouse/test/support/readme-section.js"

const dir = fileURLToPath(new URL("..", import.meta.url))
const PASSWORD = "correct horse battery staple"
const SESSION = "authjs.session-token"

/** The code blocks of the README's TanStack Start section that name their file in a first `// path` line. */
function readmeFiles(): { path: string; code: string }[] {
  return codeBlocks("TanStack Start").flatMap(({ language, code }) => {
    const path = fileOf(code)
    return (language === "ts" || language === "tsx") && path ? [{ path, code }] : []
  })
}

describe("the README's TanStack Start section", () => {
  it("is the example app's code: every file it shows is that file of the app, as it is", () => {
    const files = readmeFiles()
    expect(files.map((file) => file.path)).toEqual(["src/lib/auth.ts", "src/routes/api/auth/$.ts", "src/lib/auth-middleware.ts", "src/lib/session.ts"])
    for (const file of files) expect(readFileSync(join(dir, file.path), "utf8"), file.path).toBe(file.code)
  })
})

describe("examples/tanstack-start in Chromium", () => {
  let app: ExampleApp
  let running: RunningApp
  let browser: Browser
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    app = {
      dir,
      // `npm run build` as a deployment runs it: NODE_ENV=production, not the test runner's
      // NODE_ENV=test, which would make Vite build React's development JSX into the server.
      build: ["--run", "build"],
      buildEnv: { NODE_ENV: "production" },
      sources: ["src", "vite.config.ts", "package.json", "tsconfig.json"],
      built: ".output/server/index.mjs",
      node: nodeRelease(24),
    }
    buildExampleApp(app)
    running = await startExampleApp(app, {
      command: () => [".output/server/index.mjs"],
      env: { HOST: "127.0.0.1", AUTH_SECRET: randomBytes(32).toString("base64"), AUTH_TRUST_HOST: "true", DEMO_PASSWORD: PASSWORD },
      readyPath: "/api/auth/providers",
    })
    browser = await launchChromium()
    context = await browser.newContext()
    page = await context.newPage()
  }, 900_000)

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await running?.stop()
  })

  const status = async () => {
    await page.goto(`${running.url}/`)
    await page.waitForSelector("body[data-hydrated]")
    return (await page.locator("#status").textContent()) ?? ""
  }

  /** Clicks the button calling the guarded server function; returns the HTTP status of the call and what the page shows. */
  const askSecret = async () => {
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().includes("/_serverFn/")),
      page.getByRole("button", { name: "Ask the guarded server function" }).click(),
    ])
    await expect.poll(async () => (await page.locator("#secret").textContent()) ?? "").not.toBe("")
    return { status: answer.status(), shown: (await page.locator("#secret").textContent()) ?? "" }
  }

  const signInWithPassword = async (password: string) => {
    await page.goto(`${running.url}/signin`)
    await page.waitForSelector("body[data-hydrated]")
    await page.fill("#email", "ada@example.com")
    await page.fill("#password", password)
    await page.getByRole("button", { name: "Sign in with password" }).click()
  }

  it("refuses the middleware-guarded server function signed out: the call is answered 401", async () => {
    expect(await status()).toBe("You are signed out")
    expect(await askSecret()).toEqual({ status: 401, shown: "Refused: 401" })
    expect(await context.cookies()).not.toContainEqual(expect.objectContaining({ name: SESSION }))
  })

  it("sends a failed sign-in back to the app's own sign-in page, with its error", async () => {
    await signInWithPassword("wrong")
    await page.waitForURL(/\/signin\?error=CredentialsSignin/)
    expect(await page.locator("#error").textContent()).toContain("CredentialsSignin")
    expect(await status()).toBe("You are signed out")
  })

  it("redirects a signed-out visit of /account to the sign-in page from beforeLoad", async () => {
    await page.goto(`${running.url}/account`)
    await page.waitForURL(/\/signin\?callbackUrl=%2Faccount/)
    expect(await page.locator("#account").count()).toBe(0)
  })

  it("signs in with the React client, the loader reads the session, the guarded server function answers", async () => {
    await signInWithPassword(PASSWORD)
    await page.waitForURL(`${running.url}/`)
    expect(await status()).toBe("Signed in as ada@example.com")
    expect((await context.cookies()).find((cookie) => cookie.name === SESSION)).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    expect(await askSecret()).toEqual({ status: 200, shown: "The secret of ada@example.com" })
    await page.goto(`${running.url}/account`)
    expect(await page.locator("#account").textContent()).toBe("Account of ada@example.com.")
  })

  it("signs out with the React client: the session cookie is gone and the guarded server function refuses again", async () => {
    await status()
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Sign out" }).click()])
    await expect.poll(async () => (await context.cookies()).some((cookie) => cookie.name === SESSION), { timeout: 10_000 }).toBe(false)
    expect(await status()).toBe("You are signed out")
    expect((await askSecret()).status).toBe(401)
  })
})
