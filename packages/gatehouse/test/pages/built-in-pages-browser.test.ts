/**
 * The built-in pages as a person meets them in headless Chromium, served by `Auth()` from an app
 * that has nothing else (every other path is a 404, as in SvelteKit's starter): what the browser
 * asks for, how the fields are filled in, what the headings say, and what a failed sign-in leaves
 * in the address bar.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { launchChromium } from "../support/chromium.js"
import { serveWeb, type WebServer } from "../support/web-server.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"

const ADDRESS = "ada@example.com"

let browser: Browser
let server: WebServer
let origin: string

beforeAll(async () => {
  const config = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter: MemoryAdapter(),
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: ({ email, password }) => (email === ADDRESS && password === "correct horse" ? { id: "ada", email: ADDRESS } : null),
        rateLimit: false,
      }),
      { id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} },
    ],
  } satisfies AuthConfig
  server = await serveWeb((request) => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith("/auth/")) return Auth(request, config)
    return new Response("Not found", { status: 404 })
  })
  // `localhost` rather than 127.0.0.1, as a person opens a development server.
  origin = server.origin.replace("127.0.0.1", "localhost")
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** A fresh page recording every 404 it meets. */
async function recordingPage(): Promise<{ page: Page; missing: string[]; close(): Promise<void> }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const missing: string[] = []
  page.on("response", (response) => {
    if (response.status() === 404) missing.push(response.url())
  })
  return { page, missing, close: () => context.close() }
}

describe("the built-in pages in Chromium, in an app that has nothing else", () => {
  it("each name an icon of their own that needs no request (so a browser asks the app for no /favicon.ico), and load nothing that is missing", async () => {
    const { page, missing, close } = await recordingPage()
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error?error=AccessDenied", "/auth/verify-request"]) {
      await page.goto(`${origin}${path}`)
      // A browser with a tab strip asks for /favicon.ico exactly when the page names no icon;
      // headless Chromium never asks, so the named icon is what is checked.
      const named = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]')].map((link) => link.href))
      expect([path, named]).toEqual([path, ["data:,"]])
    }
    expect(missing).toEqual([])
    await close()
  })

  it("say 'Sign out' and 'Sign in' in their headings and titles", async () => {
    const { page, close } = await recordingPage()
    await page.goto(`${origin}/auth/signout`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign out")
    expect(await page.title()).toBe("Sign out")
    await page.goto(`${origin}/auth/signin`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in")
    expect(await page.title()).toBe("Sign in")
    await close()
  })

  it("mark the password field for the browser's saved password (current-password)", async () => {
    const { page, close } = await recordingPage()
    await page.goto(`${origin}/auth/signin`)
    expect(await page.getByLabel("Password").evaluate((input: HTMLInputElement) => input.autocomplete)).toBe("current-password")
    await close()
  })

  it("after a wrong password, show the address typed again, though the address bar names neither", async () => {
    const { page, close } = await recordingPage()
    await page.goto(`${origin}/auth/signin`)
    await page.getByRole("group", { name: "Credentials" }).getByLabel("Email").fill(ADDRESS)
    await page.getByLabel("Password").fill("wrong password")
    await Promise.all([page.waitForURL(/error=CredentialsSignin/), page.getByRole("button", { name: "Sign in with Credentials" }).click()])
    expect(new URL(page.url()).search).toBe("?error=CredentialsSignin&code=credentials")
    expect(await page.getByRole("group", { name: "Credentials" }).getByLabel("Email").inputValue()).toBe(ADDRESS)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("input-password-for-credentials-provider")
    // Shown once: a reload finds the field empty again, and no cookie left behind names it.
    await page.reload()
    expect(await page.getByRole("group", { name: "Credentials" }).getByLabel("Email").inputValue()).toBe("")
    expect((await page.context().cookies()).filter((cookie) => cookie.name.includes("sign-in-identifier"))).toEqual([])
    await close()
  })
})
