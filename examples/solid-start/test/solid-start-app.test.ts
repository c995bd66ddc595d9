/**
 * examples/solid-start as its users run it: the packed gatehouse-auth installed into it, `vinxi
 * build`, `node .output/server/index.mjs` listening on 127.0.0.1 (opened as localhost, where
 * passkeys work), and Chromium through every flow: each way to sign in through the Solid client at
 * the prefix (a password, the local OpenID provider, an email link from the local inbox, a
 * passkey), the protected page's preload redirect, the middleware's guarded path, createSession's
 * update seen by the server query, refreshed cookies from getSession(event), sign-out, the API
 * route's 401, bad input through the route file; with JWT sessions (AUTH_TRUST_HOST, no AUTH_URL)
 * and with database sessions in SQLite (AUTH_URL).
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { passkeyPage } from "../../../packages/gatehouse/test/support/chromium.js"
import type { ExampleApp, RunningApp } from "../../../packages/gatehouse/test/support/example-app.js"
import { exampleHarness, type StrategyApp, type StrategyStart } from "../../../packages/gatehouse/test/support/example-harness.js"
import type { OidcServer } from "../../../packages/gatehouse/test/support/oidc-server.js"

const app: ExampleApp = {
  dir: fileURLToPath(new URL("..", import.meta.url)),
  build: ["node_modules/vinxi/bin/cli.mjs", "build"],
  sources: ["src", "app.config.ts", "package.json", "tsconfig.json"],
  built: ".output/server/index.mjs",
}


const PASSWORD = "correct horse battery staple"
const SESSION = "authjs.session-token"
const harness = exampleHarness(app, "solid")
/** The production server on loopback only; the browser opens it as localhost. */
const how: StrategyStart = {
  callbackPath: "/api/auth/callback/local-oidc",
  command: () => [".output/server/index.mjs"],
  env: () => ({ HOST: "127.0.0.1" }),
  address: "by strategy",
  readyPath: "/api/auth/providers",
}
let oidc: OidcServer

/** The app started with `strategy` sessions, its OpenID client registered at the provider. */
async function started(strategy: "jwt" | "database"): Promise<StrategyApp> {
  const running = await harness.start(strategy, how)
  oidc = running.oidc
  return running
}

async function statusOf(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/`)
  return (await page.locator("#status").textContent()) ?? ""
}

async function signInWithPassword(page: Page, url: string, email = "ada@example.com", password = PASSWORD): Promise<void> {
  await page.goto(`${url}/signin`)
  await page.waitForSelector("body[data-hydrated]")
  await page.fill("#email", email)
  await page.fill("#password", password)
  await page.getByRole("button", { name: "Sign in with password" }).click()
}

/** The home page's sign-out button (the Solid client); done once it navigated home without the session cookie. */
async function signOutOnHome(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`)
  // The client navigates to the same page once signed out: wait for that load, not the URL.
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Sign out" }).click()])
  const sessionCookie = async () => (await page.context().cookies()).some((cookie) => cookie.name === SESSION)
  await expect.poll(sessionCookie, { timeout: 10_000 }).toBe(false)
}

/** Session cookies set by a response. */
function sessionCookiesOf(answer: { headers: Headers }): string[] {
  return answer.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION}=`))
}

describe.each(["jwt", "database"] as const)("examples/solid-start with %s sessions", (strategy) => {
  let running: RunningApp & { db: string }
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    running = await started(strategy)
    context = await harness.browser.newContext()
    page = await context.newPage()
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await running?.stop()
    await oidc?.stop()
  })

  it("signs in with a password through the Solid client at the prefix, with an HttpOnly session cookie the server query reads", async () => {
    await signInWithPassword(page, running.url)
    await page.waitForURL(`${running.url}/`)
    expect(await statusOf(page, running.url)).toContain("ada@example.com")
    const cookie = (await context.cookies()).find((c) => c.name === SESSION)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    if (strategy === "database") {
      const sessions = new Database(running.db, { readonly: true }).prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }
      expect(sessions.n).toBeGreaterThan(0)
    }
    expect(await (await page.request.get(`${running.url}/api/me`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
    await signOutOnHome(page, running.url)
    expect(await statusOf(page, running.url)).toContain("You are signed out")
  })

  it("sends a wrong password back to the app's sign-in page with the error, without signing in", async () => {
    await signInWithPassword(page, running.url, "ada@example.com", "wrong")
    await page.waitForURL(/\/signin\?error=CredentialsSignin/)
    expect(await page.locator("#error").textContent()).toContain("CredentialsSignin")
    expect(await statusOf(page, running.url)).toContain("You are signed out")
  })

  it("redirects a signed-out visit of the protected page to / from its preload, on a full load and on client-side navigation", async () => {
    const answer = await page.request.get(`${running.url}/protected`, { maxRedirects: 0 })
    expect(answer.status()).toBe(302)
    expect(new URL(answer.headers().location!, running.url).pathname).toBe("/")
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(`${running.url}/`)
    await page.getByRole("link", { name: "Protected page" }).click()
    await expect.poll(() => page.url()).toBe(`${running.url}/`)
    expect(await page.locator("#protected").count()).toBe(0)
  })

  it("shows the protected page once signed in, after sign-in sends the visitor back to it", async () => {
    await page.goto(`${running.url}/signin?callbackUrl=${encodeURIComponent(`${running.url}/protected`)}`)
    await page.waitForSelector("body[data-hydrated]")
    await page.fill("#email", "ada@example.com")
    await page.fill("#password", PASSWORD)
    await Promise.all([page.waitForURL(`${running.url}/protected`), page.getByRole("button", { name: "Sign in with password" }).click()])
    expect(await page.locator("#protected").textContent()).toContain("ada@example.com")
    await signOutOnHome(page, running.url)
  })

  it("guards the middleware's paths: a signed-out full load of /account is a 302 to /, signed in it is served", async () => {
    const answer = await page.request.get(`${running.url}/account`, { maxRedirects: 0 })
    expect(answer.status()).toBe(302)
    expect(answer.headers().location).toBe("/")
    // A path the middleware does not list renders signed out, unguarded.
    expect((await page.request.get(`${running.url}/client`, { maxRedirects: 0 })).status()).toBe(200)
    await signInWithPassword(page, running.url)
    await page.waitForURL(`${running.url}/`)
    await page.goto(`${running.url}/account`)
    expect(await page.locator("#account").textContent()).toBe("Account of ada@example.com.")
    await signOutOnHome(page, running.url)
  })

  it("sends a signed-out client-side navigation to /account, which the middleware never sees, to / from the page's own query", async () => {
    await page.goto(`${running.url}/signin`)
    await page.waitForSelector("body[data-hydrated]")
    const documentLoads: string[] = []
    const onRequest = (request: { isNavigationRequest(): boolean; url(): string }) => void (request.isNavigationRequest() && documentLoads.push(request.url()))
    page.on("request", onRequest)
    try {
      await page.getByRole("link", { name: "Account" }).click()
      await expect.poll(() => page.url()).toBe(`${running.url}/`)
    } finally {
      page.off("request", onRequest)
    }
    expect(documentLoads).toEqual([])
    expect(await page.locator("#account").count()).toBe(0)
  })

  it("answers the API route 401 JSON signed out", async () => {
    const answer = await fetch(`${running.url}/api/me`)
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({ message: "Unauthorized" })
  })

  it("signs in through the local OpenID provider, its callback at the prefix", async () => {
    oidc.nextLogin = "grace"
    await page.goto(`${running.url}/signin`)
    await page.waitForSelector("body[data-hydrated]")
    await Promise.all([page.waitForURL(`${running.url}/`), page.getByRole("button", { name: "Sign in with Local OpenID" }).click()])
    expect(await statusOf(page, running.url)).toContain(`grace.${strategy}@example.com`)
    await signOutOnHome(page, running.url)
  })

  it("signs in from an email link delivered to the local inbox", async () => {
    const email = `linda.${strategy}@example.com`
    await page.goto(`${running.url}/signin`)
    await page.waitForSelector("body[data-hydrated]")
    await page.fill("#link-email", email)
    await Promise.all([page.waitForURL(/\/api\/auth\/verify-request/), page.getByRole("button", { name: "Email me a link" }).click()])
    const message = await harness.smtp.waitForMessage((candidate) => candidate.to.includes(email))
    const link = /<a href="([^"]+)"/.exec(message.html)![1]!.replaceAll("&amp;", "&")
    expect(new URL(link).pathname).toBe("/api/auth/callback/nodemailer")
    await page.goto(link)
    await page.waitForURL(`${running.url}/`)
    expect(await statusOf(page, running.url)).toContain(email)
    await signOutOnHome(page, running.url)
  })

  it("creates a passkey through gatehouse-auth/webauthn on the Solid client's prefix, then signs in with it", async () => {
    const passkeys = await passkeyPage(harness.browser)
    try {
      const { page: keyPage } = passkeys
      await keyPage.goto(`${running.url}/signin`)
      await keyPage.waitForSelector("body[data-hydrated]")
      await keyPage.fill("#passkey-label", `Katherine ${strategy}`)
      await Promise.all([keyPage.waitForURL(`${running.url}/`), keyPage.getByRole("button", { name: "Create a passkey" }).click()])
      expect(await statusOf(keyPage, running.url)).toContain(`Katherine ${strategy}`)
      await signOutOnHome(keyPage, running.url)
      await keyPage.goto(`${running.url}/signin`)
      await keyPage.waitForSelector("body[data-hydrated]")
      await Promise.all([keyPage.waitForURL(`${running.url}/`), keyPage.getByRole("button", { name: "Sign in with a passkey" }).click()])
      expect(await statusOf(keyPage, running.url)).toContain(`Katherine ${strategy}`)
    } finally {
      await passkeys.context.close()
    }
  })

  it("updates the session from createSession(); the server query sees it after a reload", async () => {
    await signInWithPassword(page, running.url)
    await page.waitForURL(`${running.url}/`)
    await page.goto(`${running.url}/client`)
    await expect.poll(() => page.locator("#client-status").textContent()).toBe("authenticated")
    await page.fill("#new-name", `Countess ${strategy}`)
    await page.getByRole("button", { name: "Update" }).click()
    await expect.poll(() => page.locator("#client-name").textContent()).toBe(`Countess ${strategy}`)
    await page.goto(`${running.url}/`)
    expect(await page.locator("#name").textContent()).toBe(`Countess ${strategy}`)
    await page.goto(`${running.url}/client`)
    await expect.poll(() => page.locator("#client-status").textContent()).toBe("authenticated")
    await Promise.all([page.waitForURL(`${running.url}/`), page.getByRole("button", { name: "Sign out here" }).click()])
    await expect.poll(async () => (await context.cookies()).some((cookie) => cookie.name === SESSION)).toBe(false)
  })

  it("answers bad input through the route file with the core's 4xx, never SolidStart's 500", async () => {
    const answers = await Promise.all([
      fetch(`${running.url}/api/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"data":' }),
      fetch(`${running.url}/api/auth/nonsense`),
      fetch(`${running.url}/api/auth/nonsense`, { method: "POST" }),
      fetch(`${running.url}/api/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"d":${"[".repeat(5000)}${"]".repeat(5000)}}` }),
      fetch(`${running.url}/api/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=x", redirect: "manual" }),
    ])
    for (const answer of answers) {
      expect(answer.status, running.output()).toBeGreaterThanOrEqual(300)
      expect(answer.status, running.output()).toBeLessThan(500)
      expect(await answer.text()).not.toMatch(/at .*\.m?js:\d+/)
    }
    // Under the prefix the core answers, not SolidStart's "no route" 404.
    expect(answers[1]!.status).toBe(400)
  })
})

describe("examples/solid-start passing refreshed cookies on", () => {
  let running: RunningApp

  beforeAll(async () => {
    // Every read renews the session cookie (SESSION_UPDATE_AGE 0).
    running = await harness.startBare(how, "refresh", (origin) => ({ AUTH_SECRET: randomBytes(32).toString("base64"), AUTH_URL: origin, SESSION_UPDATE_AGE: "0" }))
  }, 120_000)

  afterAll(async () => {
    await running?.stop()
  })

  it("sends the renewed session cookie from getSession(event) in the middleware, an API route and a server function, kept out of shared caches", async () => {
    const context = await harness.browser.newContext()
    try {
      const page = await context.newPage()
      await signInWithPassword(page, running.url)
      await page.waitForURL(`${running.url}/`)
      const cookie = (await context.cookies()).filter((c) => c.name === SESSION).map((c) => `${c.name}=${c.value}`).join("; ")
      for (const path of ["/account", "/api/me"]) {
        const answer = await fetch(`${running.url}${path}`, { headers: { cookie }, redirect: "manual" })
        expect(answer.status, path).toBe(200)
        expect(sessionCookiesOf(answer), path).toHaveLength(1)
        expect(answer.headers.get("cache-control"), path).toMatch(/private/)
      }
      // Client-side navigation reads the session through a server function; the browser keeps what it sets.
      const before = (await context.cookies()).find((c) => c.name === SESSION)!.expires
      await page.waitForTimeout(1_100)
      await page.getByRole("link", { name: "Protected page" }).click()
      await page.waitForURL(`${running.url}/protected`)
      expect(await page.locator("#protected").textContent()).toContain("ada@example.com")
      await expect.poll(async () => (await context.cookies()).find((c) => c.name === SESSION)!.expires).toBeGreaterThan(before)
    } finally {
      await context.close()
    }
  })

  it("renders a streamed page whose query reads the session after its headers went out", async () => {
    const context = await harness.browser.newContext()
    try {
      const page = await context.newPage()
      await signInWithPassword(page, running.url)
      await page.waitForURL(`${running.url}/`)
      const answer = await page.goto(`${running.url}/`)
      expect(answer?.status()).toBe(200)
      expect(await page.locator("#status").textContent()).toContain("ada@example.com")
      expect(running.output()).not.toMatch(/ERR_HTTP_HEADERS_SENT/)
    } finally {
      await context.close()
    }
  })
})

describe("examples/solid-start without AUTH_SECRET", () => {
  let running: RunningApp

  beforeAll(async () => {
    // The build above ran without a secret too (buildExampleApp removes it), and finished.
    running = await harness.startBare(how, "no-secret", (origin) => ({ AUTH_SECRET: "", AUTH_URL: origin }), "/")
  }, 120_000)

  afterAll(async () => {
    await running?.stop()
  })

  it("fails the auth routes with the configuration error, and the log says how to make a secret", async () => {
    const answer = await fetch(`${running.url}/api/auth/session`)
    expect(answer.status).toBe(500)
    const body = await answer.text()
    expect(body).toMatch(/configuration/i)
    expect(body).not.toMatch(/at .*\.m?js:\d+/)
    await expect.poll(() => running.output(), { timeout: 5_000 }).toMatch(/MissingSecret/)
    expect(running.output()).toContain("npx gatehouse-auth secret")
  })

  it("fails closed in the middleware and the page queries: guarded pages are not served", async () => {
    const account = await fetch(`${running.url}/account`, { redirect: "manual" })
    expect(account.status).toBe(302)
    expect(account.headers.get("location")).toBe("/")
    const protectedPage = await fetch(`${running.url}/protected`, { redirect: "manual" })
    expect(protectedPage.status).toBe(302)
    expect(new URL(protectedPage.headers.get("location") ?? "", running.url).pathname).toBe("/")
    const home = await fetch(`${running.url}/`)
    expect(home.status).toBe(200)
    expect(await home.text()).toContain("You are signed out")
  })
})

describe("examples/solid-start's sources", () => {
  it("type-check against the package's published types (SolidStart's own events given to getSession)", () => {
    const tsc = join(app.dir, "node_modules", "typescript", "bin", "tsc")
    let problems = ""
    try {
      execFileSync(process.execPath, [tsc, "-p", "."], { cwd: app.dir, encoding: "utf8", stdio: "pipe" })
    } catch (error) {
      problems = String((error as { stdout?: string }).stdout) || String(error)
    }
    expect(problems).toBe("")
  }, 60_000)
})
