/**
 * `gatehouse-auth/react` in a real browser: `SessionProvider`, `useSession` and the client functions
 * of `src/react/index.ts`, bundled with React 19 by esbuild from ./fixtures/session-page.ts (no
 * `process` in the page: the module must load without it), opened in headless Chromium.
 *
 * One node:http server on 127.0.0.1 serves the page and the real `Auth()` with a credentials
 * provider and JWT sessions, mounted at `/api/auth` (the provider's default base path) and at
 * `/custom/auth`; its `jwt` callback copies `session.name` into the token on the `update` trigger.
 * The server logs every auth request with the page (`?tab=`, read from the Referer) that made it,
 * so each test counts the `/session` reads its own pages cost. Each test has its own browser
 * context: its own cookies, and tabs that see each other's BroadcastChannel messages.
 */
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { launchChromium } from "../support/chromium.js"
import { serveWeb, type WebServer } from "../support/web-server.js"
import { ada, credentialsConfig } from "../flow/flow-helpers.js"
import { enrol, totpNow, type Adapted } from "../two-factor/bypass-matrix-helpers.js"
import type { PageScenario, Scenario } from "./fixtures/session-page.js"

const BASE = "/api/auth"
const OTHER_BASE = "/custom/auth"
/** What the module waits between two fetches nothing explicitly asked for. */
const FLOOR_MS = 5_000

/** One request to the auth routes, as the server saw it. */
interface Logged {
  method: string
  path: string
  /** The `tab` of the page that sent it; undefined for requests from outside the browser's pages. */
  tab: string | undefined
  body: string
  at: number
}

function authConfig(basePath: string): ReturnType<typeof credentialsConfig> {
  const base = credentialsConfig()
  // An OAuth provider whose authorization endpoint the page is never allowed to reach (routed by the test).
  const hub = { id: "hub", name: "Hub", type: "oauth", clientId: "client", clientSecret: "secret", authorization: "https://hub.test/authorize", token: "https://hub.test/token", userinfo: "https://hub.test/me" } as const
  return credentialsConfig({
    providers: [...base.providers, hub],
    basePath,
    callbacks: {
      jwt: ({ token, trigger, session }) =>
        trigger === "update" && typeof (session as { name?: unknown } | undefined)?.name === "string"
          ? { ...token, name: (session as { name: string }).name }
          : token,
    },
  })
}
const MOUNTS = [BASE, OTHER_BASE].map((basePath) => ({ basePath, config: authConfig(basePath) }))
/** A third mount with two-factor sign-in (issue 37): ada stored and enrolled in TOTP (key set in beforeAll). */
const TWO_FACTOR_BASE = "/two-factor/auth"
let twoFactorKey: Uint8Array

let bundle: string
let server: WebServer
let browser: Browser
let context: BrowserContext
const log: Logged[] = []
/** When set, the next GET of `/session` is answered at once (for the cookies it came with) but its body is sent only once this settles. */
let held: Promise<void> | undefined

beforeAll(async () => {
  const built = await build({
    entryPoints: [fileURLToPath(new URL("./fixtures/session-page.ts", import.meta.url))],
    bundle: true,
    platform: "browser",
    format: "iife",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "silent",
  })
  bundle = built.outputFiles[0]!.text
  const adapter = MemoryAdapter() as Adapted
  const { id: uid } = await adapter.createUser({ id: "", name: ada.name, email: ada.email!, emailVerified: null } as AdapterUser)
  twoFactorKey = await enrol(adapter, uid)
  const base = credentialsConfig()
  MOUNTS.push({
    basePath: TWO_FACTOR_BASE,
    config: credentialsConfig({
      basePath: TWO_FACTOR_BASE,
      adapter,
      providers: [{ ...base.providers[0]!, authorize: () => ({ ...ada, id: uid }) } as (typeof base.providers)[number]],
      twoFactor: { totp: { issuer: "Gatehouse tests" } },
    }),
  })
  server = await serveWeb(handle)
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

beforeEach(async () => {
  log.length = 0
  held = undefined
  context = await browser.newContext()
})

afterEach(async () => {
  await context.close()
})

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const mount = MOUNTS.find(({ basePath }) => url.pathname.startsWith(`${basePath}/`))
  if (mount) {
    const referer = request.headers.get("referer")
    const tab = referer ? (new URL(referer).searchParams.get("tab") ?? undefined) : undefined
    const body = request.method === "POST" ? await request.clone().text() : ""
    log.push({ method: request.method, path: url.pathname, tab, body, at: Date.now() })
    const response = await Auth(request, mount.config)
    if (held && request.method === "GET" && url.pathname.endsWith("/session")) {
      // Headers go at once and only the body waits: Chromium queues a second GET of the same
      // URL behind one whose headers have not arrived (its HTTP cache lock), which would hide the race.
      const hold = held
      held = undefined
      const body = await response.arrayBuffer()
      const late = new ReadableStream<Uint8Array>({
        async start(controller) {
          await hold
          controller.enqueue(new Uint8Array(body))
          controller.close()
        },
      })
      return new Response(late, { status: response.status, headers: response.headers })
    }
    return response
  }
  if (url.pathname === "/page.js") return new Response(bundle, { headers: { "content-type": "text/javascript" } })
  if (url.pathname === "/") return new Response(await pageHtml(request), { headers: { "content-type": "text/html" } })
  return new Response("Not found", { status: 404 })
}

/** The test page for `?scenario=`, seeded, when asked, with the session as the server reads it. */
async function pageHtml(request: Request): Promise<string> {
  const scenario = JSON.parse(new URL(request.url).searchParams.get("scenario") ?? "{}") as Scenario
  const written: PageScenario = { ...scenario }
  if (scenario.seed) written.session = await serverSession(request)
  const json = JSON.stringify(written).replace(/</g, "\\u003c")
  return `<!doctype html><meta charset="utf-8"><title>SessionProvider</title><main id="root"></main>
<script>window.scenario = ${json}</script><script src="/page.js"></script>`
}

/** What a server component's `await auth()` would pass: the session for the request's cookies. */
async function serverSession(request: Request): Promise<PageScenario["session"]> {
  const mount = MOUNTS[0]!
  const answer = await Auth(new Request(`${new URL(request.url).origin}${BASE}/session`, { headers: { cookie: request.headers.get("cookie") ?? "" } }), mount.config)
  const session = (await answer.json()) as PageScenario["session"]
  return session && Object.keys(session).length > 0 ? session : null
}

/** Opens the page for `scenario` as tab `tab` of this test's context; `prepare` runs before it loads. */
async function openTab(scenario: Scenario, tab = "a", prepare?: (page: Page) => Promise<unknown>): Promise<Page> {
  const page = await context.newPage()
  await prepare?.(page)
  await page.goto(`${server.origin}/?${new URLSearchParams({ tab, scenario: JSON.stringify(scenario) })}`)
  return page
}

/** The GETs of `{basePath}/session` the server received, from one tab or from all. */
function sessionReads(tab?: string, basePath = BASE): Logged[] {
  return log.filter((entry) => entry.method === "GET" && entry.path === `${basePath}/session` && (tab === undefined || entry.tab === tab))
}

/** The element's text now, or null when the page has none (no waiting for it to appear). */
function textOf(page: Page, selector: string): Promise<string | null> {
  return page.evaluate((selector) => document.querySelector(selector)?.textContent ?? null, selector)
}

/** Waits until the element's text is `text` (or fails after `timeout` ms with what it was). */
async function expectText(page: Page, selector: string, text: string, timeout = 5_000): Promise<void> {
  await expect.poll(() => textOf(page, selector), { timeout }).toBe(text)
}

/** Waits until tab `tab` shows Ada signed in. */
async function expectAda(page: Page): Promise<void> {
  await expectText(page, "#status", "authenticated")
  await expectText(page, "#name", "Ada Lovelace")
}

/**
 * Clicks a button by dispatching `click` on it. Playwright's `click()` first waits for animation
 * frames, which headless Chromium pumps slowly for a tab not in front (about 2 s a click).
 */
function press(page: Page, selector: string): Promise<void> {
  return page.dispatchEvent(selector, "click")
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

/** Signs ada in from outside the pages (the context's request client shares the pages' cookies). */
async function signInAda(): Promise<void> {
  const csrf = (await (await context.request.get(`${server.origin}${BASE}/csrf`)).json()) as { csrfToken: string }
  const answer = await context.request.post(`${server.origin}${BASE}/callback/credentials`, {
    form: { csrfToken: csrf.csrfToken, username: "ada", password: "correct horse" },
    maxRedirects: 0,
  })
  expect(answer.status()).toBe(302)
}

/** Renames the session from outside the pages, as another device or a server action would: no tab is told. */
async function renameElsewhere(name: string): Promise<void> {
  const csrf = (await (await context.request.get(`${server.origin}${BASE}/csrf`)).json()) as { csrfToken: string }
  const answer = await context.request.post(`${server.origin}${BASE}/session`, { data: { csrfToken: csrf.csrfToken, data: { name } } })
  expect(((await answer.json()) as { user: { name: string } }).user.name).toBe(name)
}

/** 20 times over a second: the tab becomes visible again (`visibilitychange`) and the window gets `focus`. */
async function burstOfFocusEvents(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 20; i++) {
      document.dispatchEvent(new Event("visibilitychange"))
      window.dispatchEvent(new FocusEvent("focus"))
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })
  await sleep(300) // a request the last event started reaches the server
}

describe("the first render", () => {
  it("shows a session the server seeded at once and never asks /session for it", async () => {
    await signInAda()
    const page = await openTab({ seed: true })
    await expectAda(page)
    await sleep(500)
    expect(await textOf(page, "#statuses")).toBe("authenticated")
    expect(sessionReads()).toEqual([])
  })

  it("without a seed shows loading, then the session from exactly one request to /api/auth/session (no process in the page)", async () => {
    await signInAda()
    const page = await openTab({})
    await expectAda(page)
    await sleep(500)
    expect(await textOf(page, "#statuses")).toBe("loading authenticated")
    expect(sessionReads("a")).toHaveLength(1)
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe("undefined")
  })
})

describe("refetching that nothing explicitly asked for", () => {
  it("a burst of focus events within 5 s of the last fetch costs nothing, and past it exactly one request", async () => {
    const page = await openTab({})
    await expectText(page, "#status", "unauthenticated")
    const [first] = sessionReads("a")
    await burstOfFocusEvents(page)
    expect(sessionReads("a")).toHaveLength(1)

    await sleep(first!.at + FLOOR_MS + 200 - Date.now())
    await burstOfFocusEvents(page)
    expect(sessionReads("a")).toHaveLength(2)
  })

  it("a seeded session counts as a fetch when the page mounts: focus events within 5 s cost nothing, past it one request", async () => {
    await signInAda()
    const mounted = Date.now()
    const page = await openTab({ seed: true })
    await expectAda(page)
    await burstOfFocusEvents(page)
    expect(sessionReads("a")).toEqual([])

    await sleep(mounted + FLOOR_MS + 500 - Date.now())
    await burstOfFocusEvents(page)
    expect(sessionReads("a")).toHaveLength(1)
  })

  it("with refetchOnWindowFocus={false}, focus events past the floor fetch nothing", async () => {
    const page = await openTab({ provider: { refetchOnWindowFocus: false } })
    await expectText(page, "#status", "unauthenticated")
    const [first] = sessionReads("a")
    await sleep(first!.at + FLOOR_MS + 200 - Date.now())
    await burstOfFocusEvents(page)
    expect(sessionReads("a")).toHaveLength(1)
  })

  it("refetchInterval={1} polls no faster than the 5 s floor: nothing in the first 3.5 s, the first poll about 5 s after the first fetch", async () => {
    await signInAda()
    const page = await openTab({ provider: { refetchInterval: 1 } })
    await expectAda(page)
    const [first] = sessionReads("a")
    await sleep(first!.at + 3_500 - Date.now())
    expect(sessionReads("a")).toHaveLength(1)

    await expect.poll(() => sessionReads("a").length, { timeout: 4_000 }).toBe(2)
    const poll = sessionReads("a")[1]!
    expect(poll.at - first!.at).toBeGreaterThanOrEqual(FLOOR_MS - 100)
    expect(poll.at - first!.at).toBeLessThan(FLOOR_MS + 1_500)
  })
})

describe("update", () => {
  it("update({ name }) posts the data to the jwt callback's update trigger and renders the new name", async () => {
    await signInAda()
    const page = await openTab({})
    await expectAda(page)
    await press(page, "#rename")
    await expectText(page, "#name", "Grace Hopper")
    const posts = log.filter((entry) => entry.method === "POST" && entry.path === `${BASE}/session`)
    expect(posts.map((post) => (JSON.parse(post.body) as { data: unknown }).data)).toEqual([{ name: "Grace Hopper" }])
    // The cookie was rewritten: a fresh read from outside the page says so too.
    const session = (await (await context.request.get(`${server.origin}${BASE}/session`)).json()) as { user: { name: string } }
    expect(session.user.name).toBe("Grace Hopper")
  })

  it("update() without data fetches the session again and renders what changed elsewhere", async () => {
    await signInAda()
    const page = await openTab({})
    await expectAda(page)
    await renameElsewhere("Grace Hopper")
    await sleep(300)
    expect(await textOf(page, "#name")).toBe("Ada Lovelace")

    await press(page, "#refetch")
    await expectText(page, "#name", "Grace Hopper")
  })
})

describe("other tabs", () => {
  it("signing in, renaming and signing out in one tab show in another at once, well within the 5 s floor", async () => {
    const a = await openTab({}, "a")
    const b = await openTab({}, "b")
    await expectText(a, "#status", "unauthenticated")
    await expectText(b, "#status", "unauthenticated")

    await press(a, "#sign-in")
    await expectAda(b)
    await expectAda(a)

    await press(a, "#rename")
    await expectText(b, "#name", "Grace Hopper")

    await press(a, "#sign-out")
    await expectText(b, "#status", "unauthenticated")
    await expectText(a, "#status", "unauthenticated")
    expect(sessionReads("b").at(-1)!.at - sessionReads("b")[0]!.at).toBeLessThan(FLOOR_MS)
  })

  it("a tab whose first fetch was still in flight when another tab signed out ends signed out", async () => {
    await signInAda()
    const a = await openTab({}, "a")
    await expectAda(a)

    let release!: () => void
    held = new Promise((resolve) => (release = resolve))
    const b = await openTab({}, "b")
    await expect.poll(() => sessionReads("b").length).toBe(1) // answered for Ada, but held
    await press(a, "#sign-out")
    await expectText(a, "#status", "unauthenticated")
    release()

    await expectText(b, "#status", "unauthenticated")
  })
})

describe("useSession({ required: true }) signed out", () => {
  it("goes to {basePath}/signin?callbackUrl=<the page>, its status loading meanwhile", async () => {
    // The first time, the sign-in page answers 204 No Content: the browser stays on the page,
    // which still shows what it rendered while redirecting.
    const redirects: string[] = []
    const isSignIn = (url: URL) => url.pathname === `${BASE}/signin`
    const page = await openTab({ required: true }, "a", (page) =>
      page.route(isSignIn, (route) => (redirects.push(route.request().url()), route.fulfill({ status: 204 }))),
    )
    const pageUrl = page.url()
    await expect.poll(() => redirects.length).toBe(1)
    expect(new URL(redirects[0]!).searchParams.get("callbackUrl")).toBe(pageUrl)
    expect(await textOf(page, "#status")).toBe("unauthenticated")
    expect(await textOf(page, "#guarded-statuses")).toBe("loading")

    // Let through, it lands on the built-in sign-in page.
    await page.unroute(isSignIn)
    await Promise.all([page.waitForURL(isSignIn), page.reload()])
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(pageUrl)
    expect(await page.title()).toMatch(/sign in/i)
  })

  it("calls onUnauthenticated once instead, and stays on the page showing loading", async () => {
    const page = await openTab({ required: true, onUnauthenticated: true })
    const pageUrl = page.url()
    await expectText(page, "#status", "unauthenticated")
    await expectText(page, "#unauthenticated-calls", "1")
    await sleep(500)
    expect(await textOf(page, "#unauthenticated-calls")).toBe("1")
    expect(await textOf(page, "#guarded-statuses")).toBe("loading")
    expect(page.url()).toBe(pageUrl)
    expect(log.filter((entry) => entry.path === `${BASE}/signin`)).toEqual([])
  })
})

describe("basePath", () => {
  it("sends the provider's fetches and getCsrfToken, getProviders and signOut to the basePath prop's routes", async () => {
    await signInAda()
    const page = await openTab({ provider: { basePath: OTHER_BASE } })
    await expectAda(page)

    await press(page, "#csrf")
    await expect.poll(async () => JSON.parse((await textOf(page, "#result")) || "null") as unknown).toMatch(/^\w{32,}$/)
    await press(page, "#providers")
    await expect.poll(async () => JSON.parse((await textOf(page, "#result")) || "null") as unknown).toMatchObject({ credentials: { id: "credentials" } })
    await press(page, "#sign-out")
    await expectText(page, "#status", "unauthenticated")

    const fromPage = log.filter((entry) => entry.tab === "a").map((entry) => `${entry.method} ${entry.path}`)
    expect(fromPage).toEqual(expect.arrayContaining([`GET ${OTHER_BASE}/csrf`, `GET ${OTHER_BASE}/providers`, `POST ${OTHER_BASE}/signout`]))
    expect(fromPage.filter((request) => !request.includes(`${OTHER_BASE}/`))).toEqual([])
    expect(sessionReads("a", OTHER_BASE).length).toBeGreaterThanOrEqual(2) // the first render, and after signing out
  })
})

describe("gatehouse-auth/webauthn on a page with a SessionProvider", () => {
  it("signs in at the provider's basePath when given none, and the provider shows the session at once", async () => {
    const page = await openTab({ provider: { basePath: OTHER_BASE } })
    await expectText(page, "#status", "unauthenticated")
    await press(page, "#webauthn-sign-in")
    await expectAda(page)
    const fromPage = log.filter((entry) => entry.tab === "a").map((entry) => `${entry.method} ${entry.path}`)
    expect(fromPage).toContain(`POST ${OTHER_BASE}/callback/credentials`)
    expect(fromPage.filter((request) => !request.includes(`${OTHER_BASE}/`))).toEqual([])
    // Told by the sign-in, not by a focus or a poll: well within the floor.
    expect(sessionReads("a", OTHER_BASE).at(-1)!.at - sessionReads("a", OTHER_BASE)[0]!.at).toBeLessThan(FLOOR_MS)
  })

  it("signs in at the provider's default base path, /api/auth, in a tab that names none", async () => {
    const page = await openTab({})
    await expectText(page, "#status", "unauthenticated")
    await press(page, "#webauthn-sign-in")
    await expectAda(page)
    expect(log.filter((entry) => entry.tab === "a" && entry.method === "POST").map((entry) => entry.path)).toEqual([`${BASE}/callback/credentials`])
  })
})

describe("next-auth's call shapes", () => {
  it("signIn() without a provider goes to {basePath}/signin, coming back to the page", async () => {
    const page = await openTab({})
    await expectText(page, "#status", "unauthenticated")
    const start = page.url()
    await press(page, "#sign-in-page")
    await page.waitForURL((url) => url.pathname === `${BASE}/signin`)
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(start)
  })

  it("signIn and signOut take callbackUrl where redirectTo is not given", async () => {
    const page = await openTab({})
    await expectText(page, "#status", "unauthenticated")
    await press(page, "#sign-in-callback-url")
    await expect.poll(async () => (JSON.parse((await textOf(page, "#result")) || "null") as { url?: string } | null)?.url).toBe(`${server.origin}/after-sign-in`)
    await press(page, "#sign-out-callback-url")
    await expect.poll(async () => (JSON.parse((await textOf(page, "#result")) || "null") as { url?: string } | null)?.url).toBe(`${server.origin}/after-sign-out`)
    const posted = log.filter((entry) => entry.method === "POST").map((entry) => new URLSearchParams(entry.body).get("callbackUrl"))
    expect(posted).toEqual(["/after-sign-in", "/after-sign-out"])
  })

  it("signIn's third argument goes to the OAuth provider's authorization request", async () => {
    const page = await openTab({})
    await expectText(page, "#status", "unauthenticated")
    await page.route("https://hub.test/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "the provider" }))
    const atProvider = page.waitForRequest((request) => new URL(request.url()).host === "hub.test")
    await press(page, "#sign-in-oauth-params")
    const authorization = new URL((await atProvider).url())
    expect(authorization.pathname).toBe("/authorize")
    expect(authorization.searchParams.get("prompt")).toBe("login")
    expect(authorization.searchParams.get("login_hint")).toBe("ada@example.com")
    expect(authorization.searchParams.get("client_id")).toBe("client")
  })
})

describe("misuse", () => {
  it("useSession outside a SessionProvider throws an error that says so", async () => {
    const page = await openTab({ outsideProvider: true })
    await expectText(page, "#error", "useSession must be used inside <SessionProvider>")
  })
})

describe("two-factor sign-in (issue 37)", () => {
  it("useSession shows session.authentication: nothing while the second factor is pending, aal 2 once it passed", async () => {
    const at = (path: string) => `${server.origin}${TWO_FACTOR_BASE}/${path}`
    const csrf = (await (await context.request.get(at("csrf"))).json()) as { csrfToken: string }
    const first = await context.request.post(at("callback/credentials"), { form: { csrfToken: csrf.csrfToken, username: "ada", password: "correct horse" }, maxRedirects: 0 })
    expect(first.headers()["location"]).toBe(at("two-factor"))
    const pending = await openTab({ provider: { basePath: TWO_FACTOR_BASE } })
    await expectText(pending, "#status", "unauthenticated")
    expect(await textOf(pending, "#authentication")).toBe("null")

    const done = await context.request.post(at("two-factor"), { form: { csrfToken: csrf.csrfToken, code: totpNow(twoFactorKey) }, maxRedirects: 0 })
    expect(done.status()).toBe(302)
    const page = await openTab({ provider: { basePath: TWO_FACTOR_BASE } }, "b")
    await expectAda(page)
    const authentication = JSON.parse((await textOf(page, "#authentication"))!) as { aal: number; amr: string[]; secondFactorAt: string }
    expect(authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    expect(Date.now() - Date.parse(authentication.secondFactorAt)).toBeLessThan(60_000)
  })
})
