/**
 * The demo as a new user meets it: started as `npm run demo` starts it (on a free port and a
 * fresh data directory), driven in headless Chromium through every way to sign in it offers.
 * A screenshot of the built-in sign-in page is kept under `test-artifacts/`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, passkeyPage } from "../../../packages/gatehouse/test/support/chromium.js"
import { DEMO_EMAIL, DEMO_PASSWORD, startDemo, type Demo } from "../src/demo.js"
import { loadEnvFile } from "../src/env-file.js"

const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/", import.meta.url))

let browser: Browser
let demo: Demo
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "gatehouse-demo-"))
  const env: Record<string, string | undefined> = {}
  loadEnvFile(join(dataDir, ".env"), env)
  process.env.AUTH_SECRET = env.AUTH_SECRET
  demo = await startDemo({ port: 0, dataDir })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await demo?.close()
  delete process.env.AUTH_SECRET
  rmSync(dataDir, { recursive: true, force: true })
})

async function newPage(): Promise<Page> {
  const context = await browser.newContext()
  return context.newPage()
}

async function status(page: Page): Promise<string> {
  await page.goto(`${demo.url}/`)
  return (await page.locator("#status").textContent()) ?? ""
}

/** As a user does: the home page's link, then the built-in page's button. */
async function signOut(page: Page): Promise<void> {
  await page.goto(`${demo.url}/`)
  await page.getByRole("link", { name: "Sign out" }).click()
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.waitForURL(`${demo.url}/`)
  expect(await status(page)).toBe("You are signed out.")
}

describe("the demo in a browser", () => {
  it("shows the built-in sign-in page with every method, and keeps a screenshot of it", async () => {
    const page = await newPage()
    await page.goto(`${demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Demo account" }).waitFor()
    for (const name of ["Sign in with Email", "Sign in with Dev OpenID Provider", "Sign in with Passkey"]) {
      expect(await page.getByRole("button", { name }).count()).toBe(1)
    }
    mkdirSync(ARTIFACTS, { recursive: true })
    const file = join(ARTIFACTS, "demo-sign-in-page.png")
    await page.screenshot({ path: file, fullPage: true })
    expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG")
    await page.context().close()
  })

  it("sends a signed-out visitor from the protected page to sign in, and the API answers 401", async () => {
    const page = await newPage()
    await page.goto(`${demo.url}/protected`, { waitUntil: "commit" })
    await page.waitForURL(/\/auth\/signin\?callbackUrl=%2Fprotected$/)
    const api = await page.goto(`${demo.url}/api/me`)
    expect(api?.status()).toBe(401)
    expect(await api?.json()).toEqual({ message: "Unauthorized" })
    await page.context().close()
  })

  it("signs in with the seeded demo account, lands on the protected page it asked for, and signs out", async () => {
    const page = await newPage()
    await page.goto(`${demo.url}/protected`, { waitUntil: "commit" })
    await page.waitForURL(/\/auth\/signin/)
    await page.getByLabel("Email").first().fill(DEMO_EMAIL)
    await page.getByLabel("Password").fill(DEMO_PASSWORD)
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(`${demo.url}/protected`)
    const session = JSON.parse((await page.locator("#session").textContent()) ?? "null")
    expect(session.user).toMatchObject({ email: DEMO_EMAIL, name: "Demo User" })
    const api = await page.goto(`${demo.url}/api/me`)
    expect(api?.status()).toBe(200)
    expect((await api?.json()).user.email).toBe(DEMO_EMAIL)
    await signOut(page)
    expect((await page.goto(`${demo.url}/api/me`))?.status()).toBe(401)
    await page.context().close()
  })

  it("refuses a wrong password for the demo account", async () => {
    const page = await newPage()
    await page.goto(`${demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByLabel("Password").fill("not the password")
    await page.getByLabel("Email").first().fill(DEMO_EMAIL)
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(/error=CredentialsSignin/)
    expect(await status(page)).toBe("You are signed out.")
    await page.context().close()
  })

  it("signs in with the link from the inbox", async () => {
    const page = await newPage()
    const address = "grace@example.com"
    await page.goto(`${demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.locator('form[action$="/signin/nodemailer"] input[name="email"]').fill(address)
    await page.getByRole("button", { name: "Sign in with Email" }).click()
    await page.waitForURL(/\/dev\/inbox/)
    const mail = page.locator(".mail").filter({ hasText: address }).first()
    await mail.locator("a").first().click()
    // confirmSignIn: the link shows a confirmation step first, safe from mail scanners.
    await page.getByRole("button", { name: /sign in/i }).click()
    await page.waitForURL(`${demo.url}/`)
    expect(await status(page)).toContain(address)
    await signOut(page)
    await page.context().close()
  })

  it("signs in through the dev OpenID provider's login page", async () => {
    const page = await newPage()
    await page.goto(`${demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Dev OpenID Provider" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//)
    await page.getByLabel("Email").fill("linus@example.com")
    await page.getByLabel("Name").fill("Linus Example")
    await page.getByRole("button", { name: "Sign in to the Dev OpenID Provider" }).click()
    await page.waitForURL(`${demo.url}/`)
    expect(await status(page)).toContain("Linus Example")
    await page.goto(`${demo.url}/protected`)
    expect(JSON.parse((await page.locator("#session").textContent()) ?? "null").user.email).toBe("linus@example.com")
    await signOut(page)
    await page.context().close()
  })

  it("creates a passkey for a new address, then signs in with it through autofill after signing out", async () => {
    const { page, context, authenticator } = await passkeyPage(browser)
    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`)
    await page.fill("#input-email-for-passkey-provider", "hopper@example.com")
    await Promise.all([page.waitForURL(`${demo.url}/`), page.getByRole("button", { name: "Sign up with Passkey" }).click()])
    expect(await status(page)).toContain("hopper@example.com")
    expect(await authenticator.credentials()).toHaveLength(1)
    await signOut(page)
    // The saved passkey is offered in the email field's autofill as the page opens; the virtual
    // authenticator accepts at once, so the page signs in by itself.
    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`, { waitUntil: "commit" })
    await page.waitForURL(`${demo.url}/`)
    expect(await status(page)).toContain("hopper@example.com")
    await context.close()
  })
})
