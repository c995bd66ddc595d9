/**
 * Passkeys in a real browser: headless Chromium (Debian's, through playwright-core) with the
 * DevTools virtual authenticator, against a Gatehouse app listening on 127.0.0.1 and visited as
 * `localhost` (WebAuthn needs a domain, and localhost is a secure context), on SQLite and
 * PostgreSQL under both session strategies.
 */
import { readFileSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { WebAuthnOptions } from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { launchChromium, passkeyPage, type PasskeyPage, type VirtualAuthenticator } from "../support/chromium.js"
import { serveWeb, type WebServer } from "../support/web-server.js"
import { isFailure, recordingLogger, secret } from "./flow-helpers.js"
import { storedAdapters, type OpenStore } from "./stored-adapters.js"

/** The browser client's modules as the package ships them (`npm test` builds before testing). */
const clientModule = readFileSync(new URL("../../dist/client/index.js", import.meta.url), "utf8")
const webauthnModule = readFileSync(new URL("../../dist/webauthn/index.js", import.meta.url), "utf8")

/** `window.gatehouse` is `gatehouse-auth/webauthn`, `window.gatehouseClient` `gatehouse-auth/client`. */
const CLIENT_PAGE = `<!doctype html><title>Client</title><h1>Client</h1>
<script type="module">import * as gatehouse from "/webauthn.js"; import * as client from "/client.js"; window.gatehouse = gatehouse; window.gatehouseClient = client; document.title = "Client ready"</script>`

/**
 * Three configurations on one server, sharing the store and the secret: the app itself under
 * `/auth`, and two that expect another relying party (`/rp-elsewhere/auth`) or origin
 * (`/origin-elsewhere/auth`), for responses signed for the app but posted to them.
 */
const MOUNTS: Record<string, WebAuthnOptions> = {
  "/auth": {},
  "/rp-elsewhere/auth": { relyingParty: { id: "gatehouse.test" } },
  "/origin-elsewhere/auth": { relyingParty: { origin: "https://elsewhere.test" } },
  // No autofill, so that a test clicks "Sign in with Passkey" before anything signs in by itself.
  "/no-autofill/auth": { enableConditionalUI: false },
}

interface PasskeyApp {
  server: WebServer
  origin: string
  errors(): string[]
}

function startApp(store: OpenStore, strategy: "jwt" | "database"): Promise<PasskeyApp> {
  const { logger, lines } = recordingLogger()
  const configs = Object.entries(MOUNTS).map(([basePath, options]) => ({
    basePath,
    config: {
      basePath,
      secret,
      trustHost: true,
      logger,
      adapter: store.adapter,
      session: { strategy },
      experimental: { enableWebAuthn: true },
      providers: [Passkey(options)],
    } satisfies AuthConfig,
  }))
  return serveWeb((request) => {
    const { pathname } = new URL(request.url)
    const mount = configs.find(({ basePath }) => pathname.startsWith(`${basePath}/`))
    if (mount) return Auth(request, mount.config)
    if (pathname === "/client.js") return new Response(clientModule, { headers: { "content-type": "text/javascript" } })
    if (pathname === "/webauthn.js") return new Response(webauthnModule, { headers: { "content-type": "text/javascript" } })
    if (pathname === "/client") return new Response(CLIENT_PAGE, { headers: { "content-type": "text/html" } })
    return new Response("<!doctype html><title>Home</title><h1>Home</h1>", { headers: { "content-type": "text/html" } })
  }).then((server) => ({
    server,
    origin: server.origin,
    // Refusals are one warning line (with the check's own message), faults an error: both are failures.
    errors: () => lines.filter(isFailure).map((line) => `${line.code}: ${describeError(line.message[0])}`),
  }))
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: { err?: unknown } }).cause?.err
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message
}

interface SessionJSON {
  user?: { email?: string | null; name?: string | null }
  expires?: string
}

function sessionOf(page: Page): Promise<SessionJSON | null> {
  return page.evaluate(() => fetch("/auth/session").then((response) => response.json() as Promise<SessionJSON | null>))
}

/** Runs `action` (which makes the page navigate) and waits until it lands on `url`, from elsewhere. */
async function landOn(page: Page, url: string, action: () => Promise<unknown>): Promise<void> {
  expect(page.url()).not.toBe(url)
  await Promise.all([page.waitForURL(url, { timeout: 15_000 }), action()])
}

/**
 * Opens `url` without waiting for the page to load: a sign-in page with autofill may sign in, and
 * navigate away, before its load event.
 */
function open(page: Page, url: string): Promise<unknown> {
  return page.goto(url, { waitUntil: "commit" })
}

/** Signs out on the built-in sign-out page, landing on `/signed-out`. */
async function signOutOnPage(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/auth/signout?callbackUrl=${encodeURIComponent(`${origin}/signed-out`)}`)
  await landOn(page, `${origin}/signed-out`, () => page.click("button"))
}

/** Calls `signIn` of `gatehouse-auth/webauthn` on the client page without waiting for it (it navigates). */
async function clientSignIn(page: Page, origin: string, options: Record<string, unknown>): Promise<void> {
  await page.goto(`${origin}/client`)
  await page.waitForFunction(() => document.title === "Client ready")
  await landOn(page, `${origin}/`, () =>
    page.evaluate((opts) => {
      void (window as unknown as { gatehouse: { signIn(id: string, o: object): Promise<unknown> } }).gatehouse.signIn("passkey", opts)
    }, options),
  )
}

/** A passkey callback the page posted: its form body and the challenge cookie it carried. */
interface CapturedCallback {
  body: string
  cookie: string
}

/**
 * Records the next POST to the app's passkey callback; `continue` lets it through, `hold` answers
 * 204 in its place (its challenge then stays unspent).
 */
async function captureCallback(passkeys: PasskeyPage, origin: string, mode: "continue" | "hold"): Promise<() => CapturedCallback | undefined> {
  let captured: CapturedCallback | undefined
  await passkeys.page.route(`${origin}/auth/callback/passkey`, async (route) => {
    const cookie = (await passkeys.context.cookies(origin)).find((c) => c.name === "authjs.challenge")
    captured = { body: route.request().postData() ?? "", cookie: `authjs.challenge=${cookie?.value}` }
    await (mode === "continue" ? route.continue() : route.fulfill({ status: 204 }))
  })
  return () => captured
}

/** Posts a captured callback again, from outside the browser, to the callback under `basePath`. */
function postAgain(origin: string, basePath: string, captured: CapturedCallback): Promise<Response> {
  return fetch(`${origin}${basePath}/callback/passkey`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: captured.cookie },
    body: captured.body,
  })
}

/** The stored form (standard base64) of a credential id as the virtual authenticator reports it. */
async function storedIds(authenticator: VirtualAuthenticator): Promise<string[]> {
  return (await authenticator.credentials()).map((credential) => Buffer.from(credential.credentialId, "base64").toString("base64"))
}

const cases = storedAdapters
  .filter((store) => store.name !== "memory")
  .flatMap((store) => (["database", "jwt"] as const).map((strategy) => ({ store, strategy })))

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

describe.each(cases)("passkeys in Chromium on $store.name with $strategy sessions", ({ store, strategy }) => {
  const email = `ada.${strategy}@example.com`
  let opened: OpenStore
  let app: PasskeyApp
  let session: PasskeyPage & { authenticator: VirtualAuthenticator }
  let page: Page
  let userId: string

  beforeAll(async () => {
    opened = await store.open()
    app = await startApp(opened, strategy)
    session = await passkeyPage(browser)
    page = session.page
  })
  afterAll(async () => {
    await session?.context.close()
    await app?.server.stop()
    await opened?.close()
  })

  it("signs up with a new passkey on the built-in sign-in page: a new user with the typed address, not yet proven", async () => {
    await page.goto(`${app.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${app.origin}/`)}`)
    await page.fill("#input-email-for-passkey-provider", email)
    await landOn(page, `${app.origin}/`, () => page.click('button[value="register"]'))

    expect((await sessionOf(page))?.user).toMatchObject({ email })
    const [credentialID] = await storedIds(session.authenticator)
    const user = await opened.adapter.getUserByAccount!({ provider: "passkey", providerAccountId: credentialID! })
    expect(user).toMatchObject({ email, emailVerified: null })
    expect(user?.name ?? null).toBeNull()
    expect((await opened.adapter.getUserByEmail!(email))?.id).toBe(user!.id)
    userId = user!.id
    const [stored] = await opened.adapter.listAuthenticatorsByUserId!(userId)
    expect(stored).toMatchObject({ credentialID, providerAccountId: credentialID, counter: expect.any(Number), transports: "internal" })
    expect(await opened.adapter.getAccount!(credentialID!, "passkey")).toMatchObject({ userId, type: "webauthn" })
    expect(app.errors()).toEqual([])
  })

  it("signs out, then back in through autofill (conditional UI) as soon as the sign-in page opens", async () => {
    await signOutOnPage(page, app.origin)
    expect(await sessionOf(page)).toBeNull()
    const [before] = await opened.adapter.listAuthenticatorsByUserId!(userId)

    await landOn(page, `${app.origin}/`, () => open(page, `${app.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${app.origin}/`)}`))

    expect((await sessionOf(page))?.user?.email).toBe(email)
    const [after] = await opened.adapter.listAuthenticatorsByUserId!(userId)
    expect(after!.counter).toBeGreaterThan(before!.counter)
  })

  it("signs in with signIn('passkey') from gatehouse-auth/webauthn", async () => {
    await signOutOnPage(page, app.origin)
    await clientSignIn(page, app.origin, { redirectTo: "/" })
    expect((await sessionOf(page))?.user?.email).toBe(email)
  })

  it("adds a second passkey, from another authenticator, to the signed-in account", async () => {
    // The first authenticator already holds a passkey for this account: the options exclude it.
    await page.goto(`${app.origin}/client`)
    await page.waitForFunction(() => document.title === "Client ready")
    const refusal = await page.evaluate(() =>
      (window as unknown as { gatehouse: { signIn(id: string, o: object): Promise<unknown> } }).gatehouse
        .signIn("passkey", { action: "register", redirect: false })
        .then(() => "registered", (error: Error) => `${error.name}: ${error.message}`),
    )
    expect(refusal).toBe("InvalidStateError: This device already holds a passkey for this account.")

    await session.authenticator.remove()
    session.authenticator = await session.addAuthenticator()
    await clientSignIn(page, app.origin, { action: "register", redirectTo: "/" })

    const authenticators = await opened.adapter.listAuthenticatorsByUserId!(userId)
    expect(authenticators).toHaveLength(2)
    expect(authenticators.map((a) => a.credentialID)).toContain((await storedIds(session.authenticator))[0])
    expect(new Set(authenticators.map((a) => a.userId))).toEqual(new Set([userId]))

    await signOutOnPage(page, app.origin)
    await clientSignIn(page, app.origin, { redirectTo: "/" })
    expect((await sessionOf(page))?.user?.email).toBe(email)
    expect(app.errors()).toEqual([])
  })

  describe("refusals", () => {
    const signInPage = () => `${app.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${app.origin}/`)}`
    const errorPage = () => `${app.origin}/auth/error?error=WebAuthnVerificationError`

    it("refuses a tampered assertion", async () => {
      await signOutOnPage(page, app.origin)
      await page.route(`${app.origin}/auth/callback/passkey`, async (route) => {
        const body = new URLSearchParams(route.request().postData() ?? "")
        const data = JSON.parse(body.get("data")!) as { response: { signature: string } }
        const signature = Buffer.from(data.response.signature, "base64url")
        signature[signature.length - 1]! ^= 0x01
        data.response.signature = signature.toString("base64url")
        body.set("data", JSON.stringify(data))
        await route.continue({ postData: body.toString() })
      })
      await landOn(page, errorPage(), () => open(page, signInPage()))
      await page.unrouteAll()
      expect(await sessionOf(page)).toBeNull()
      expect(app.errors().at(-1)).toMatch(/^WebAuthnVerificationError: The passkey authentication did not verify/)
    })

    it("refuses a challenge cookie and response replayed after a sign-in, even where the counter would not catch it", async () => {
      const captured = await captureCallback(session, app.origin, "continue")
      await landOn(page, `${app.origin}/`, () => open(page, signInPage()))
      await page.unrouteAll()
      expect((await sessionOf(page))?.user?.email).toBe(email)

      // An authenticator whose counter stays at 0 (many platform passkeys) leaves only the challenge.
      const data = JSON.parse(new URLSearchParams(captured()!.body).get("data")!) as { id: string }
      await opened.adapter.updateAuthenticatorCounter!(Buffer.from(data.id, "base64url").toString("base64"), 0)
      const replay = await postAgain(app.origin, "/auth", captured()!)
      expect(replay.headers.get("location")).toBe(errorPage())
      expect(replay.headers.getSetCookie().join("\n")).not.toContain("session-token")
      expect(app.errors().at(-1)).toBe("WebAuthnVerificationError: This challenge was already used")
    })

    it("refuses a passkey whose counter went backwards", async () => {
      await signOutOnPage(page, app.origin)
      const [credentialID] = await storedIds(session.authenticator)
      await opened.adapter.updateAuthenticatorCounter!(credentialID!, 1_000_000)
      await landOn(page, errorPage(), () => open(page, signInPage()))
      expect(await sessionOf(page)).toBeNull()
      expect(app.errors().at(-1)).toMatch(/counter value \d+ was lower than expected 1000000/)
    })

    it("refuses responses signed for the app when the server expects another relying party or origin", async () => {
      const captured = await captureCallback(session, app.origin, "hold")
      const [credentialID] = await storedIds(session.authenticator)
      await opened.adapter.updateAuthenticatorCounter!(credentialID!, 0)
      await open(page, signInPage())
      await expect.poll(captured, { timeout: 15_000 }).toBeDefined()
      await page.unrouteAll()

      const post = (basePath: string) => postAgain(app.origin, basePath, captured()!)
      const elsewhere = await post("/rp-elsewhere/auth")
      expect(elsewhere.headers.get("location")).toBe(`${app.origin}/rp-elsewhere/auth/error?error=WebAuthnVerificationError`)
      expect(app.errors().at(-1)).toMatch(/Unexpected RP ID hash/)
      const otherOrigin = await post("/origin-elsewhere/auth")
      expect(otherOrigin.headers.get("location")).toBe(`${app.origin}/origin-elsewhere/auth/error?error=WebAuthnVerificationError`)
      expect(app.errors().at(-1)).toMatch(/Unexpected authentication response origin/)

      // The same response, posted where it belongs, signs in: only the party or origin was wrong.
      const home = await post("/auth")
      expect(home.headers.get("location")).toBe(`${app.origin}/`)
      expect(home.headers.getSetCookie().join("\n")).toContain("authjs.session-token=")
    })

    it("shows an error, and signs nobody in, when the options name a relying party the page is not on", async () => {
      await page.goto(`${app.origin}/rp-elsewhere/auth/signin`)
      await page.fill("#input-email-for-passkey-provider", email)
      await page.click("button")
      await expect.poll(() => page.locator("[data-webauthn-error]").textContent(), { timeout: 15_000 }).toMatch(/did not work/)
      expect(page.url()).toBe(`${app.origin}/rp-elsewhere/auth/signin`)
      expect(await sessionOf(page)).toBeNull()
    })

    it("refuses a passkey removed from the account, though the device still offers it", async () => {
      const [credentialID] = await storedIds(session.authenticator)
      await opened.run!('DELETE FROM authenticators WHERE "credentialID" = $1', [credentialID])
      await landOn(page, errorPage(), () => open(page, signInPage()))
      expect(await sessionOf(page)).toBeNull()
      expect(app.errors().at(-1)).toBe("WebAuthnVerificationError: No passkey is registered with this credential id")
    })
  })
})

describe("what the passkey form and the client say when the browser refuses", () => {
  const memory = storedAdapters.find((store) => store.name === "memory")!
  let opened: OpenStore
  let app: PasskeyApp
  let ipOrigin: string

  beforeAll(async () => {
    opened = await memory.open()
    app = await startApp(opened, "jwt")
    ipOrigin = app.origin.replace("localhost", "127.0.0.1")
  })
  afterAll(async () => {
    await app?.server.stop()
    await opened?.close()
  })

  const errorBox = (page: Page) => page.locator("[data-webauthn-error]")
  const clientRefusal = (page: Page, options: Record<string, unknown>) =>
    page.evaluate(
      (opts) =>
        (window as unknown as { gatehouse: { signIn(id: string, o: object): Promise<unknown> } }).gatehouse
          .signIn("passkey", { ...opts, redirect: false })
          .then(() => "no refusal", (error: Error) => `${error.name}: ${error.message}`),
      options,
    )

  it("signs in with the Email field left empty (no identifier is needed), while signing up still asks for it", async () => {
    const { context, page } = await passkeyPage(browser)
    const optionsRequests: string[] = []
    page.on("request", (request) => {
      if (request.url().includes("/webauthn-options/")) optionsRequests.push(request.url())
    })
    const signInPage = `${app.origin}/no-autofill/auth/signin?callbackUrl=${encodeURIComponent(`${app.origin}/`)}`
    await page.goto(signInPage)
    // Signing in skips the form's checks; signing up keeps them, so an empty address stops it in the browser.
    expect(await page.getByRole("button", { name: "Sign in with Passkey" }).getAttribute("formnovalidate")).toBe("")
    expect(await page.getByRole("button", { name: "Sign up with Passkey" }).getAttribute("formnovalidate")).toBeNull()
    const refused = page
      .locator("#input-email-for-passkey-provider")
      .evaluate((field: HTMLInputElement) => new Promise<string>((resolve) => field.addEventListener("invalid", () => resolve(field.validationMessage), { once: true })))
    await page.getByRole("button", { name: "Sign up with Passkey" }).click()
    expect(await refused).not.toBe("")
    expect(optionsRequests).toEqual([])

    await page.fill("#input-email-for-passkey-provider", "grace@example.com")
    await landOn(page, `${app.origin}/`, () => page.getByRole("button", { name: "Sign up with Passkey" }).click())
    await signOutOnPage(page, app.origin)

    await page.goto(signInPage)
    expect(await page.inputValue("#input-email-for-passkey-provider")).toBe("")
    await landOn(page, `${app.origin}/`, () => page.getByRole("button", { name: "Sign in with Passkey" }).click())
    expect((await sessionOf(page))?.user?.email).toBe("grace@example.com")
    // A sign-in sends no field: nothing typed reaches the options URL (and its access log).
    expect(new URL(optionsRequests.at(-1)!).search).toBe("?action=authenticate")
    expect(app.errors()).toEqual([])
    await context.close()
  })

  it("signing in on a device without a passkey: none found here, or cancelled, and how to make one", async () => {
    const { context, page } = await passkeyPage(browser)
    await page.goto(`${app.origin}/auth/signin`)
    await page.fill("#input-email-for-passkey-provider", "nobody@example.com")
    await page.getByRole("button", { name: "Sign in with Passkey" }).click()
    await expect
      .poll(() => errorBox(page).textContent(), { timeout: 15_000 })
      .toBe('No passkey for this site was found on this device, or the request was cancelled. To make one, use "Sign up with Passkey".')
    expect(page.url()).toBe(`${app.origin}/auth/signin`)
    expect(await sessionOf(page)).toBeNull()
    await context.close()
  })

  it("a sign-up the authenticator refuses: cancelled or timed out, not 'no passkey'", async () => {
    const { context, page, cdp, authenticator } = await passkeyPage(browser)
    // The person does not confirm: the passkey options require user verification.
    await cdp.send("WebAuthn.setUserVerified", { authenticatorId: authenticator.id, isUserVerified: false })
    await page.goto(`${app.origin}/auth/signin`)
    await page.fill("#input-email-for-passkey-provider", "nobody@example.com")
    await page.getByRole("button", { name: "Sign up with Passkey" }).click()
    await expect.poll(() => errorBox(page).textContent(), { timeout: 15_000 }).toBe("No passkey was created: the request was cancelled or timed out.")
    expect(await authenticator.credentials()).toEqual([])
    await context.close()
  })

  it("a page opened at 127.0.0.1 says, as it opens, that passkeys need localhost, and sends nothing", async () => {
    const { context, page } = await passkeyPage(browser)
    const optionsRequests: string[] = []
    page.on("request", (request) => {
      if (request.url().includes("/webauthn-options/")) optionsRequests.push(request.url())
    })
    await page.goto(`${ipOrigin}/auth/signin?callbackUrl=%2F`)
    const expected = `Passkeys do not work at an IP address such as 127.0.0.1. Open ${app.origin}/auth/signin?callbackUrl=%2F instead.`
    await expect.poll(() => errorBox(page).textContent(), { timeout: 15_000 }).toBe(expected)
    await page.fill("#input-email-for-passkey-provider", "nobody@example.com")
    await page.getByRole("button", { name: "Sign in with Passkey" }).click()
    expect(await errorBox(page).textContent()).toBe(expected)
    expect(optionsRequests).toEqual([])
    await context.close()
  })

  it("gatehouse-auth/webauthn explains the same refusals, under the browser's error names", async () => {
    const { context, page, cdp, authenticator } = await passkeyPage(browser)
    await page.goto(`${app.origin}/client`)
    await page.waitForFunction(() => document.title === "Client ready")
    expect(await clientRefusal(page, {})).toBe(
      "NotAllowedError: No passkey for this site was found on this device, or the request was cancelled. To make one, sign up with a passkey.",
    )
    await cdp.send("WebAuthn.setUserVerified", { authenticatorId: authenticator.id, isUserVerified: false })
    expect(await clientRefusal(page, { action: "register", email: "nobody@example.com" })).toBe(
      "NotAllowedError: No passkey was created: the request was cancelled or timed out.",
    )

    await page.goto(`${ipOrigin}/client`)
    await page.waitForFunction(() => document.title === "Client ready")
    expect(await clientRefusal(page, {})).toBe(`SecurityError: Passkeys do not work at an IP address such as 127.0.0.1. Open ${app.origin}/client instead.`)
    await context.close()
  })

  it("gatehouse-auth/client refuses a passkey provider, naming gatehouse-auth/webauthn, and asks the authenticator nothing", async () => {
    const { context, page } = await passkeyPage(browser)
    const optionsRequests: string[] = []
    page.on("request", (request) => {
      if (request.url().includes("/webauthn-options/")) optionsRequests.push(request.url())
    })
    await page.goto(`${app.origin}/client`)
    await page.waitForFunction(() => document.title === "Client ready")
    const refusal = await page.evaluate(() =>
      (window as unknown as { gatehouseClient: { signIn(id: string, o: object): Promise<unknown> } }).gatehouseClient
        .signIn("passkey", { redirect: false })
        .then(() => "no refusal", (error: Error) => error.message),
    )
    expect(refusal).toBe('passkey is a passkey provider: sign in with signIn from "gatehouse-auth/webauthn"')
    expect(optionsRequests).toEqual([])
    expect(await sessionOf(page)).toBeNull()
    await context.close()
  })
})
