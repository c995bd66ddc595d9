/**
 * Two-step sign-in in a real browser: headless Chromium (support/chromium.ts) against a Gatehouse
 * app on 127.0.0.1 with a SQLite file store and database sessions. Users have an authenticator
 * app enabled through the adapter (sealed secret + `enableTotp`, as a confirmed enrolment leaves
 * them); codes are computed here with node:crypto (RFC 6238), not with the library. The built-in
 * pages are driven with the keyboard alone and found by their accessible names, as a screen-reader
 * user finds them.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { Auth } from "../../src/core/handler.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { launchChromium } from "../support/chromium.js"
import { serveWeb, type WebServer } from "../support/web-server.js"
import { isFailure, recordingLogger, secret } from "../flow/flow-helpers.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { currentStep, totpAt } from "../support/totp-reference.js"

/** The browser client's modules as the package ships them (`npm test` builds before testing). */
const clientModule = readFileSync(new URL("../../dist/client/index.js", import.meta.url), "utf8")
const twoFactorModule = readFileSync(new URL("../../dist/client/two-factor.js", import.meta.url), "utf8")
/** `window.client` is `gatehouse-auth/client`, `window.twoFactor` `gatehouse-auth/client/two-factor`. */
const CLIENT_PAGE = `<!doctype html><title>Client</title><h1>Client</h1>
<script type="module">import * as client from "/client.js"; import * as twoFactor from "/two-factor.js"; window.client = client; window.twoFactor = twoFactor; document.title = "Client ready"</script>`

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "listSessionsByUserId">>

/** A code none of the three steps the server accepts would give. */
function wrongCode(key: Uint8Array): string {
  const right = new Set([-1, 0, 1].map((delta) => totpAt(key, currentStep() + delta)))
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0")
    if (!right.has(candidate)) return candidate
  }
}

interface Person {
  username: string
  uid: string
  key: Uint8Array
  recoveryCode: string
}

interface SessionJSON {
  user?: { email?: string | null }
  authentication?: { aal: number; amr: string[]; secondFactorAt: string | null }
}

let browser: Browser
let store: OpenStore
let server: WebServer
let origin: string
let errors: () => string[]
const people = new Map<string, Person>()

async function enrol(adapter: Adapted, username: string): Promise<Person> {
  const { id: uid } = await adapter.createUser({ id: "", name: username, email: `${username}@app.test`, emailVerified: new Date() } as AdapterUser)
  const key = new Uint8Array(randomBytes(20))
  const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
  await adapter.setTotpPendingSecret(uid, sealed)
  const recoveryCode = "QRSTV-WXYZ2-34QRS-TVWXY-Z2345"
  expect(await adapter.enableTotp(uid, { sealed, step: currentStep() - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, [recoveryCode]) })).toBe(true)
  return { username, uid, key, recoveryCode }
}

beforeAll(async () => {
  browser = await launchChromium()
  store = await storedAdapters.find((candidate) => candidate.name === "SQLite file")!.open()
  const adapter = store.adapter as unknown as Adapted
  for (const name of ["ada", "bob", "cy", "dee"]) people.set(name, await enrol(adapter, name))
  const { logger, lines } = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger,
    adapter,
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => {
          const person = people.get(String(username))
          return person && password === "correct horse" ? { id: person.uid, name: person.username, email: `${person.username}@app.test` } : null
        },
        rateLimit: false,
      }),
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, trustDevice: { maxAge: 30 * 24 * 60 * 60 } },
  }
  const script = (code: string) => new Response(code, { headers: { "content-type": "text/javascript" } })
  server = await serveWeb((request) => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith("/auth/")) return Auth(request, config as Omit<AuthConfig, "raw">)
    if (pathname === "/client.js") return script(clientModule)
    if (pathname === "/two-factor.js") return script(twoFactorModule)
    if (pathname === "/client") return new Response(CLIENT_PAGE, { headers: { "content-type": "text/html" } })
    return new Response("<!doctype html><title>Dashboard</title><h1>Dashboard</h1>", { headers: { "content-type": "text/html" } })
  })
  origin = server.origin
  // A wrong code is an expected refusal (a warning line); only faults count as failures here.
  errors = () => lines.filter(isFailure).filter((line) => line.code !== "InvalidTwoFactorCode").map((line) => String(line.code))
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await store?.close()
})

function sessionOf(page: Page): Promise<SessionJSON | null> {
  return page.evaluate(() => fetch("/auth/session").then((response) => response.json() as Promise<SessionJSON | null>))
}

/**
 * The id of the focused element (what the keyboard types into). Chromium runs `autofocus` a frame
 * after the load event, so a page just navigated to may still have the body focused: wait for a
 * focused control first, or a loaded machine reads the body and the test fails for nothing.
 */
async function focused(page: Page): Promise<string | undefined> {
  await page.waitForFunction(() => document.activeElement !== null && document.activeElement !== document.body, undefined, { timeout: 10_000 })
  return page.evaluate(() => document.activeElement?.id)
}

/** The built-in sign-in page, filled in and sent with the keyboard alone. */
async function signInWithKeyboard(page: Page, username: string): Promise<void> {
  await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
  // The page gives the first empty field the focus.
  expect(await focused(page)).toBe(await page.getByLabel("Username").getAttribute("id"))
  await page.keyboard.type(username)
  await page.keyboard.press("Tab")
  expect(await focused(page)).toBe(await page.getByLabel("Password").getAttribute("id"))
  await page.keyboard.type("correct horse")
  await Promise.all([page.waitForURL(`${origin}/auth/two-factor`), page.keyboard.press("Enter")])
}

async function freshContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext()
  return { context, page: await context.newPage() }
}

// Several sign-ins per test in one browser: a two-core CI machine running other files beside
// this one needs more than the default 20 s (measured 13–18 s for the trust test under load).
describe("two-step sign-in in Chromium (SQLite, database sessions)", { timeout: 60_000 }, () => {
  it("keyboard only: password, then the authenticator code on the challenge page, found by accessible names; signed in at aal 2", async () => {
    const ada = people.get("ada")!
    const { context, page } = await freshContext()
    await signInWithKeyboard(page, "ada")
    // No session yet: the first factor alone made none.
    expect(await sessionOf(page)).toBeNull()
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("authjs.session-token")

    expect(await page.title()).toBe("Two-step verification")
    await expect(page.getByRole("heading", { level: 1, name: "Two-step verification" }).count()).resolves.toBe(1)
    await expect(page.getByRole("group", { name: "Authenticator app" }).count()).resolves.toBe(1)
    await expect(page.getByRole("group", { name: "Recovery code" }).count()).resolves.toBe(1)
    const code = page.getByRole("textbox", { name: "Code from your authenticator app" })
    expect(await code.getAttribute("autocomplete")).toBe("one-time-code")
    expect(await code.getAttribute("inputmode")).toBe("numeric")
    expect(await page.getByRole("checkbox", { name: /Don't ask again on this browser/ }).isChecked()).toBe(false)
    // The code field has the focus: type, then Enter sends its form.
    expect(await focused(page)).toBe("two-factor-totp")
    const typed = totpAt(ada.key, currentStep())
    await page.keyboard.type(`${typed.slice(0, 3)} ${typed.slice(3)}`)
    await Promise.all([page.waitForURL(`${origin}/dashboard`), page.keyboard.press("Enter")])

    const session = await sessionOf(page)
    expect(session?.user?.email).toBe("ada@app.test")
    expect(session?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    expect(Date.now() - Date.parse(session!.authentication!.secondFactorAt!)).toBeLessThan(60_000)
    expect(await (store.adapter as unknown as Adapted).listSessionsByUserId(ada.uid)).toHaveLength(1)
    // Not trusted: the box was left alone.
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("authjs.two-factor-trust")
    await context.close()
    expect(errors()).toEqual([])
  })

  it("a wrong code comes back as an alert the field is described by; then a recovery code signs in", async () => {
    const bob = people.get("bob")!
    const { context, page } = await freshContext()
    await signInWithKeyboard(page, "bob")
    await page.getByLabel("Code from your authenticator app").fill(wrongCode(bob.key))
    await Promise.all([page.waitForURL(`${origin}/auth/two-factor?error=InvalidTwoFactorCode`), page.getByRole("button", { name: "Verify" }).click()])

    const alert = page.getByRole("alert")
    expect(await alert.textContent()).toBe("That code did not work. Check it and try again.")
    const description = await page.evaluate(() => {
      const field = document.getElementById("two-factor-totp")!
      return (field.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent).join(" ")
    })
    expect(description).toBe("That code did not work. Check it and try again.")
    expect(await page.getByLabel("Code from your authenticator app").getAttribute("aria-invalid")).toBe("true")
    expect(await sessionOf(page)).toBeNull()

    await page.getByRole("textbox", { name: "Recovery code" }).fill(bob.recoveryCode.toLowerCase())
    await Promise.all([page.waitForURL(`${origin}/dashboard`), page.getByRole("button", { name: "Use recovery code" }).click()])
    expect((await sessionOf(page))?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    await context.close()
    expect(errors()).toEqual([])
  })

  it("trusting the browser (ticked with the keyboard): the next sign-in there skips the challenge, at aal 2", async () => {
    const cy = people.get("cy")!
    const { context, page } = await freshContext()
    await signInWithKeyboard(page, "cy")
    // Typed only once the page's autofocus has put the cursor in the code field: on a loaded machine
    // keys typed before it land nowhere, and an empty code was sent (a CI failure).
    expect(await focused(page)).toBe("two-factor-totp")
    await page.keyboard.type(totpAt(cy.key, currentStep()))
    await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("two-factor-trust-totp")
    await page.keyboard.press("Space")
    expect(await page.getByRole("checkbox", { name: "Don't ask again on this browser for 30 days" }).isChecked()).toBe(true)
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Verify")
    await Promise.all([page.waitForURL(`${origin}/dashboard`), page.keyboard.press("Enter")])
    const first = (await sessionOf(page))?.authentication
    expect(first).toMatchObject({ aal: 2 })
    expect((await context.cookies()).map((cookie) => cookie.name)).toContain("authjs.two-factor-trust")

    // Signed out on the built-in page: the session goes, the browser's trust stays.
    await page.goto(`${origin}/auth/signout?callbackUrl=${encodeURIComponent(`${origin}/signed-out`)}`)
    await Promise.all([page.waitForURL(`${origin}/signed-out`), page.getByRole("button", { name: "Sign out" }).click()])
    expect(await sessionOf(page)).toBeNull()

    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
    await page.getByLabel("Username").fill("cy")
    await page.getByLabel("Password").fill("correct horse")
    await Promise.all([page.waitForURL(`${origin}/dashboard`), page.keyboard.press("Enter")])
    const again = (await sessionOf(page))?.authentication
    expect(again).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    // Dated from the check that earned the trust, not from this sign-in.
    expect(Date.parse(again!.secondFactorAt!)).toBeLessThanOrEqual(Date.parse(first!.secondFactorAt!) + 1000)

    // Another browser is not trusted: the challenge is back.
    const other = await freshContext()
    await signInWithKeyboard(other.page, "cy")
    await other.context.close()
    await context.close()
    expect(errors()).toEqual([])
  })

  it("from the app's own page: signIn (redirect: false) says twoFactor, verifyTwoFactor of gatehouse-auth/client/two-factor finishes it", async () => {
    const dee = people.get("dee")!
    const { context, page } = await freshContext()
    await page.goto(`${origin}/client`)
    await page.waitForFunction(() => document.title === "Client ready")
    type Window = { client: typeof import("../../src/client/index.js"); twoFactor: typeof import("../../src/client/two-factor.js") }
    const first = await page.evaluate(
      (dashboard) => (window as unknown as Window).client.signIn("credentials", { username: "dee", password: "correct horse", redirectTo: dashboard, redirect: false }),
      `${origin}/dashboard`,
    )
    expect(first).toMatchObject({ ok: true, url: `${origin}/auth/two-factor`, twoFactor: true })
    expect(await sessionOf(page)).toBeNull()

    const wrong = await page.evaluate(async (code) => {
      try {
        await (window as unknown as Window).twoFactor.verifyTwoFactor({ code })
        return "resolved"
      } catch (error) {
        return `${(error as Error).constructor.name} ${(error as Error).name}`
      }
    }, wrongCode(dee.key))
    expect(wrong).toBe("TwoFactorRouteError InvalidTwoFactorCode")

    const done = await page.evaluate((code) => (window as unknown as Window).twoFactor.verifyTwoFactor({ code }), totpAt(dee.key, currentStep()))
    expect(done).toEqual({ url: `${origin}/dashboard` })
    expect((await sessionOf(page))?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    await context.close()
    expect(errors()).toEqual([])
  })
})
