import { describe, expect, it } from "vitest"
import * as errors from "../../src/errors.js"
import { AuthError, CredentialsSignin } from "../../src/errors.js"
import { Auth } from "../../src/core/handler.js"
import type { ResponseInternal } from "../../src/core/internal-response.js"
import { raw } from "../../src/markers.js"
import type { AuthConfig } from "../../src/types.js"
import { Credentials } from "../../src/providers/credentials.js"
import { base, Client, credentialsConfig, origin, recordingLogger } from "./flow-helpers.js"

/** Set-Cookie lines without their Expires date (it moves with the clock; Max-Age says the same). */
const withoutExpires = (lines: string[]) => lines.map((line) => line.replace(/; Expires=[^;]*/i, ""))

const errorClasses = Object.entries(errors).filter(
  (entry): entry is [string, typeof AuthError] =>
    typeof entry[1] === "function" && (entry[1] === AuthError || entry[1].prototype instanceof AuthError) && entry[0] !== "MissingSecretError",
)
const CLIENT_SAFE = ["CredentialsSignin", "OAuthAccountNotLinked", "OAuthCallbackError", "AccessDenied", "Verification", "MissingCSRF", "AccountNotLinked", "WebAuthnVerificationError",
  // Gatehouse names these too: the person can act on them (Auth.js shows Configuration).
  "EmailSignInError", "InvalidEmail", "RateLimited", "EmailRateLimited", "CredentialsRateLimited", "ServerBusy",
  // ...and these, which the request itself got wrong (a lost check cookie, an unknown route or provider).
  "InvalidCheck", "UnknownAction", "InvalidProvider",
  // ...and the account routes' refusals, about the person's own sessions and accounts.
  "SessionRequired", "UnknownSession", "UnknownAccount", "LastSignInMethod",
  // ...and the second factor's: a wrong or stale code, a missing recent check, no factor to use.
  "InvalidTwoFactorCode", "TwoFactorExpired", "TwoFactorFailed", "TwoFactorUnavailable", "RecentAuthRequired", "TwoFactorNotEnrolled",
  // ...and the organization and admin refusals, about what the person asked for.
  "PermissionDenied", "OrganizationNotFound", "SlugTaken", "LastOwner", "InvitationInvalid", "UserBanned", "UserNotFound", "ImpersonationRefused"]
/**
 * What a client's request or an ordinary sign-in failure causes, logged as one warning line (anyone
 * can cause these as often as they like); every other type is a server fault, logged whole.
 */
const CLIENT_CAUSED = ["CredentialsSignin", "InvalidEmail", "RateLimited", "EmailRateLimited", "CredentialsRateLimited", "ServerBusy", "MissingCSRF",
  "AccountNotLinked", "OAuthAccountNotLinked", "OAuthCallbackError", "AccessDenied", "Verification", "InvalidCheck", "WebAuthnVerificationError",
  "InvalidRequest", "UnknownAction", "InvalidProvider", "JWTSessionError", "InvalidLogoutToken",
  "SessionRequired", "UnknownSession", "UnknownAccount", "LastSignInMethod",
  "InvalidTwoFactorCode", "TwoFactorExpired", "TwoFactorFailed", "RecentAuthRequired", "TwoFactorNotEnrolled",
  "PermissionDenied", "OrganizationNotFound", "SlugTaken", "LastOwner", "InvitationInvalid", "UserBanned", "UserNotFound", "ImpersonationRefused"]
/** Refusals for now: answered with their status and Retry-After, not a redirect. */
const RETRY_LATER: Record<string, number> = { RateLimited: 429, EmailRateLimited: 429, CredentialsRateLimited: 429, ServerBusy: 503 }

/** Refusals of what the client may not do yet: JSON with their status and type to a JSON call, not a redirect. */
const JSON_REFUSAL: Record<string, number> = { RecentAuthRequired: 403, TwoFactorNotEnrolled: 409 }

/** The sign-in link of a retry-later page. */
function buttonLink(html: string): string | undefined {
  return /<a class="button" href="([^"]+)">Sign in<\/a>/.exec(html)?.[1]?.replaceAll("&amp;", "&")
}

describe("errors become responses in one place", () => {
  it("covers every error class", () => {
    expect(errorClasses.length).toBeGreaterThanOrEqual(35)
  })

  it.each(errorClasses)("maps %s thrown during sign-in to its page, naming it only when client-safe", async (name, ErrorClass) => {
    const { logger, lines } = recordingLogger()
    const client = new Client(
      credentialsConfig({ logger, callbacks: { jwt: () => { throw new ErrorClass("internal detail: db at 10.0.0.7") } } }),
    )
    const response = await client.signIn()
    const instance = new ErrorClass()
    const retryStatus = RETRY_LATER[instance.type]
    if (retryStatus !== undefined) expect(response.status).toBe(retryStatus)
    const refusalStatus = JSON_REFUSAL[instance.type]
    if (refusalStatus !== undefined) {
      // A script's JSON call gets these as JSON; the browser's form (above) gets a page, checked below.
      const recorded = recordingLogger()
      const script = new Client(credentialsConfig({ logger: recorded.logger, callbacks: { jwt: () => { throw new ErrorClass("internal detail: db at 10.0.0.7") } } }))
      const answer = await script.postJson("callback/credentials", { csrfToken: await script.csrfToken(), username: "ada", password: "correct horse" })
      expect(answer.status).toBe(refusalStatus)
      const text = await answer.text()
      expect(JSON.parse(text)).toEqual({ error: instance.type })
      expect(text).not.toContain("10.0.0.7")
      expect(answer.headers.getSetCookie()).toEqual([])
      expect(recorded.lines.filter((line) => line.code === instance.type)).toEqual([{ level: "warn", code: instance.type, message: ["internal detail: db at 10.0.0.7"] }])
    }
    const location = new URL(retryStatus === undefined ? response.headers.get("location")! : buttonLink(await response.clone().text())!)
    expect(location.origin).toBe(origin)
    // The second-factor page's errors (kind twoFactor) go to the error page when twoFactor is not configured, as here.
    expect(location.pathname).toBe(instance.kind === "signIn" ? "/auth/signin" : "/auth/error")
    expect(location.searchParams.get("error")).toBe(CLIENT_SAFE.includes(instance.type) ? instance.type : "Configuration")
    expect(location.searchParams.get("code")).toBe(instance instanceof CredentialsSignin ? "credentials" : null)
    expect(`${response.headers.get("location")}\n${await response.text()}`).not.toContain("10.0.0.7")
    // Cookies computed before the failure are dropped; a wrong password keeps only the name typed, for the sign-in page.
    const kept = instance instanceof CredentialsSignin ? ["__Secure-authjs.sign-in-identifier=username%3Dada; Max-Age=60; Path=/auth; HttpOnly; Secure; SameSite=Lax"] : []
    expect(withoutExpires(response.headers.getSetCookie())).toEqual(kept)
    // What the client causes is one warning line; everything else a fault, logged whole.
    const logged = lines.filter((line) => line.code === instance.type)
    expect(logged).toHaveLength(1)
    expect(instance.clientCaused).toBe(CLIENT_CAUSED.includes(instance.type))
    if (instance.clientCaused) expect(logged[0]).toEqual({ level: "warn", code: instance.type, message: [expect.stringMatching(/^internal detail: db at 10\.0\.0\.7( \(code: credentials\))?$/)] })
    else expect(logged[0]).toMatchObject({ level: "error", message: [expect.any(ErrorClass)] })
    expect(name).toBeTruthy()
  })

  it("maps a foreign exception to Configuration on the error page", async () => {
    const client = new Client(credentialsConfig({ callbacks: { jwt: () => { throw new RangeError("boom") } } }))
    expect((await client.signIn()).headers.get("location")).toBe(`${base}/error?error=Configuration`)
  })

  it("sends errors to pages.error / pages.signIn when configured", async () => {
    const client = new Client(credentialsConfig({ pages: { error: "/oops", signIn: "/login" }, callbacks: { signIn: () => false } }))
    expect((await client.signIn()).headers.get("location")).toBe(`${origin}/oops?error=AccessDenied`)
    expect((await client.signIn({ username: "x", password: "y" })).headers.get("location")).toBe(`${origin}/login?error=CredentialsSignin&code=credentials`)
  })

  it("answers X-Auth-Return-Redirect with 200 {url}, keeping Location and cookies on success", async () => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    const response = await client.postForm("callback/credentials", { csrfToken: token, username: "ada", password: "correct horse", callbackUrl: "/x" }, { "X-Auth-Return-Redirect": "1" })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${origin}/x` })
    expect(response.headers.get("location")).toBe(`${origin}/x`)
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__Secure-authjs.session-token="))).toBe(true)
  })

  it("answers X-Auth-Return-Redirect with 200 {url} and, on failure, no cookie but the name typed for the sign-in page", async () => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    const response = await client.postForm("callback/credentials", { csrfToken: token, username: "ada", password: "no" }, { "X-Auth-Return-Redirect": "1" })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${base}/signin?error=CredentialsSignin&code=credentials` })
    expect(withoutExpires(response.headers.getSetCookie())).toEqual(["__Secure-authjs.sign-in-identifier=username%3Dada; Max-Age=60; Path=/auth; HttpOnly; Secure; SameSite=Lax"])
  })

  it("never shows a stack trace or an internal message to the client", async () => {
    const secretDetail = "SELECT * FROM users -- password hunter2"
    const config = credentialsConfig({ callbacks: { session: () => { throw new Error(secretDetail) }, jwt: () => { throw new Error(secretDetail) } } })
    const client = new Client(config)
    for (const response of [await client.signIn(), await client.get("session"), await client.postJson("session", { csrfToken: await client.csrfToken() })]) {
      const text = `${[...response.headers].join("\n")}\n${await response.text()}`
      expect(text).not.toContain(secretDetail)
      expect(text).not.toMatch(/\n\s+at /)
    }
  })
})

describe("refusals for now (throttled, busy)", () => {
  /** A configuration whose authorize throws `error`. */
  function refusing(error: () => Error, extra: Partial<AuthConfig> = {}) {
    return credentialsConfig({ providers: [Credentials({ authorize: () => { throw error() } })], ...extra })
  }

  it.each([
    ["CredentialsRateLimited", () => new errors.CredentialsRateLimited("x", { retryAfter: 42 }), 429, "42"],
    ["RateLimited", () => new errors.RateLimited("x"), 429, "60"],
    ["ServerBusy", () => new errors.ServerBusy("x"), 503, "5"],
  ] as const)("answers %s from a form post with its status, Retry-After and a page linking to the sign-in page", async (type, error, status, retryAfter) => {
    const response = await new Client(refusing(error)).signIn()
    expect(response.status).toBe(status)
    expect(response.headers.get("retry-after")).toBe(retryAfter)
    expect(response.headers.get("location")).toBeNull()
    expect(response.headers.get("content-type")).toBe("text/html")
    expect(response.headers.get("cache-control")).toContain("no-store")
    expect(response.headers.getSetCookie()).toEqual([])
    expect(buttonLink(await response.text())).toBe(`${base}/signin?error=${type}`)
  })

  it("links to pages.signIn when one is configured", async () => {
    const response = await new Client(refusing(() => new errors.CredentialsRateLimited(), { pages: { signIn: "/login?from=x" } })).signIn()
    expect(buttonLink(await response.text())).toBe(`${origin}/login?from=x&error=CredentialsRateLimited`)
  })

  it("answers X-Auth-Return-Redirect with the status, Retry-After and { url } of the sign-in page", async () => {
    const client = new Client(refusing(() => new errors.CredentialsRateLimited("x", { retryAfter: 7 })))
    const json = await client.postForm("callback/credentials", { csrfToken: await client.csrfToken(), username: "ada", password: "x" }, { "X-Auth-Return-Redirect": "1" })
    expect(json.status).toBe(429)
    expect(json.headers.get("retry-after")).toBe("7")
    expect(await json.json()).toEqual({ url: `${base}/signin?error=CredentialsRateLimited` })
  })

  it("throws the error to raw callers, retryAfter included, and gives the internal 429 with X-Auth-Return-Redirect", async () => {
    const config = { ...refusing(() => new errors.CredentialsRateLimited("x", { retryAfter: 9 })), raw, skipCSRFCheck: Symbol.for("gatehouse.skip-csrf-check") } as never
    const post = (headers: Record<string, string> = {}) =>
      Auth(new Request(`${base}/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: "username=ada&password=x" }), config)
    await expect(post()).rejects.toMatchObject({ type: "CredentialsRateLimited", retryAfter: 9 })
    expect(await post({ "X-Auth-Return-Redirect": "1" })).toMatchObject({
      status: 429,
      headers: { "Retry-After": "9" },
      body: { url: `${base}/signin?error=CredentialsRateLimited` },
    })
  })
})

describe("raw mode for framework authors", () => {
  const rawConfig = (extra: Partial<AuthConfig> = {}) => ({ ...credentialsConfig(extra), raw }) as AuthConfig & { raw: typeof raw }

  it("returns the internal response with its cookies", async () => {
    const result: ResponseInternal = await Auth(new Request(`${base}/csrf`), rawConfig())
    expect(result).toMatchObject({ status: 200, body: { csrfToken: expect.any(String) } })
    expect(result.cookies?.map((c) => c.name)).toEqual(["__Host-authjs.csrf-token", "__Secure-authjs.callback-url"])
  })

  it("throws AuthErrors to the caller", async () => {
    const request = new Request(`${base}/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=ada&password=wrong",
    })
    await expect(Auth(request, { ...rawConfig(), skipCSRFCheck: Symbol.for("gatehouse.skip-csrf-check") } as never)).rejects.toBeInstanceOf(CredentialsSignin)
  })

  it("throws configuration errors rather than answering 500", async () => {
    const config = { ...rawConfig(), secret: undefined }
    await expect(Auth(new Request(`${base}/session`), config)).rejects.toMatchObject({ type: "MissingSecret" })
  })
})

describe("configuration errors", () => {
  const message = "There was a problem with the server configuration. Check the server logs for more information."

  it.each([
    ["a missing secret", { secret: undefined }, "MissingSecret"],
    ["an untrusted host", { trustHost: false }, "UntrustedHost"],
    ["a credentials provider without authorize", { providers: [{ id: "c", name: "C", type: "credentials", credentials: {} }] }, "MissingAuthorize"],
  ] as [string, Partial<AuthConfig>, string][])("answers %s with 500 JSON on API routes and the error page on page routes", async (_, extra, type) => {
    const { logger, lines } = recordingLogger()
    const config = credentialsConfig({ ...extra, logger }) as Omit<AuthConfig, "raw">
    const api = await Auth(new Request(`${base}/session`), config)
    expect(api.status).toBe(500)
    expect(await api.json()).toEqual({ message })
    const page = await Auth(new Request(`${base}/signin`), config)
    expect(page.status).toBe(500)
    expect(await page.text()).toContain("Server error")
    const post = await Auth(new Request(`${base}/signout`, { method: "POST" }), config)
    expect(post.status).toBe(500)
    expect(lines.some((line) => line.code === type)).toBe(true)
  })

  it("does not trust the host without an environment or an explicit trustHost", async () => {
    const config = { ...credentialsConfig(), trustHost: undefined } as Omit<AuthConfig, "raw">
    expect((await Auth(new Request(`${base}/session`), config)).status).toBe(500)
  })

  it("redirects page routes to pages.error, unless that page is the one failing", async () => {
    const { logger, lines } = recordingLogger()
    const config = credentialsConfig({ secret: undefined, pages: { error: "/oops" }, logger }) as Omit<AuthConfig, "raw">
    const first = await Auth(new Request(`${base}/signin`), config)
    expect(first.headers.get("location")).toBe(`${origin}/oops?error=Configuration`)
    const loop = await Auth(new Request(`${base}/signin?callbackUrl=%2Foops`), config)
    expect(loop.status).toBe(500)
    expect(lines.some((line) => line.code === "ErrorPageLoop")).toBe(true)
  })

  it("reports a basePath that is not a path as InvalidConfig with 500, not as a bad request", async () => {
    const { logger, lines } = recordingLogger()
    const response = await Auth(new Request(`${base}/signin`), credentialsConfig({ basePath: "auth", logger }))
    expect(response.status).toBe(500)
    expect(lines.map((line) => line.code)).toContain("InvalidConfig")
  })

  it("keeps a provider id from the path on one log line", async () => {
    const { logger, lines } = recordingLogger()
    await new Client(credentialsConfig({ logger })).get("callback/x%0A%5Bauth%5D%5Berror%5D%20forged")
    const logged = lines.find((line) => line.code === "InvalidProvider")?.message[0] as string
    expect(logged).toContain('"x\\n[auth][error] forged"')
    expect(logged).not.toContain("\n")
  })

  it("answers an unreadable configuration with 500 JSON instead of throwing", async () => {
    expect((await Auth(new Request(`${base}/session`), null as never)).status).toBe(500)
    expect((await Auth(new Request(`${base}/session`), { providers: "nope" } as never)).status).toBe(500)
  })
})
