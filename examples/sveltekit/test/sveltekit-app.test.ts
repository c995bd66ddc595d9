/**
 * examples/sveltekit (SvelteKit 3, under Node 24 from npm) as its users run it: the packed
 * gatehouse-auth installed into it, `vite build` (adapter-node, its address fixed by
 * `paths.origin`), `node build` on loopback, and Chromium through every flow, with
 * JavaScript on (the components post in place through `use:enhance`) and off (plain form posts):
 * a password, the local OpenID provider and an email link from the local inbox through the signIn
 * action, sign-out through the signOut action, a page guarded in its load and a path guarded by a
 * hook (303 and back), passkeys through gatehouse-auth/webauthn; the API route's 401, cross-site
 * posts refused, bad input answered 4xx; with JWT sessions and with database sessions in SQLite;
 * the app started without a secret; and `vite dev` and `vite preview` with the environment in
 * `.env` alone.
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { passkeyPage } from "../../../packages/gatehouse/test/support/chromium.js"
import { startExampleApp, type ExampleApp, type RunningApp } from "../../../packages/gatehouse/test/support/example-app.js"
import { nodeRelease } from "../../../packages/gatehouse/test/support/node-release.js"
import { exampleHarness, type StrategyApp, type StrategyStart } from "../../../packages/gatehouse/test/support/example-harness.js"
import type { OidcServer } from "../../../packages/gatehouse/test/support/oidc-server.js"

/**
 * The one port every start of the app listens on: Kit 3 takes the app's address from
 * `paths.origin` at build time (vite.config.js reads it from ORIGIN), and refuses form posts from
 * any other. The starts follow one another, each stopped before the next. Below Linux's
 * ephemeral range (32768–60999), so no other test's free port can be this one; if something
 * else holds it anyway, the start fails naming it. (The README's Kit 3 app has 31218.)
 */
const PORT = 31_217
const ORIGIN = `http://localhost:${PORT}`

const app: ExampleApp = {
  dir: fileURLToPath(new URL("..", import.meta.url)),
  build: ["node_modules/vite/bin/vite.js", "build"],
  sources: ["src", "vite.config.js", "package.json", "tsconfig.json"],
  built: "build/index.js",
  // Kit 3 needs Node 22.17 or newer; the machines have 20.
  node: nodeRelease(24),
  buildEnv: { ORIGIN },
}

/**
 * The workspace's better-sqlite3, built for the Node running the tests, to read the app's SQLite
 * file: the app's own copy is built for Node 24, which runs the app.
 */
const Database = createRequire(new URL("../../../package.json", import.meta.url))("better-sqlite3") as typeof import("better-sqlite3")

const PASSWORD = "correct horse battery staple"
const harness = exampleHarness(app, "kit")
let oidc: OidcServer

/** adapter-node's server on loopback, at the address the build was given (Kit's Origin check compares with it). */
const how: StrategyStart = {
  callbackPath: "/auth/callback/local-oidc",
  command: () => ["build"],
  env: () => ({ HOST: "127.0.0.1" }),
  address: "by strategy",
  port: PORT,
}

/**
 * The app started with `strategy` sessions, its OpenID client registered at the provider. The
 * JWT app finds its own address through AUTH_TRUST_HOST (honoured in production), the database
 * app through AUTH_URL.
 */
async function started(strategy: "jwt" | "database"): Promise<StrategyApp> {
  const running = await harness.start(strategy, how)
  oidc = running.oidc
  return running
}

async function statusOf(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/`)
  return (await page.locator("#status").textContent()) ?? ""
}

async function hasSessionCookie(page: Page): Promise<boolean> {
  return (await page.context().cookies()).some((cookie) => cookie.name === "authjs.session-token")
}

/** Fills and posts the credentials SignIn form on the page the browser is on. */
async function postPassword(page: Page, email = "ada@example.com", password = PASSWORD): Promise<void> {
  await page.fill("#email", email)
  await page.fill("#password", password)
  await page.getByRole("button", { name: "Sign in with password" }).click()
}

/** The home page's SignOut form (the signOut action); done once the session cookie is gone. */
async function signOutOnHome(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`)
  await page.getByRole("button", { name: "Sign out" }).click()
  await expect.poll(() => hasSessionCookie(page), { timeout: 10_000 }).toBe(false)
  await page.waitForURL(`${url}/`)
}

describe.each(["jwt", "database"] as const)("examples/sveltekit with %s sessions", (strategy) => {
  let running: RunningApp & { db: string }
  const contexts: Record<"on" | "off", BrowserContext> = {} as never
  const pages: Record<"on" | "off", Page> = {} as never

  beforeAll(async () => {
    running = await started(strategy)
    for (const javaScript of ["on", "off"] as const) {
      contexts[javaScript] = await harness.browser.newContext({ javaScriptEnabled: javaScript === "on" })
      pages[javaScript] = await contexts[javaScript].newPage()
    }
  }, 120_000)

  afterAll(async () => {
    await contexts.on?.close()
    await contexts.off?.close()
    await running?.stop()
    await oidc?.stop()
  })

  describe.each(["on", "off"] as const)("with JavaScript %s", (javaScript) => {
    it("signs in with a password through the signIn action and out through the signOut action, with an HttpOnly session cookie", async () => {
      const page = pages[javaScript]
      await page.goto(`${running.url}/signin`)
      const posted = page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname === "/signin")
      await postPassword(page)
      // With JavaScript, use:enhance posts the form in place (fetch, Kit's action header); without, the browser posts it.
      expect((await posted).headers()["x-sveltekit-action"]).toBe(javaScript === "on" ? "true" : undefined)
      await page.waitForURL(`${running.url}/`)
      expect(await page.locator("#status").textContent()).toContain("ada@example.com")
      const cookie = (await contexts[javaScript].cookies()).find((c) => c.name === "authjs.session-token")
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false })
      // The forms post to Kit's actions, which Kit guards by Origin: no double-submit cookie is needed.
      expect((await contexts[javaScript].cookies()).some((c) => c.name === "authjs.csrf-token")).toBe(false)
      if (strategy === "database") {
        const sessions = new Database(running.db, { readonly: true }).prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }
        expect(sessions.n).toBeGreaterThan(0)
      }
      expect(await (await page.request.get(`${running.url}/api/me`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
      await signOutOnHome(page, running.url)
      expect(await statusOf(page, running.url)).toContain("You are signed out")
    })

    it("says a wrong password failed (CredentialsSignin and its code) on the sign-in page, without signing in", async () => {
      const page = pages[javaScript]
      await page.goto(`${running.url}/signin`)
      await postPassword(page, "ada@example.com", "wrong")
      await page.waitForURL(/\/signin\?error=CredentialsSignin/)
      expect(await page.locator("#error").textContent()).toContain("CredentialsSignin: credentials")
      expect(await hasSessionCookie(page)).toBe(false)
    })

    it("sends a signed-out visit of the page guarded in its load to sign in (303), and back there afterwards", async () => {
      const page = pages[javaScript]
      await page.goto(`${running.url}/protected`)
      await page.waitForURL(/\/signin\?callbackUrl=/)
      expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/protected")
      await postPassword(page)
      await page.waitForURL(`${running.url}/protected`)
      expect(await page.locator("#protected").textContent()).toContain("ada@example.com")
      await signOutOnHome(page, running.url)
    })

    it("guards the /members path in a hook chained after handle (303), and lets a signed-in visit through", async () => {
      const page = pages[javaScript]
      await page.goto(`${running.url}/members`)
      await page.waitForURL(/\/signin\?callbackUrl=%2Fmembers/)
      await postPassword(page)
      await page.waitForURL(`${running.url}/members`)
      expect(await page.locator("#members").textContent()).toContain("ada@example.com")
      await signOutOnHome(page, running.url)
    })

    it("signs in through the local OpenID provider, passing the form's authorization parameters", async () => {
      const page = pages[javaScript]
      oidc.nextLogin = "grace"
      const asked = oidc.requests.length
      await page.goto(`${running.url}/signin`)
      await page.getByRole("button", { name: "Sign in with Local OpenID" }).click()
      await page.waitForURL(`${running.url}/`)
      expect(await page.locator("#status").textContent()).toContain(`grace.${strategy}@example.com`)
      const authorization = oidc.requests.slice(asked).find((request) => request.path.endsWith("/auth"))
      expect(new URL(authorization!.url, oidc.issuer).searchParams.get("prompt")).toBe("login")
      await signOutOnHome(page, running.url)
    })

    it("signs in from an email link delivered to the local inbox", async () => {
      const page = pages[javaScript]
      const email = `linda.${strategy}.${javaScript}@example.com`
      await page.goto(`${running.url}/signin`)
      await page.fill("#link-email", email)
      await page.getByRole("button", { name: "Email me a link" }).click()
      await page.waitForURL(/\/auth\/verify-request/)
      const message = await harness.smtp.waitForMessage((candidate) => candidate.to.includes(email))
      const link = /<a href="([^"]+)"/.exec(message.html)![1]!.replaceAll("&amp;", "&")
      await page.goto(link)
      await page.waitForURL(`${running.url}/`)
      expect(await page.locator("#status").textContent()).toContain(email)
      await signOutOnHome(page, running.url)
    })
  })

  it("creates a passkey through gatehouse-auth/webauthn, then signs in with it", async () => {
    const passkeys = await passkeyPage(harness.browser)
    try {
      const { page } = passkeys
      await page.goto(`${running.url}/signin`)
      await page.waitForSelector("body[data-hydrated]")
      await page.fill("#passkey-label", `Katherine ${strategy}`)
      await Promise.all([page.waitForURL(`${running.url}/`), page.getByRole("button", { name: "Create a passkey" }).click()])
      expect(await statusOf(page, running.url)).toContain(`Katherine ${strategy}`)
      await signOutOnHome(page, running.url)
      await page.goto(`${running.url}/signin`)
      await page.waitForSelector("body[data-hydrated]")
      await Promise.all([page.waitForURL(`${running.url}/`), page.getByRole("button", { name: "Sign in with a passkey" }).click()])
      expect(await statusOf(page, running.url)).toContain(`Katherine ${strategy}`)
    } finally {
      await passkeys.context.close()
    }
  })

  it("signs in and out through a page written as @auth/sveltekit's docs write it (slot=\"…\" content, className)", async () => {
    const page = pages.on
    await page.goto(`${running.url}/as-authjs-docs`)
    await page.waitForSelector("body[data-hydrated]")
    expect(await page.locator("form.signInButton.docs button[type=submit] > div.buttonPrimary").textContent()).toBe("Sign in with credentials")
    await page.fill("#docs-email", "ada@example.com")
    await page.fill("#docs-password", PASSWORD)
    await page.getByRole("button", { name: "Sign in with credentials" }).click()
    await expect.poll(() => page.locator("#docs-user").textContent(), { timeout: 10_000 }).toBe("ada@example.com")
    await page.locator("form.signOutButton.docs").getByRole("button", { name: "Sign out here" }).click()
    await expect.poll(() => hasSessionCookie(page), { timeout: 10_000 }).toBe(false)
    expect(await page.locator(".notSignedInText").textContent()).toBe("You are not signed in")
  })

  it("builds and serves a prerendered page, rendered signed out at build time whatever the visitor", async () => {
    // The build itself is the first proof: reading the configuration while prerendering throws.
    const answer = await fetch(`${running.url}/about`)
    expect(answer.status).toBe(200)
    const html = await answer.text()
    expect(html).toContain('id="about"')
    expect(html).toContain("You are signed out")
    expect(answer.headers.getSetCookie()).toEqual([])
  })

  it("answers 303 to the sign-in page for guarded pages and 401 JSON from the API route, signed out", async () => {
    for (const path of ["/protected", "/members", "/members/anything"]) {
      const answer = await fetch(`${running.url}${path}`, { redirect: "manual" })
      expect(answer.status, path).toBe(303)
      expect(answer.headers.get("location"), path).toBe(`/signin?callbackUrl=${encodeURIComponent(path)}`)
    }
    const answer = await fetch(`${running.url}/api/me`)
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({ message: "Unauthorized" })
  })

  it("refuses cross-site posts: Kit refuses the form actions, and the auth routes still ask for the CSRF token", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" }
    const credentials = `providerId=credentials&email=ada%40example.com&password=${encodeURIComponent(PASSWORD)}`
    const crossSite = await fetch(`${running.url}/signin`, { method: "POST", headers: { ...form, origin: "https://evil.example" }, body: credentials, redirect: "manual" })
    expect(crossSite.status).toBe(403)
    expect(crossSite.headers.getSetCookie().join()).not.toContain("authjs.session-token")
    // Kit checks only form posts; a JSON post goes to the auth routes, whose double-submit check stays on.
    for (const headers of [{ "content-type": "application/json", origin: running.url }, { ...form, origin: running.url }]) {
      const body = headers["content-type"] === "application/json" ? JSON.stringify({ email: "ada@example.com", password: PASSWORD }) : credentials
      const answer = await fetch(`${running.url}/auth/callback/credentials`, { method: "POST", headers, body, redirect: "manual" })
      expect(answer.headers.getSetCookie().join(), headers["content-type"]).not.toContain("authjs.session-token")
      expect(answer.headers.get("location"), headers["content-type"]).toMatch(/[?&]error=MissingCSRF\b/)
    }
  })

  it("answers bad input to the auth routes and the actions with a 4xx, never a 500 page", async () => {
    const sameSite = { origin: running.url }
    const answers = await Promise.all([
      fetch(`${running.url}/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"data":' }),
      fetch(`${running.url}/auth/nonsense`),
      fetch(`${running.url}/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"d":${"[".repeat(5000)}${"]".repeat(5000)}}` }),
      fetch(`${running.url}/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=x", redirect: "manual" }),
      // An action posted something that is no form.
      fetch(`${running.url}/signin`, { method: "POST", headers: { ...sameSite, "content-type": "text/plain", accept: "text/html" }, body: "providerId=credentials", redirect: "manual" }),
      // A provider that does not exist: the sign-in page, which lists those that do.
      fetch(`${running.url}/signin`, { method: "POST", headers: { ...sameSite, "content-type": "application/x-www-form-urlencoded", accept: "text/html" }, body: "providerId=nope", redirect: "manual" }),
    ])
    for (const answer of answers) {
      expect(answer.status, `${answer.url} ${running.output()}`).toBeGreaterThanOrEqual(300)
      expect(answer.status, `${answer.url} ${running.output()}`).toBeLessThan(500)
      expect(await answer.text()).not.toMatch(/at .*\.js:\d+/)
    }
    expect(answers[5]!.headers.get("location")).toMatch(/^\/auth\/signin\?callbackUrl=/)
  })
})

it("type-checks against the package's types: locals.auth(), the actions, the components' props and slots, a page written as @auth/sveltekit's docs write it (svelte-check)", () => {
  // vite build strips types without checking them; the components' .d.ts is hand-written.
  const run = (args: string[]) => {
    try {
      return execFileSync(app.node!.node, args, { cwd: app.dir, encoding: "utf8", stdio: "pipe", env: app.node!.env() })
    } catch (failure) {
      const { stdout, stderr } = failure as { stdout?: string; stderr?: string }
      throw new Error(`${args[0]} failed:\n${stdout ?? ""}${stderr ?? ""}`)
    }
  }
  run(["node_modules/@sveltejs/kit/svelte-kit.js", "sync"])
  const output = run(["node_modules/svelte-check/bin/svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"])
  expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/)
}, 120_000)

describe("examples/sveltekit without AUTH_SECRET", () => {
  let running: RunningApp

  beforeAll(async () => {
    // The build above ran without a secret too (buildExampleApp removes it), and finished.
    running = await harness.startBare(how, "no-secret", () => ({ AUTH_SECRET: "", AUTH_TRUST_HOST: "true" }))
  }, 120_000)

  afterAll(async () => {
    await running?.stop()
  })

  it("fails the auth routes with the configuration error, and the log says how to make a secret", async () => {
    const answer = await fetch(`${running.url}/auth/session`)
    expect(answer.status).toBe(500)
    expect(await answer.text()).not.toMatch(/at .*\.js:\d+/)
    await expect.poll(() => running.output(), { timeout: 5_000 }).toMatch(/MissingSecret/)
    expect(running.output()).toContain("npx gatehouse-auth secret")
  })

  it("fails closed: no session, so guarded pages redirect and the sign-in action ends on the error page", async () => {
    const guarded = await fetch(`${running.url}/protected`, { redirect: "manual" })
    expect(guarded.status).toBe(303)
    const headers = { origin: running.url, "content-type": "application/x-www-form-urlencoded", accept: "text/html" }
    const body = `providerId=credentials&email=ada%40example.com&password=${encodeURIComponent(PASSWORD)}`
    const action = await fetch(`${running.url}/signin`, { method: "POST", headers, body, redirect: "manual" })
    expect(action.status).toBe(303)
    expect(action.headers.get("location")).toBe("/auth/error?error=Configuration")
    expect(action.headers.getSetCookie().join()).not.toContain("authjs.session-token")
  })
})

/**
 * Kit 3 fills `$env/dynamic/private` only with what src/env.ts declares, and the app declares
 * neither NODE_ENV nor AUTH_URL: Gatehouse reads them from the process's environment too, so
 * production still refuses to trust the Host header unless told to.
 */
describe("examples/sveltekit in production with neither AUTH_URL nor AUTH_TRUST_HOST", () => {
  let running: RunningApp

  beforeAll(async () => {
    running = await harness.startBare(how, "untrusted", () => ({ AUTH_SECRET: randomBytes(32).toString("base64") }))
  }, 120_000)

  afterAll(async () => {
    await running?.stop()
  })

  it("does not trust the Host header: the auth routes fail with UntrustedHost, no session is read", async () => {
    const answer = await fetch(`${running.url}/auth/session`)
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(await answer.text()).not.toMatch(/at .*\.js:\d+/)
    await expect.poll(() => running.output(), { timeout: 5_000 }).toMatch(/UntrustedHost/)
  })
})

/**
 * `vite dev` and `vite preview` with the app's whole environment in `.env` and none of it in the
 * process's, as people run an app on their machine: Kit loads `.env` into `$env/dynamic/private`
 * (never into `process.env`), which the app and Gatehouse both read. One start of each and one
 * password sign-in through the signIn action (JavaScript off: the server's side is what is
 * proven, and the browser loads none of Vite's development modules).
 */
describe.each([["dev"], ["preview"]] as const)("examples/sveltekit under vite %s, its environment in .env only", (mode) => {
  const envFile = join(app.dir, ".env")
  const inherited = ["AUTH_SECRET", "AUTH_URL", "AUTH_TRUST_HOST", "SESSION_STRATEGY", "DATABASE_PATH", "OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "SMTP_URL", "ORIGIN"]
  let running: RunningApp
  let context: BrowserContext

  beforeAll(async () => {
    const variables = {
      AUTH_SECRET: randomBytes(32).toString("base64"),
      AUTH_TRUST_HOST: "true",
      SESSION_STRATEGY: "jwt",
      DATABASE_PATH: join(harness.dataDir, `vite-${mode}.db`),
      // Nothing listens there; this test signs in with a password only.
      OIDC_ISSUER: "http://127.0.0.1:9",
      OIDC_CLIENT_ID: "unused",
      OIDC_CLIENT_SECRET: "unused",
      SMTP_URL: harness.smtp.smtpUrl,
    }
    writeFileSync(envFile, Object.entries(variables).map(([name, value]) => `${name}=${value}\n`).join(""))
    running = await startExampleApp(app, {
      // The build's address: `vite preview` serves the build, whose Origin check compares with it.
      port: PORT,
      command: (port) => ["node_modules/vite/bin/vite.js", mode, "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
      env: {},
      // vite dev runs in development, as people run it; preview in production, as the build was made.
      unset: mode === "dev" ? [...inherited, "NODE_ENV"] : inherited,
    })
    context = await harness.browser.newContext({ javaScriptEnabled: false })
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await running?.stop()
    rmSync(envFile, { force: true })
  })

  it("signs in with a password through the signIn action, the secret and the app's settings read from .env", async () => {
    const page = await context.newPage()
    await page.goto(`${running.url}/signin`)
    await postPassword(page)
    await page.waitForURL(`${running.url}/`)
    expect(await page.locator("#status").textContent(), running.output()).toContain("ada@example.com")
    expect(await (await page.request.get(`${running.url}/api/me`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
  })
})

/**
 * The /members page's own guard, with the `protect` hook in front of it out of the way: its load
 * from the built app's sources, called with what it reads of SvelteKit's event. Signed out it
 * throws SvelteKit's own redirect; signed in it gives the page its data.
 */
describe("examples/sveltekit's /members page without the hook in front", () => {
  /** What the load reads of the event. */
  type MembersLoad = (event: { locals: { auth(): Promise<unknown> }; url: URL }) => Promise<unknown>
  let load: MembersLoad
  let isRedirect: (value: unknown) => boolean

  beforeAll(async () => {
    // By name at run time: @sveltejs/kit is the app's dependency, installed by the harness (so is
    // the .svelte-kit/tsconfig.json the app's sources are compiled with), and the page's module
    // gets the same copy of it.
    const page = join(app.dir, "src/routes/members/+page.server.ts")
    load = ((await import(page)) as { load: MembersLoad }).load
    const kit = "@sveltejs/kit"
    ;({ isRedirect } = (await import(kit)) as { isRedirect: (value: unknown) => boolean })
  })

  /** What the load returned or threw for a request of `path` whose session is `session`. */
  async function outcome(path: string, session: unknown): Promise<{ returned?: unknown; thrown?: unknown }> {
    try {
      return { returned: await load({ locals: { auth: async () => session }, url: new URL(path, "http://localhost") }) }
    } catch (thrown) {
      return { thrown }
    }
  }

  it("redirects a signed-out request (303) to the sign-in page, which returns to the page asked for", async () => {
    for (const session of [null, {}, { user: null }]) {
      const { thrown } = await outcome("/members?tab=profile", session)
      expect(isRedirect(thrown)).toBe(true)
      expect(thrown).toMatchObject({ status: 303, location: `/signin?${new URLSearchParams({ callbackUrl: "/members?tab=profile" })}` })
    }
  })

  it("gives a signed-in request the member's address", async () => {
    expect(await outcome("/members", { user: { email: "ada@example.com" } })).toEqual({ returned: { email: "ada@example.com" } })
  })
})
