/**
 * `gatehouse-auth/client/two-factor` and the `twoFactor` flag of `signIn`: against the real
 * routes through `Auth()` where they exist (a credentials sign-in that waits for its second
 * factor, then the code), and against a fake `fetch` answering the management routes' JSON shapes
 * (those routes are built in parallel).
 */
import { randomBytes } from "node:crypto"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { signIn } from "../../src/client/index.js"
import {
  confirmTotpEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  sendTwoFactorEmailCode,
  startTotpEnrolment,
  TwoFactorRouteError,
  twoFactorStatus,
  verifyTwoFactor,
} from "../../src/client/two-factor.js"
import { Auth } from "../../src/core/handler.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar } from "../support/cookie-jar.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { currentStep, totpAt } from "../support/totp-reference.js"

const ORIGIN = "https://app.test"
const PAGE = `${ORIGIN}/login`
const DASHBOARD = `${ORIGIN}/dashboard`
const SESSION = "__Secure-authjs.session-token"
const RECOVERY_CODE = "ABCDE-FGHJK-MNPQR-STVWX-YZ012"

/** A base32 key as the enrolment shows it (grouped by spaces), decoded here independently. */
function base32Bytes(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  let bits = ""
  for (const char of text.replace(/ /g, "")) bits += alphabet.indexOf(char).toString(2).padStart(5, "0")
  return Uint8Array.from(bits.match(/.{8}/g) ?? [], (byte) => Number.parseInt(byte, 2))
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("signIn and verifyTwoFactor against the routes", () => {
  type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser">>
  let jar: CookieJar
  let navigations: string[]

  async function server(enrolled: boolean, twoFactor: Partial<NonNullable<AuthConfig["twoFactor"]>> = {}) {
    const adapter = MemoryAdapter() as Adapted
    const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
    const key = new Uint8Array(randomBytes(20))
    if (enrolled) {
      const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
      await adapter.setTotpPendingSecret(uid, sealed)
      await adapter.enableTotp(uid, { sealed, step: currentStep() - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, [RECOVERY_CODE]) })
    }
    const config: AuthConfig & { raw?: undefined } = {
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy: "jwt" },
      providers: [Credentials({ credentials: { password: {} }, authorize: ({ password }) => (password === "right" ? { id: uid, email: "ada@app.test" } : null), rateLimit: false })],
      twoFactor: { totp: { issuer: "Gatehouse tests" }, trustDevice: { maxAge: 24 * 60 * 60 }, ...twoFactor },
    }
    jar = new CookieJar()
    navigations = []
    vi.stubGlobal("location", { href: PAGE, origin: ORIGIN, assign: (url: string) => void navigations.push(url) })
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      if (jar.header()) headers.set("cookie", jar.header())
      return jar.store(await Auth(new Request(new URL(input, PAGE), { ...init, headers }), config))
    })
    const session = async () => (await (await fetch("/auth/session")).json()) as { authentication?: { aal: number; amr: string[] } } | null
    return { key, session }
  }

  it("says twoFactor: true when the sign-in waits for a second factor, and verifyTwoFactor finishes it at aal 2", async () => {
    const { key, session } = await server(true)
    const result = await signIn("credentials", { password: "right", redirectTo: DASHBOARD, redirect: false })
    expect(result).toMatchObject({ ok: true, error: null, url: `${ORIGIN}/auth/two-factor`, twoFactor: true })
    expect(jar.get(SESSION)).toBeUndefined()

    const wrong = await verifyTwoFactor({ code: "000000" }).catch((error: unknown) => error)
    expect(wrong).toBeInstanceOf(TwoFactorRouteError)
    expect(wrong).toMatchObject({ name: "InvalidTwoFactorCode" })
    expect(jar.get(SESSION)).toBeUndefined()

    expect(await verifyTwoFactor({ code: totpAt(key, currentStep()), trustDevice: true })).toEqual({ url: DASHBOARD })
    expect(jar.get(SESSION)).toBeTruthy()
    expect(jar.get("__Secure-authjs.two-factor-trust")).toBeTruthy()
    expect((await session())?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    expect(navigations).toEqual([])
  })

  it("verifyTwoFactor of a step-up resolves to where to go and the session's raised standing", async () => {
    const { key, session } = await server(true)
    await signIn("credentials", { password: "right", redirectTo: DASHBOARD, redirect: false })
    await verifyTwoFactor({ code: totpAt(key, currentStep()) })
    const stepped = await verifyTwoFactor({ code: totpAt(key, currentStep() + 1), callbackUrl: `${ORIGIN}/settings` })
    expect(stepped).toEqual({ url: `${ORIGIN}/settings`, authentication: expect.objectContaining({ aal: 2, amr: ["pwd", "otp", "mfa"], secondFactorAt: expect.any(String) }) })
    expect((await session())?.authentication).toMatchObject({ aal: 2 })
  })

  it("confirmTotpEnrolment of a sign-in that had to enrol resolves to the codes and where the sign-in goes", async () => {
    const { session } = await server(false, { require: "always" })
    expect(await signIn("credentials", { password: "right", redirectTo: DASHBOARD, redirect: false })).toMatchObject({ twoFactor: true })
    const { secret: shown } = await startTotpEnrolment()
    const key = base32Bytes(shown)
    const confirmed = await confirmTotpEnrolment(totpAt(key, currentStep()))
    expect(confirmed.recoveryCodes).toHaveLength(10)
    expect(confirmed.url).toBe(DASHBOARD)
    expect((await session())?.authentication).toMatchObject({ aal: 2 })
  })

  it("disableTwoFactor sends a recovery code as method recovery", async () => {
    const { key } = await server(true)
    await signIn("credentials", { password: "right", redirectTo: DASHBOARD, redirect: false })
    await verifyTwoFactor({ code: totpAt(key, currentStep()) })
    expect(await twoFactorStatus()).toMatchObject({ enabled: true, methods: ["totp", "recovery"] })
    expect(await disableTwoFactor({ code: RECOVERY_CODE, method: "recovery" })).toEqual({ disabled: true })
    expect(await twoFactorStatus()).toMatchObject({ enabled: false, methods: [] })
  })

  it("sends a recovery code as method recovery", async () => {
    const { session } = await server(true)
    await signIn("credentials", { password: "right", redirectTo: DASHBOARD, redirect: false })
    expect(await verifyTwoFactor({ code: RECOVERY_CODE.toLowerCase(), method: "recovery" })).toEqual({ url: DASHBOARD })
    expect((await session())?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
  })

  it("names the error when the pending sign-in is gone (TwoFactorExpired)", async () => {
    await server(true)
    const error = await verifyTwoFactor({ code: "123456" }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TwoFactorRouteError)
    expect(error).toMatchObject({ name: "TwoFactorExpired" })
  })

  it("leaves twoFactor out when the sign-in finished on one factor, or failed", async () => {
    await server(false)
    const done = await signIn("credentials", { password: "right", redirectTo: DASHBOARD, redirect: false })
    expect(done).toMatchObject({ ok: true, url: DASHBOARD })
    expect(done).not.toHaveProperty("twoFactor")
    const failed = await signIn("credentials", { password: "wrong", redirectTo: DASHBOARD, redirect: false })
    expect(failed).toMatchObject({ ok: false, error: "CredentialsSignin" })
    expect(failed).not.toHaveProperty("twoFactor")
  })
})

describe("the management helpers against the routes' JSON shapes", () => {
  interface Sent {
    method: string
    url: string
    headers: Headers
    body: Record<string, unknown> | undefined
  }
  let sent: Sent[]
  let answers: Record<string, () => Response>

  beforeEach(() => {
    sent = []
    answers = {}
    vi.stubGlobal("location", { href: PAGE, origin: ORIGIN, assign: () => {} })
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, PAGE)
      if (url.pathname.endsWith("/csrf")) return Response.json({ csrfToken: "csrf-token" })
      const body = typeof init.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : undefined
      sent.push({ method: init.method ?? "GET", url: url.pathname, headers: new Headers(init.headers), body })
      const answer = answers[`${init.method ?? "GET"} ${url.pathname}`]
      return answer ? answer() : Response.json({ error: "UnknownAction", message: "no such route" }, { status: 400 })
    })
  })

  it("startTotpEnrolment posts two-factor/totp with the CSRF token, as JSON, and resolves to { uri, qr, secret }", async () => {
    answers["POST /auth/two-factor/totp"] = () => Response.json({ uri: "otpauth://totp/Acme:ada?secret=ABC", qr: "<svg/>", secret: "ABC" })
    expect(await startTotpEnrolment()).toEqual({ uri: "otpauth://totp/Acme:ada?secret=ABC", qr: "<svg/>", secret: "ABC" })
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toEqual({ csrfToken: "csrf-token" })
    expect(sent[0]!.headers.get("content-type")).toBe("application/json")
    expect(sent[0]!.headers.get("accept")).toBe("application/json")
    expect(sent[0]!.headers.get("x-auth-return-redirect")).toBe("1")
  })

  it("startTotpEnrolment reads a missing QR code (uqr not installed) as null", async () => {
    answers["POST /auth/two-factor/totp"] = () => Response.json({ uri: "otpauth://totp/x", qr: null, secret: "ABC" })
    expect((await startTotpEnrolment()).qr).toBeNull()
  })

  it("confirmTotpEnrolment posts the code and resolves to the recovery codes", async () => {
    answers["POST /auth/two-factor/totp/confirm"] = () => Response.json({ recoveryCodes: ["AAAA-BBBB-CCCC", "DDDD-EEEE-FFFF"] })
    expect(await confirmTotpEnrolment("123456")).toEqual({ recoveryCodes: ["AAAA-BBBB-CCCC", "DDDD-EEEE-FFFF"] })
    answers["POST /auth/two-factor/totp/confirm"] = () => Response.json({ recoveryCodes: ["AAAA-BBBB-CCCC"], url: DASHBOARD })
    expect(await confirmTotpEnrolment("123456")).toEqual({ recoveryCodes: ["AAAA-BBBB-CCCC"], url: DASHBOARD })
    expect(sent[0]!.body).toEqual({ code: "123456", csrfToken: "csrf-token" })
  })

  it("regenerateRecoveryCodes, disableTwoFactor (with and without a code) and sendTwoFactorEmailCode post what their routes read", async () => {
    answers["POST /auth/two-factor/recovery-codes"] = () => Response.json({ recoveryCodes: ["GGGG-HHHH-JJJJ"] })
    answers["POST /auth/two-factor/disable"] = () => Response.json({ disabled: true })
    answers["POST /auth/two-factor"] = () => Response.json({ sent: true })
    expect(await regenerateRecoveryCodes()).toEqual({ recoveryCodes: ["GGGG-HHHH-JJJJ"] })
    expect(await disableTwoFactor({ code: "654321" })).toEqual({ disabled: true })
    expect(await disableTwoFactor()).toEqual({ disabled: true })
    expect(await disableTwoFactor({ code: "abcd-efgh-jkmn", method: "recovery" })).toEqual({ disabled: true })
    await sendTwoFactorEmailCode()
    expect(sent.map((request) => [request.method, request.url, request.body])).toEqual([
      ["POST", "/auth/two-factor/recovery-codes", { csrfToken: "csrf-token" }],
      ["POST", "/auth/two-factor/disable", { code: "654321", csrfToken: "csrf-token" }],
      ["POST", "/auth/two-factor/disable", { csrfToken: "csrf-token" }],
      ["POST", "/auth/two-factor/disable", { code: "abcd-efgh-jkmn", method: "recovery", csrfToken: "csrf-token" }],
      ["POST", "/auth/two-factor", { method: "email", action: "send", csrfToken: "csrf-token" }],
    ])
  })

  it("twoFactorStatus GETs two-factor/status (no body, no CSRF) at the given base path", async () => {
    answers["GET /api/auth/two-factor/status"] = () =>
      Response.json({ enabled: true, methods: ["totp", "recovery"], enabledAt: "2026-11-27T10:00:00.000Z", recoveryCodesLeft: 7 })
    expect(await twoFactorStatus({ basePath: "/api/auth" })).toEqual({ enabled: true, methods: ["totp", "recovery"], enabledAt: "2026-11-27T10:00:00.000Z", recoveryCodesLeft: 7 })
    expect(sent).toEqual([expect.objectContaining({ method: "GET", url: "/api/auth/two-factor/status", body: undefined })])
  })

  it("verifyTwoFactor of a step-up resolves to the raised authentication, posting the callback URL", async () => {
    const authentication = { aal: 2, amr: ["pwd", "otp", "mfa"], secondFactor: "totp", secondFactorAt: "2026-11-27T10:00:00.000Z" }
    answers["POST /auth/two-factor"] = () => Response.json({ authentication, url: `${ORIGIN}/settings` })
    expect(await verifyTwoFactor({ code: "123 456", callbackUrl: "/settings" })).toEqual({ url: `${ORIGIN}/settings`, authentication })
    expect(sent[0]!.body).toEqual({ code: "123 456", method: "totp", callbackUrl: "/settings", csrfToken: "csrf-token" })
  })

  it("throws TwoFactorRouteError with the type the JSON refusal names, and its status", async () => {
    answers["POST /auth/two-factor/recovery-codes"] = () => Response.json({ error: "RecentAuthRequired", message: "Check a second factor first" }, { status: 403 })
    const error = await regenerateRecoveryCodes().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TwoFactorRouteError)
    expect(error).toMatchObject({ name: "RecentAuthRequired", message: "Check a second factor first", status: 403 })
  })

  it("throws with the error a redirect names ({ url }), and HTTP <status> when the answer names none", async () => {
    answers["POST /auth/two-factor/totp"] = () => Response.json({ url: `${ORIGIN}/auth/signin?error=MissingCSRF` })
    await expect(startTotpEnrolment()).rejects.toMatchObject({ name: "MissingCSRF", status: 200 })
    answers["GET /auth/two-factor/status"] = () => new Response("<html>", { status: 502 })
    await expect(twoFactorStatus()).rejects.toMatchObject({ name: "HTTP 502", status: 502 })
  })
})
