/**
 * The demo as a new user meets it: started as `npm run demo` starts it (on a free port and a
 * fresh data directory), driven in headless Chromium through every way to sign in it offers.
 * A screenshot of the built-in sign-in page is kept under `test-artifacts/`, and the README's
 * picture of it (docs/images/sign-in-page.png) is checked to be current.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { format } from "node:util"
import type { Page } from "playwright-core"
import { afterEach, describe, expect, it, vi } from "vitest"
import { passkeyPage } from "../../../packages/gatehouse/test/support/chromium.js"
import { DEMO_EMAIL, DEMO_PASSWORD } from "../src/demo.js"
import { useDemoInChromium } from "./demo-in-chromium.js"

const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/", import.meta.url))
const README_IMAGE = fileURLToPath(new URL("../../../docs/images/sign-in-page.png", import.meta.url))
const README_IMAGE_SOURCE = fileURLToPath(new URL("../../../docs/images/sign-in-page.sha256", import.meta.url))
/** How the README's picture is taken: part of what it shows. */
const README_SHOT = { viewport: { width: 440, height: 720 }, deviceScaleFactor: 1, colorScheme: "light" } as const

const running = useDemoInChromium("gatehouse-demo-")

afterEach(() => {
  vi.restoreAllMocks()
})

async function newPage(options: { viewport?: { width: number; height: number } } = {}): Promise<Page> {
  const context = await running.browser.newContext(options)
  return context.newPage()
}

/** What the demo's process prints through `method` while it runs, each call as console prints it. */
function printed(method: "error" | "warn" | "info" | "log"): string[] {
  const lines: string[] = []
  const original = console[method].bind(console)
  vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
    lines.push(format(...args))
    original(...args)
  })
  return lines
}

/** The credentials form: its fields are told from the other forms' by the group they are in. */
const demoAccount = (page: Page) => page.getByRole("group", { name: "Demo account" })

async function status(page: Page): Promise<string> {
  await page.goto(`${running.demo.url}/`)
  return (await page.locator("#status").textContent()) ?? ""
}

/** Asks for the protected page, signs in with the demo account on the page it is sent to, and lands back there. */
async function signInFromProtectedPage(page: Page): Promise<void> {
    await page.goto(`${running.demo.url}/protected`, { waitUntil: "commit" })
    await page.waitForURL(/\/auth\/signin/)
    await demoAccount(page).getByLabel("Email").fill(DEMO_EMAIL)
    await page.getByLabel("Password").fill(DEMO_PASSWORD)
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(`${running.demo.url}/protected`)
}

/** As a user does: the navigation's link, then the built-in page's button. */
async function signOut(page: Page): Promise<void> {
  await page.goto(`${running.demo.url}/`)
  await page.getByRole("link", { name: "Sign out" }).click()
  await page.getByRole("button", { name: "Sign out", exact: true }).click()
  await page.waitForURL(`${running.demo.url}/`)
  expect(await status(page)).toBe("You are signed out.")
}

describe("the demo in a browser", () => {
  it("shows the built-in sign-in page with every method, and keeps a screenshot of it", async () => {
    const page = await newPage()
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Demo account" }).waitFor()
    for (const name of ["Sign in with Email", "Sign in with Dev OpenID Provider", "Sign in with Passkey"]) {
      expect(await page.getByRole("button", { name }).count()).toBe(1)
    }
    expect(await page.getByRole("heading", { name: "Sign in", level: 1 }).count()).toBe(1)
    // Three fields ask for an email; each says, to sighted and screen-reader users, which form it is in.
    expect(await page.getByLabel("Email", { exact: true }).count()).toBe(2)
    expect(await demoAccount(page).getByLabel("Email", { exact: true }).count()).toBe(1)
    expect(await page.getByRole("group", { name: "Passkey" }).getByLabel("Email", { exact: true }).count()).toBe(1)
    expect(await page.getByLabel("Email for a sign-in link").count()).toBe(1)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("input-email-for-credentials-provider")
    mkdirSync(ARTIFACTS, { recursive: true })
    const file = join(ARTIFACTS, "demo-sign-in-page.png")
    await page.screenshot({ path: file, fullPage: true })
    expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG")
    await page.context().close()
  })

  /*
   * The picture itself is not compared: Chromium draws the same page a little differently from one
   * machine to the next (fonts, antialiasing), so its bytes would never match and every test run
   * would rewrite it. What it shows is compared instead, which is deterministic: the sign-in page's
   * HTML and CSS as served (with the random CSRF token and the port blanked, and without the
   * passkey script, which draws nothing), with how the picture is taken. Only when that changes
   * must the picture be taken again, and only UPDATE_SCREENSHOTS=1 writes it.
   */
  it("keeps the README's picture of the sign-in page current (docs/images/sign-in-page.png)", async () => {
    const context = await running.browser.newContext(README_SHOT)
    const page = await context.newPage()
    const response = await page.goto(`${running.demo.url}/auth/signin`)
    const shown = (await response!.text())
      .replaceAll(running.demo.url, "http://localhost")
      .replace(/name="csrfToken" value="[^"]*"/g, 'name="csrfToken" value=""')
      .replace(/<script>[\s\S]*?<\/script>/g, "")
    const source = createHash("sha256").update(JSON.stringify(README_SHOT)).update(shown).digest("hex")
    if (process.env.UPDATE_SCREENSHOTS) {
      mkdirSync(dirname(README_IMAGE), { recursive: true })
      await page.screenshot({ path: README_IMAGE, fullPage: true })
      writeFileSync(README_IMAGE_SOURCE, `${source}\n`)
    }
    const recorded = existsSync(README_IMAGE_SOURCE) ? readFileSync(README_IMAGE_SOURCE, "utf8").trim() : "(no picture yet)"
    expect(recorded, "The sign-in page changed since docs/images/sign-in-page.png was taken: run UPDATE_SCREENSHOTS=1 npm test, and commit both files").toBe(source)
    expect(readFileSync(README_IMAGE).subarray(1, 4).toString()).toBe("PNG")
    await context.close()
  })

  it("sends a signed-out visitor from the protected page to sign in, and the API answers 401", async () => {
    const page = await newPage()
    await page.goto(`${running.demo.url}/protected`, { waitUntil: "commit" })
    await page.waitForURL(/\/auth\/signin\?callbackUrl=%2Fprotected$/)
    const api = await page.goto(`${running.demo.url}/api/me`)
    expect(api?.status()).toBe(401)
    expect(await api?.json()).toEqual({ message: "Unauthorized" })
    await page.context().close()
  })

  it("signs in with the seeded demo account, lands on the protected page it asked for, and signs out", async () => {
    const page = await newPage()
    await signInFromProtectedPage(page)
    const session = JSON.parse((await page.locator("#session").textContent()) ?? "null")
    expect(session.user).toMatchObject({ email: DEMO_EMAIL, name: "Demo User" })
    const api = await page.goto(`${running.demo.url}/api/me`)
    expect(api?.status()).toBe(200)
    expect((await api?.json()).user.email).toBe(DEMO_EMAIL)
    await signOut(page)
    expect((await page.goto(`${running.demo.url}/api/me`))?.status()).toBe(401)
    await page.context().close()
  })

  it("refuses a wrong password for the demo account, keeps the address typed, and logs one warning line", async () => {
    const errors = printed("error")
    const warnings = printed("warn")
    const page = await newPage()
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByLabel("Password").fill("not the password")
    await demoAccount(page).getByLabel("Email").fill(DEMO_EMAIL)
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(/error=CredentialsSignin/)
    expect(await demoAccount(page).getByLabel("Email").inputValue()).toBe(DEMO_EMAIL)
    expect(await page.getByLabel("Password").inputValue()).toBe("")
    // The cursor waits where the person has to type again.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("input-password-for-credentials-provider")
    expect(page.url()).not.toContain("not%20the%20password")
    // Nor the address: it reached the page in a cookie, not through the URL (access logs, Referer).
    expect(new URL(page.url()).search).toBe("?error=CredentialsSignin&code=credentials")
    // The person's mistake, not a fault: one warning line, nothing at the error level.
    expect(errors).toEqual([])
    expect(warnings).toEqual(["[auth][warn][CredentialsSignin] The authorize function returned no user (code: credentials)"])
    expect(await status(page)).toBe("You are signed out.")
    await page.context().close()
  })

  it("signs out from the protected page through the navigation, landing on the home page", async () => {
    const page = await newPage()
    await signInFromProtectedPage(page)
    // Signed in for /protected: a sign-out without its own callbackUrl would go back there.
    await page.getByRole("link", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign out", exact: true }).click()
    await page.waitForURL(`${running.demo.url}/`)
    expect(await page.locator("#status").textContent()).toBe("You are signed out.")
    await page.context().close()
  })

  it("signs in with the link from the inbox", async () => {
    const page = await newPage()
    const address = "grace@example.com"
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByLabel("Email for a sign-in link").fill(address)
    await page.getByRole("button", { name: "Sign in with Email" }).click()
    await page.waitForURL(/\/dev\/inbox/)
    const mail = page.locator(".mail").filter({ hasText: address }).first()
    await mail.locator("a").first().click()
    // confirmSignIn: the link shows a confirmation step first, safe from mail scanners.
    await page.getByRole("button", { name: /sign in/i }).click()
    await page.waitForURL(`${running.demo.url}/`)
    expect(await status(page)).toContain(address)
    await signOut(page)
    await page.context().close()
  })

  it("signs in through the dev OpenID provider's login page, which prints no development notices", async () => {
    const lines = { info: printed("info"), log: printed("log"), warn: printed("warn") }
    const page = await newPage()
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Dev OpenID Provider" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//)
    await page.getByLabel("Email").fill("linus@example.com")
    await page.getByLabel("Name").fill("Linus Example")
    await page.getByRole("button", { name: "Sign in to the Dev OpenID Provider" }).click()
    await page.waitForURL(`${running.demo.url}/`)
    expect(await status(page)).toContain("Linus Example")
    await page.goto(`${running.demo.url}/protected`)
    expect(JSON.parse((await page.locator("#session").textContent()) ?? "null").user.email).toBe("linus@example.com")
    await signOut(page)
    expect([...lines.info, ...lines.log, ...lines.warn].filter((line) => line.includes("oidc-provider"))).toEqual([])
    await page.context().close()
  })

  it("signs in through the dev OpenID provider as the seeded address, into the demo account (as the home page says)", async () => {
    const page = await newPage()
    await page.goto(`${running.demo.url}/`)
    expect(await page.locator(".card").filter({ hasText: "Dev OpenID Provider" }).textContent()).toContain(`${DEMO_EMAIL} signs in to the demo account`)
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Dev OpenID Provider" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//)
    await page.getByLabel("Email").fill(DEMO_EMAIL)
    await page.getByRole("button", { name: "Sign in to the Dev OpenID Provider" }).click()
    // Back at the demo, wherever it lands: the home page, not the sign-in page's OAuthAccountNotLinked.
    await page.waitForURL((url) => url.href.startsWith(`${running.demo.url}/`))
    expect(page.url()).toBe(`${running.demo.url}/`)
    await page.goto(`${running.demo.url}/protected`)
    expect(JSON.parse((await page.locator("#session").textContent()) ?? "null").user).toMatchObject({ email: DEMO_EMAIL, name: "Demo User" })
    await signOut(page)
    // The demo account keeps its password: linking took nothing from it.
    await signInFromProtectedPage(page)
    await signOut(page)
    await page.context().close()
  })

  it("signs out of the dev OpenID provider too from the sign-out page: its confirmation, back home, and its next sign-in asks again", async () => {
    const lines = { info: printed("info"), log: printed("log"), warn: printed("warn") }
    const page = await newPage()
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Dev OpenID Provider" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//)
    await page.getByLabel("Email").fill("edsger@example.com")
    await page.getByRole("button", { name: "Sign in to the Dev OpenID Provider" }).click()
    await page.waitForURL(`${running.demo.url}/`)
    await page.getByRole("link", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign out of Dev OpenID Provider too" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/session\/end/)
    await page.getByRole("button", { name: "Sign out of the Dev OpenID Provider" }).click()
    await page.waitForURL(`${running.demo.url}/`)
    expect(await status(page)).toBe("You are signed out.")
    // Signed out at the provider as well: its login page again, not a silent sign-in.
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Dev OpenID Provider" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//)
    expect(await page.getByLabel("Email").count()).toBe(1)
    expect([...lines.info, ...lines.log, ...lines.warn].filter((line) => line.includes("oidc-provider"))).toEqual([])
    await page.context().close()
  })

  it("links the dev OpenID provider's pages back to the demo, and every link on them leads somewhere", async () => {
    const page = await newPage()
    await page.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await page.getByRole("button", { name: "Sign in with Dev OpenID Provider" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//)
    const provider = new URL(page.url()).origin
    const loginLinks = await page.locator("a[href]").evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
    // The same page, once its sign-in has expired (the interaction is unknown).
    await page.goto(`${provider}/interaction/expired-or-unknown`)
    expect(await page.getByRole("heading", { name: "Sign-in expired" }).count()).toBe(1)
    expect(await page.getByRole("link", { name: "Start again" }).getAttribute("href")).toBe(`${running.demo.url}/auth/signin`)
    const expiredLinks = await page.locator("a[href]").evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))

    for (const href of [...loginLinks, ...expiredLinks]) {
      expect(href.startsWith(`${running.demo.url}/`)).toBe(true)
      const answer = await page.request.get(href, { maxRedirects: 0 })
      expect([href, answer.status()]).not.toEqual([href, 404])
    }
    expect(loginLinks.length).toBeGreaterThan(3)
    await page.context().close()
  })

  it("asks for no favicon that is not there: the library's pages, the demo's and the OpenID provider's", async () => {
    const page = await newPage()
    const missing: string[] = []
    page.on("response", (response) => {
      if (response.status() === 404) missing.push(response.url())
    })
    page.on("console", (message) => {
      if (message.type() === "error") missing.push(`${message.location().url}: ${message.text()}`)
    })
    // The library's page first, while no page of this origin has named an icon yet.
    await page.goto(`${running.demo.url}/auth/signin`)
    await page.getByRole("button", { name: "Sign in with Dev OpenID Provider" }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/interaction\//)
    for (const path of ["/", "/dev/inbox", "/auth/signout", "/auth/error"]) await page.goto(`${running.demo.url}${path}`)
    expect((await page.request.get(`${running.demo.url}/favicon.ico`)).status()).toBe(204)
    expect(missing).toEqual([])
    await page.context().close()
  })

  it("wraps long links in the inbox instead of making the page scroll sideways", async () => {
    const page = await newPage({ viewport: { width: 390, height: 800 } })
    await page.goto(`${running.demo.url}/auth/signin`)
    await page.getByLabel("Email for a sign-in link").fill("narrow@example.com")
    await page.getByRole("button", { name: "Sign in with Email" }).click()
    await page.waitForURL(/\/dev\/inbox/)
    const mail = page.locator(".mail pre").first()
    expect(await mail.evaluate((pre) => getComputedStyle(pre).overflowWrap)).toBe("anywhere")
    expect(await mail.evaluate((pre) => getComputedStyle(pre).whiteSpace)).toBe("pre-wrap")
    expect(await mail.evaluate((pre) => pre.scrollWidth <= pre.clientWidth)).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await page.context().close()
  })

  it("creates a passkey for a new address, then signs in with it through autofill after signing out", async () => {
    const { page, context, authenticator } = await passkeyPage(running.browser)
    await page.goto(`${running.demo.url}/auth/signin?callbackUrl=%2F`)
    await page.fill("#input-email-for-passkey-provider", "hopper@example.com")
    await Promise.all([page.waitForURL(`${running.demo.url}/`), page.getByRole("button", { name: "Sign up with Passkey" }).click()])
    expect(await status(page)).toContain("hopper@example.com")
    expect(await authenticator.credentials()).toHaveLength(1)
    await signOut(page)
    // The saved passkey is offered in the email field's autofill as the page opens; the virtual
    // authenticator accepts at once, so the page signs in by itself.
    await page.goto(`${running.demo.url}/auth/signin?callbackUrl=%2F`, { waitUntil: "commit" })
    await page.waitForURL(`${running.demo.url}/`)
    expect(await status(page)).toContain("hopper@example.com")
    await context.close()
  })

  it("adds a passkey to the signed-in demo account from the home page (gatehouse-auth/webauthn), then signs in with it", async () => {
    const { page, context, authenticator } = await passkeyPage(running.browser)
    await signInFromProtectedPage(page)
    await page.goto(`${running.demo.url}/`)
    await page.getByRole("button", { name: "Add a passkey to this account" }).click()
    await expect.poll(() => page.locator("#passkey-result").textContent(), { timeout: 15_000 }).toBe("Passkey added. Sign out and use it to sign in.")
    expect(await authenticator.credentials()).toHaveLength(1)
    await signOut(page)
    await page.goto(`${running.demo.url}/auth/signin?callbackUrl=%2F`, { waitUntil: "commit" })
    await page.waitForURL(`${running.demo.url}/`)
    expect(await status(page)).toContain(DEMO_EMAIL)
    await context.close()
  })
})
