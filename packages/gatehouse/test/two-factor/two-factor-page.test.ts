/**
 * The built-in second-factor page (`GET {basePath}/two-factor`), read as HTML through `Auth()`:
 * labelled fields a screen reader names, the error as an alert the fields point to, no text of the
 * query shown back, the ways in this user has (and only those), the step-up variant for a
 * signed-in user, enrolment for a user without a factor, and `pages.twoFactor`.
 */
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { renderTwoFactorPage, type PageContext } from "../../src/core/pages/index.js"
import { maskEmail } from "../../src/core/pages/two-factor-page.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { decode, encode } from "../../src/jwt/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/types.js"
import type { AuthConfig, TwoFactorOptions } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"

const enrolPage = vi.hoisted(() => ({ calls: [] as unknown[] }))
vi.mock("../../src/core/two-factor/enrol-page.js", () => ({
  // The enrolment part fills this seam; here it only says who it was asked for.
  twoFactorEnrolPage: async (_ctx: unknown, who: { pending?: { uid: string }; userId?: string }) => {
    enrolPage.calls.push(who.pending ? { pendingUid: who.pending.uid } : { userId: who.userId })
    return { status: 200, headers: { "Content-Type": "text/html" }, body: "<h1>Set up two-step verification</h1>" }
  },
}))

const ORIGIN = "https://app.test"
const PENDING = "__Secure-authjs.two-factor"
const SESSION = "__Secure-authjs.session-token"
const DASHBOARD = `${ORIGIN}/dashboard`
const RECOVERY_CODE = "ABCDE-FGHJK-MNPQR-STVWX-YZ012"

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "useRecoveryCode">>

afterEach(() => {
  enrolPage.calls.length = 0
})

interface AppOptions {
  twoFactor?: Partial<TwoFactorOptions>
  pages?: AuthConfig["pages"]
  /** TOTP enabled, with recovery codes (none: `[]`). */
  enrolled?: { recoveryCodes: string[] } | false
  emailVerified?: boolean
}

async function app(options: AppOptions = {}) {
  const adapter = MemoryAdapter() as Adapted
  const { id: uid } = await adapter.createUser({
    id: "",
    name: "Ada",
    email: "ada.lovelace@app.test",
    emailVerified: options.emailVerified === false ? null : new Date(),
  } as AdapterUser)
  if (options.enrolled !== false) {
    const sealed = await sealTotpSecret({ secret: [secret] }, uid, new Uint8Array(randomBytes(20)))
    await adapter.setTotpPendingSecret(uid, sealed)
    const codes = options.enrolled?.recoveryCodes ?? [RECOVERY_CODE]
    await adapter.enableTotp(uid, { sealed, step: Math.floor(Date.now() / 30_000) - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, codes) })
  }
  const email = { id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} } as EmailConfig
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada", email: "ada.lovelace@app.test" } : null),
        rateLimit: false,
      }),
      ...(options.twoFactor?.email ? [email] : []),
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, ...options.twoFactor },
    ...(options.pages && { pages: options.pages }),
  }
  const client = new Client(config)
  const signIn = () => client.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
  return { adapter, uid, client, signIn }
}

async function pageOf(client: Client, query = ""): Promise<{ response: Response; html: string }> {
  const response = await client.get(`two-factor${query}`)
  return { response, html: await response.text() }
}

/** The opening `<input …>` tag with `id`. */
function inputTag(html: string, id: string): string {
  const tag = new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0]
  if (!tag) throw new Error(`no input #${id} in the page`)
  return tag
}

/** The text of the `<label for=id>`: what a screen reader names the field. */
function labelOf(html: string, id: string): string | undefined {
  return new RegExp(`<label for="${id}"[^>]*>(.*?)</label>`).exec(html)?.[1]?.replace(/<[^>]*>/g, "").trim()
}

/** The `<form>`s of the page, each up to its end tag. */
function forms(html: string): string[] {
  return html.match(/<form[\s\S]*?<\/form>/g) ?? []
}

function hidden(form: string, name: string): string | undefined {
  return new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(form)?.[1]
}

describe("the two-factor page of a pending sign-in", () => {
  it("asks for the authenticator code in a labelled one-time-code field, and offers a recovery code as its own form", async () => {
    const { client, signIn } = await app()
    expect((await signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    const { response, html } = await pageOf(client)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    // No script runs on it, and no other site may frame it (to trick a click on the trust box).
    expect(response.headers.get("content-security-policy")).toBe("script-src 'none'; frame-ancestors 'none'")
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    expect(html).toContain("<h1>Two-step verification</h1>")
    expect(html).not.toContain("<script")

    const totp = inputTag(html, "two-factor-totp")
    expect(labelOf(html, "two-factor-totp")).toBe("Code from your authenticator app")
    expect(totp).toContain('name="code"')
    expect(totp).toContain('autocomplete="one-time-code"')
    expect(totp).toContain('inputmode="numeric"')
    expect(totp).toContain("required")
    expect(totp).toContain("autofocus")
    // The pattern a browser checks before sending: six digits, spaces allowed as apps show them.
    const pattern = new RegExp(`^(?:${/pattern="([^"]*)"/.exec(totp)![1]!})$`, "v")
    expect(["123456", "123 456"].map((code) => pattern.test(code))).toEqual([true, true])
    expect(["12345", "12345a", "1234567"].map((code) => pattern.test(code))).toEqual([false, false, false])
    expect(totp).not.toContain("aria-describedby")

    const recovery = inputTag(html, "two-factor-recovery")
    expect(labelOf(html, "two-factor-recovery")).toBe("Recovery code")
    expect(recovery).not.toContain("autofocus")

    const [totpForm, recoveryForm, ...rest] = forms(html)
    expect(rest).toEqual([])
    for (const form of [totpForm!, recoveryForm!]) {
      expect(form).toMatch(/^<form action="https:\/\/app\.test\/auth\/two-factor" method="POST">/)
      expect(hidden(form, "csrfToken")).toMatch(/^[0-9a-f]{64}$/)
      // A pending sign-in knows where it goes: no callbackUrl to post.
      expect(hidden(form, "callbackUrl")).toBeUndefined()
      expect(form).toMatch(/<fieldset><legend>[^<]+<\/legend>/)
    }
    expect(hidden(totpForm!, "method")).toBe("totp")
    expect(hidden(recoveryForm!, "method")).toBe("recovery")
    expect(totpForm).toContain('<button type="submit" class="button">Verify</button>')
    // trustDevice is off: no box.
    expect(html).not.toContain('name="trustDevice"')
  })

  it("shows a wrong code's error as an alert that every code field points to", async () => {
    const { client, signIn } = await app()
    await signIn()
    const wrong = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), method: "totp", code: "000000" })
    expect(wrong.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=InvalidTwoFactorCode`)
    const { html } = await pageOf(client, "?error=InvalidTwoFactorCode")
    expect(html).toContain('<div class="error" role="alert" id="two-factor-error"><p>That code did not work. Check it and try again.</p></div>')
    expect(inputTag(html, "two-factor-totp")).toContain('aria-describedby="two-factor-error"')
    expect(inputTag(html, "two-factor-totp")).toContain('aria-invalid="true"')
    expect(inputTag(html, "two-factor-recovery")).toMatch(/aria-describedby="two-factor-error two-factor-recovery-hint"/)
  })

  it.each([
    ["TwoFactorExpired", "This sign-in took too long. Sign in again."],
    ["RateLimited", "Too many attempts. Try again in a few minutes."],
    ["RecentAuthRequired", "For your security, confirm it is you before you continue."],
  ])("words the error %s in its own text", async (error, text) => {
    const { client, signIn } = await app()
    await signIn()
    expect((await pageOf(client, `?error=${error}`)).html).toContain(`role="alert" id="two-factor-error"><p>${text}</p>`)
  })

  it("never shows the query's own text: markup and unknown codes get a fixed message", async () => {
    const { client, signIn } = await app()
    await signIn()
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    for (const error of [hostile, "Please call +1-555-0100 to unlock your account", "constructor"]) {
      const { html } = await pageOf(client, `?error=${encodeURIComponent(error)}&sent=${encodeURIComponent(hostile)}`)
      expect(html).toContain('<div class="error" role="alert" id="two-factor-error"><p>That did not work. Try again.</p></div>')
      expect(html).not.toContain(error)
      expect(html).not.toContain(hostile)
      expect(html).not.toContain("<script")
      expect(html).not.toContain("onerror")
    }
  })

  it("offers the recovery form only while recovery codes are left", async () => {
    const { client, signIn, adapter, uid } = await app({ enrolled: { recoveryCodes: [RECOVERY_CODE] } })
    await signIn()
    expect((await pageOf(client)).html).toContain('id="two-factor-recovery"')
    const [hash] = await recoveryCodeHashes(uid, [RECOVERY_CODE])
    expect(await adapter.useRecoveryCode(uid, hash!)).toBe(true)
    const { html } = await pageOf(client)
    expect(html).not.toContain('id="two-factor-recovery"')
    expect(forms(html).map((form) => hidden(form, "method"))).toEqual(["totp"])
  })

  it("offers the trust box, labelled, when trustDevice is configured", async () => {
    const { client, signIn } = await app({ twoFactor: { trustDevice: { maxAge: 30 * 24 * 60 * 60 } } })
    await signIn()
    const { html } = await pageOf(client)
    expect(html).toContain('<input type="checkbox" id="two-factor-trust-totp" name="trustDevice" value="on">')
    expect(labelOf(html, "two-factor-trust-totp")).toBe("Don't ask again on this browser for 30 days")
    expect(forms(html)[0]).toContain('name="trustDevice" value="on"')
  })
})

describe("the email code on the two-factor page", () => {
  it("offers 'Email me a code' (method=email, action=send) naming the masked address, when email is on and the address verified", async () => {
    const { client, signIn } = await app({ twoFactor: { email: true } })
    await signIn()
    const { html } = await pageOf(client)
    const emailForm = forms(html).find((form) => hidden(form, "method") === "email")!
    expect(hidden(emailForm, "action")).toBe("send")
    expect(emailForm).toContain("a***@app.test")
    expect(emailForm).toContain(">Email me a code</button>")
    expect(html).not.toContain("ada.lovelace")
    expect(html).not.toContain('id="two-factor-email"')
  })

  it("offers no email code for an unverified address, or with twoFactor.email off", async () => {
    for (const options of [{ twoFactor: { email: true }, emailVerified: false }, {}] satisfies AppOptions[]) {
      const { client, signIn } = await app(options)
      await signIn()
      const { html } = await pageOf(client)
      expect(forms(html).map((form) => hidden(form, "method"))).toEqual(["totp", "recovery"])
    }
  })

  it("asks for the code sent (?sent=email): a labelled one-time-code field first, focused, and a way to get a new one", async () => {
    const { client, signIn } = await app({ twoFactor: { email: { digits: 8 } } })
    await signIn()
    const { html } = await pageOf(client, "?sent=email")
    const field = inputTag(html, "two-factor-email")
    expect(labelOf(html, "two-factor-email")).toBe("Code from the email")
    expect(field).toContain('autocomplete="one-time-code"')
    expect(field).toContain('inputmode="numeric"')
    expect(field).toContain("{8}")
    expect(field).toContain("autofocus")
    expect(inputTag(html, "two-factor-totp")).not.toContain("autofocus")
    const methods = forms(html).map((form) => [hidden(form, "method"), hidden(form, "action") ?? null])
    expect(methods).toEqual([["email", null], ["email", "send"], ["totp", null], ["recovery", null]])
    expect(html).toContain("We sent a code to a***@app.test.")
  })

  it("asks for the code when the pending sign-in holds one (a code sent as it started)", async () => {
    // Not enrolled, require "always", a verified address and email on: the email code is the factor.
    const always = await app({ twoFactor: { email: true, require: "always" }, enrolled: false })
    expect((await always.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    // The first code went out as the sign-in started: the page asks for it at once.
    const sent = (await pageOf(always.client)).html
    expect(forms(sent).map((form) => [hidden(form, "method"), hidden(form, "action") ?? null])).toEqual([["email", null], ["email", "send"]])
    expect(inputTag(sent, "two-factor-email")).toContain("autofocus")

    // A pending sign-in holding no code (its sending failed, or the code was voided) only offers to send one.
    const value = always.client.jar.get(PENDING)!
    const claims = (await decode<Record<string, unknown>>({ token: value, secret, salt: PENDING }))!
    const { iat: _iat, exp: _exp, jti: _jti, emailCode: _code, ...rest } = claims
    expect(_code).toBeDefined()
    always.client.jar.cookies.set(PENDING, await encode({ token: rest, secret, salt: PENDING, maxAge: 300 }))
    const unsent = (await pageOf(always.client)).html
    expect(forms(unsent).map((form) => [hidden(form, "method"), hidden(form, "action") ?? null])).toEqual([["email", "send"]])
  })
})

describe("GET two-factor without a pending sign-in", () => {
  /** Signs in fully (TOTP skipped by a session issued without twoFactor), then asks for the page. */
  async function signedIn(enrolled: boolean) {
    const a = await app({ enrolled: enrolled ? { recoveryCodes: [RECOVERY_CODE] } : false })
    // A session from before twoFactor was on: the same store and secret, without it.
    const plain = new Client({ ...a.client.config, twoFactor: undefined })
    expect((await plain.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })).headers.get("location")).toBe(DASHBOARD)
    a.client.jar.cookies.set(SESSION, plain.jar.get(SESSION)!)
    return a
  }

  it("gives an enrolled, signed-in user the step-up variant: 'Confirm it's you', posting the callback URL back", async () => {
    const { client } = await signedIn(true)
    const { response, html } = await pageOf(client, `?callbackUrl=${encodeURIComponent(`${ORIGIN}/settings`)}&error=RecentAuthRequired`)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(html).toContain("<title>Confirm it&#39;s you</title>")
    expect(html).toContain("<h1>Confirm it's you</h1>")
    expect(html).toContain('role="alert" id="two-factor-error"><p>For your security, confirm it is you before you continue.</p>')
    const all = forms(html)
    expect(all.map((form) => hidden(form, "method"))).toEqual(["totp", "recovery"])
    for (const form of all) expect(hidden(form, "callbackUrl")).toBe(`${ORIGIN}/settings`)
    expect(html).not.toContain('name="trustDevice"')
    expect(enrolPage.calls).toEqual([])
  })

  it("sends a signed-in user without a factor to enrolment", async () => {
    const { client, uid } = await signedIn(false)
    const { response, html } = await pageOf(client)
    expect(html).toBe("<h1>Set up two-step verification</h1>")
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(enrolPage.calls).toEqual([{ userId: uid }])
  })

  it("sends a pending sign-in that must enrol to enrolment", async () => {
    const { client, signIn, uid } = await app({ enrolled: false, twoFactor: { require: "always" } })
    expect((await signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    await pageOf(client)
    expect(enrolPage.calls).toEqual([{ pendingUid: uid }])
  })

  it("with neither, goes back to the sign-in page with TwoFactorExpired, which that page words", async () => {
    const { client } = await app()
    const response = await client.get("two-factor")
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
    expect(await (await client.get("signin?error=TwoFactorExpired")).text()).toContain("Two-step verification took too long. Sign in again.")
  })
})

describe("pages.twoFactor", () => {
  it("sends GET two-factor to the app's own page, with the query kept", async () => {
    const { client, signIn } = await app({ pages: { twoFactor: "/verify" } })
    // Custom pages go out as configured, as Auth.js sends them.
    expect((await signIn()).headers.get("location")).toBe("/verify")
    const response = await client.get("two-factor?error=InvalidTwoFactorCode&callbackUrl=%2Fsettings")
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("/verify?error=InvalidTwoFactorCode&callbackUrl=%2Fsettings")
  })
})

describe("renderTwoFactorPage", () => {
  const context: PageContext = {
    url: new URL("https://app.test/auth/two-factor"),
    basePath: "/auth",
    theme: { colorScheme: "dark", logo: "", brandColor: "#ff0000", buttonText: "" },
    pages: {},
    csrfToken: "csrf-123",
    callbackUrl: "https://app.test/dashboard",
    providers: [],
  }

  it("is in the look of the sign-in page: the shared layout, theme and card", () => {
    const html = renderTwoFactorPage(context, { variant: "signIn", totp: true, recovery: false }).body ?? ""
    expect(html).toContain('<body class="__next-auth-theme-dark">')
    expect(html).toContain("--brand-color:#ff0000;")
    expect(html).toContain('<div class="card"><h1>Two-step verification</h1>')
  })

  it("says so when no way is left, rather than show an empty page", () => {
    const html = renderTwoFactorPage(context, { variant: "signIn", totp: false, recovery: false }).body ?? ""
    expect(forms(html)).toEqual([])
    expect(html).toContain("There is no way left to confirm it is you here.")
  })

  it.each([
    ["ada@example.com", "a***@example.com"],
    ["a@b.c", "a***@b.c"],
    ["odd@name@example.com", "o***@example.com"],
    ["no-at-sign", "your email address"],
    ["@example.com", "your email address"],
  ])("masks %s as %s", (address, masked) => {
    expect(maskEmail(address)).toBe(masked)
  })
})
