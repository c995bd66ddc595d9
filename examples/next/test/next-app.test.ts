/**
 * examples/next as its users run it: the packed gatehouse-auth installed into it, `next build`,
 * `next start` on localhost, and Chromium through every flow: each way to sign in (a password
 * through a server action, the local OpenID provider, an email link from the local inbox, a
 * passkey through gatehouse-auth/webauthn), the proxy's redirect and return, a session update seen by a
 * server component after a refresh, two tabs kept in step, sign-out, the API route's 401, bad
 * input through the handlers; with JWT sessions and with database sessions in SQLite.
 */
import { readFileSync } from "node:fs"
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
  build: ["node_modules/next/dist/bin/next", "build"],
  sources: ["app", "auth.ts", "proxy.ts", "next.config.mjs", "package.json", "tsconfig.json"],
  built: ".next/BUILD_ID",
}

const PASSWORD = "correct horse battery staple"
const harness = exampleHarness(app, "next")
/** `next start` on localhost, finding its address through AUTH_URL. */
const how: StrategyStart = {
  callbackPath: "/api/auth/callback/local-oidc",
  command: (listen) => ["node_modules/next/dist/bin/next", "start", "-p", String(listen), "-H", "localhost"],
  address: "AUTH_URL",
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
  // Inside <main>: React streams the Suspense boundary's content into a hidden element first, then moves it there.
  return (await page.locator("main #status").textContent()) ?? ""
}

async function signInWithPassword(page: Page, url: string, email = "ada@example.com", password = PASSWORD): Promise<void> {
  await page.goto(`${url}/signin`)
  await page.fill("#email", email)
  await page.fill("#password", password)
  await page.getByRole("button", { name: "Sign in with password" }).click()
}

/** The home page's sign-out button (a server action); done once the session cookie is gone. */
async function signOutOnHome(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`)
  await page.getByRole("button", { name: "Sign out" }).click()
  const sessionCookie = async () => (await page.context().cookies()).some((cookie) => cookie.name === "authjs.session-token")
  await expect.poll(sessionCookie, { timeout: 10_000 }).toBe(false)
}

describe("examples/next built as create-next-app 16.4 configures an app", () => {
  const built = (file: string) => JSON.parse(readFileSync(join(app.dir, ".next", file), "utf8")) as Record<string, unknown>

  it("has Cache Components and Partial Prefetching on", () => {
    expect((built("required-server-files.json") as { config: Record<string, unknown> }).config).toMatchObject({ cacheComponents: true, partialPrefetching: true })
  })

  it("prerenders a static shell of every page; only the pages that read the session or the query resume per request", () => {
    const routes = (built("prerender-manifest.json") as { routes: Record<string, { renderingMode: string; compute: string }> }).routes
    for (const path of ["/", "/protected", "/signin"]) expect(routes[path], path).toMatchObject({ renderingMode: "PARTIALLY_STATIC", compute: "resuming" })
    // The layout's SessionProvider and the client component's useSession render in the static shell.
    for (const path of ["/client", "/signed-out"]) expect(routes[path], path).toMatchObject({ renderingMode: "PARTIALLY_STATIC", compute: "static" })
  })
})

describe.each(["jwt", "database"] as const)("examples/next with %s sessions", (strategy) => {
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

  it("signs in with a password through a server action, with an HttpOnly session cookie", async () => {
    await signInWithPassword(page, running.url)
    await page.waitForURL(`${running.url}/`)
    expect(await statusOf(page, running.url)).toContain("ada@example.com")
    const cookie = (await context.cookies()).find((c) => c.name === "authjs.session-token")
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    if (strategy === "database") {
      const sessions = new Database(running.db, { readonly: true }).prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }
      expect(sessions.n).toBeGreaterThan(0)
    }
    expect(await (await page.request.get(`${running.url}/api/me`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
    await signOutOnHome(page, running.url)
    expect(await statusOf(page, running.url)).toContain("You are signed out")
  })

  it("says a wrong password failed, without signing in", async () => {
    await signInWithPassword(page, running.url, "ada@example.com", "wrong")
    await page.waitForURL(/\/signin\?error=CredentialsSignin/)
    expect(await page.locator("#error").textContent()).toContain("CredentialsSignin")
    expect(await statusOf(page, running.url)).toContain("You are signed out")
  })

  it("sends a signed-out visit of the protected page to sign in through the proxy, and back afterwards", async () => {
    await page.goto(`${running.url}/protected`)
    await page.waitForURL(/\/signin\?callbackUrl=/)
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${running.url}/protected`)
    await page.fill("#email", "ada@example.com")
    await page.fill("#password", PASSWORD)
    await Promise.all([page.waitForURL(`${running.url}/protected`), page.getByRole("button", { name: "Sign in with password" }).click()])
    expect(await page.locator("#protected").textContent()).toContain("ada@example.com")
    await signOutOnHome(page, running.url)
  })

  it("answers the API route 401 JSON signed out", async () => {
    const answer = await fetch(`${running.url}/api/me`)
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({ message: "Unauthorized" })
  })

  it("signs in through the local OpenID provider", async () => {
    oidc.nextLogin = "grace"
    await page.goto(`${running.url}/signin`)
    await Promise.all([page.waitForURL(`${running.url}/`), page.getByRole("button", { name: "Sign in with Local OpenID" }).click()])
    expect(await statusOf(page, running.url)).toContain(`grace.${strategy}@example.com`)
    await signOutOnHome(page, running.url)
  })

  it("signs in from an email link delivered to the local inbox", async () => {
    const email = `linda.${strategy}@example.com`
    await page.goto(`${running.url}/signin`)
    await page.fill("#link-email", email)
    await Promise.all([page.waitForURL(/\/api\/auth\/verify-request/), page.getByRole("button", { name: "Email me a link" }).click()])
    const message = await harness.smtp.waitForMessage((candidate) => candidate.to.includes(email))
    const link = /<a href="([^"]+)"/.exec(message.html)![1]!.replaceAll("&amp;", "&")
    await page.goto(link)
    await page.waitForURL(`${running.url}/`)
    expect(await statusOf(page, running.url)).toContain(email)
    await signOutOnHome(page, running.url)
  })

  it("creates a passkey through gatehouse-auth/webauthn, then signs in with it", async () => {
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

  it("updates the session from a client component; the server component sees it after a refresh", async () => {
    await signInWithPassword(page, running.url)
    await page.waitForURL(`${running.url}/`)
    await page.goto(`${running.url}/client`)
    // The layout's SessionProvider has no seed (no request data in the root layout): it fetches.
    await expect.poll(() => page.locator("#client-status").textContent()).toBe("authenticated")
    await page.fill("#new-name", `Countess ${strategy}`)
    await page.getByRole("button", { name: "Update" }).click()
    await expect.poll(() => page.locator("#client-name").textContent()).toBe(`Countess ${strategy}`)
    expect(await page.locator("main #name").count()).toBe(0)
    await page.goto(`${running.url}/`)
    expect(await page.locator("main #name").textContent()).toBe(`Countess ${strategy}`)
  })

  it("keeps two tabs in step: signing out in one signs the other out", async () => {
    const other = await context.newPage()
    await other.goto(`${running.url}/client`)
    await page.goto(`${running.url}/client`)
    await expect.poll(() => other.locator("#client-status").textContent()).toBe("authenticated")
    await expect.poll(() => page.locator("#client-status").textContent()).toBe("authenticated")
    await Promise.all([page.waitForURL(`${running.url}/signed-out`), page.getByRole("button", { name: "Sign out here" }).click()])
    await expect.poll(() => other.locator("#client-status").textContent(), { timeout: 10_000 }).toBe("unauthenticated")
    await other.close()
  })

  it("answers bad input through the handlers with the core's 4xx, never a 500 page", async () => {
    const answers = await Promise.all([
      fetch(`${running.url}/api/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"data":' }),
      fetch(`${running.url}/api/auth/nonsense`),
      fetch(`${running.url}/api/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"d":${"[".repeat(5000)}${"]".repeat(5000)}}` }),
      fetch(`${running.url}/api/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=x", redirect: "manual" }),
    ])
    for (const answer of answers) {
      expect(answer.status, running.output()).toBeGreaterThanOrEqual(300)
      expect(answer.status, running.output()).toBeLessThan(500)
      expect(await answer.text()).not.toMatch(/at .*\.js:\d+/)
    }
  })

  it("prints each startup warning once, though the proxy, the route handler and the server components each load Gatehouse", async () => {
    // Every part ran above: pages through the proxy, server components and actions, the route handler.
    for (const path of ["/protected", "/api/auth/session", "/"]) await fetch(`${running.url}${path}`, { redirect: "manual" })
    const warnings = [...running.output().matchAll(/^\[auth\]\[warn\]\[([a-z-]+)\]/gm)].map((match) => match[1])
    expect(warnings, running.output()).toContain("experimental-webauthn")
    expect(warnings, running.output()).toEqual([...new Set(warnings)])
  })
})

describe("examples/next without AUTH_SECRET", () => {
  let running: RunningApp

  beforeAll(async () => {
    // The build above ran without a secret too (buildExampleApp removes it), and finished.
    running = await harness.startBare(how, "no-secret", (origin) => ({ AUTH_SECRET: "", AUTH_URL: origin }), "/favicon.ico")
  }, 120_000)

  afterAll(async () => {
    await running?.stop()
  })

  it("fails the first request with the configuration error page, and the log says how to make a secret", async () => {
    const answer = await fetch(`${running.url}/api/auth/session`)
    expect(answer.status).toBe(500)
    const body = await answer.text()
    expect(body).not.toMatch(/at .*\.js:\d+/)
    await expect.poll(() => running.output(), { timeout: 5_000 }).toMatch(/MissingSecret/)
    expect(running.output()).toContain("npx gatehouse-auth secret")
  })

  it("fails closed in the proxy: a protected page is not served", async () => {
    const answer = await fetch(`${running.url}/protected`, { redirect: "manual" })
    expect(answer.status).toBe(307)
    const location = new URL(answer.headers.get("location") ?? "", running.url)
    expect(location.pathname + location.search).toBe("/api/auth/error?error=Configuration")
  })
})
