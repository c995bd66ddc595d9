/**
 * Enrolment during sign-in in a real browser (headless Chromium): under `require: "always"` a user
 * without a factor signs in with a password, lands on the built-in enrolment page, reads the
 * secret's text (as someone who cannot scan would), types the code computed here with
 * node:crypto using the keyboard alone, saves the recovery codes and continues, signed in at aal 2.
 * The QR code is one image with an accessible name; the code input is found by its label.
 */
import { renderSVG } from "uqr"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { AdapterUser } from "../../src/adapters/index.js"
import { Auth } from "../../src/core/handler.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { launchChromium } from "../support/chromium.js"
import { serveWeb, type WebServer } from "../support/web-server.js"
import { isFailure, recordingLogger, secret } from "../flow/flow-helpers.js"
import { codeFor } from "./enrol-support.js"

let browser: Browser
let server: WebServer
const { logger, lines } = recordingLogger()

beforeAll(async () => {
  const adapter = MemoryAdapter()
  const user = await adapter.createUser!({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
  const config = {
    secret,
    trustHost: true,
    logger,
    adapter,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => (username === "ada" && password === "correct horse" ? { id: user.id, name: "Ada", email: "ada@app.test" } : null),
        rateLimit: false,
      }),
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests", qrCode: renderSVG }, require: "always" },
  } satisfies AuthConfig
  server = await serveWeb((request) => {
    if (new URL(request.url).pathname.startsWith("/auth/")) return Auth(request, config)
    return new Response("<!doctype html><title>Dashboard</title><h1>Dashboard</h1>", { headers: { "content-type": "text/html" } })
  })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe("enrolling an authenticator app during sign-in, in Chromium", () => {
  it("signs in with the password, enrols from the secret's text by keyboard, shows the codes once, continues at aal 2", async () => {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${server.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${server.origin}/dashboard`)}`)
      await page.locator('input[name="username"]').fill("ada")
      await page.locator('input[name="password"]').fill("correct horse")
      await Promise.all([page.waitForURL(`${server.origin}/auth/two-factor`, { timeout: 15_000 }), page.locator('input[name="password"]').press("Enter")])

      await expect(page.getByRole("heading", { name: "Set up two-step verification" }).count()).resolves.toBe(1)
      expect(await page.getByRole("img", { name: /QR code/ }).count()).toBe(1)
      const secretText = (await page.locator("#totp-secret").textContent())!
      expect(secretText).toMatch(/^[A-Z2-7 ]+$/)
      const noSession = await page.evaluate(() => fetch("/auth/session").then((response) => response.json()))
      expect(noSession).toBeNull()

      const input = page.getByLabel("The 6-digit code the app shows")
      await input.focus()
      await page.keyboard.type(codeFor(secretText))
      await Promise.all([page.waitForURL(`${server.origin}/auth/two-factor/totp/confirm`, { timeout: 15_000 }), page.keyboard.press("Enter")])

      const codes = await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents()
      expect(codes).toHaveLength(10)
      const session = (await page.evaluate(() => fetch("/auth/session").then((response) => response.json()))) as { authentication?: { aal: number } } | null
      expect(session?.authentication?.aal).toBe(2)

      // Continue by keyboard: the link is the next stop after the list.
      const onward = page.getByRole("link", { name: "I have saved them, continue" })
      await onward.focus()
      await Promise.all([page.waitForURL(`${server.origin}/dashboard`, { timeout: 15_000 }), page.keyboard.press("Enter")])
      expect(await page.title()).toBe("Dashboard")
      expect(lines.filter(isFailure)).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
