/**
 * No secret reaches a log. Full sign-in flows run with `debug: true`, once with a recording logger
 * and once with the built-in logger (which writes to `console`, spied on throughout, as is every
 * other console method): credentials, OAuth 2 against the GitHub-like server, OpenID Connect with
 * PKCE, state and nonce against the real oidc-provider server, a magic link through the real SMTP
 * server, session reads and updates, sign-out, and failing requests (wrong password, bad CSRF
 * token, tampered cookie, wrong code, wrong state, spent and wrong links).
 *
 * Every secret value the run sees is collected — the AUTH secret, client secrets, session cookies
 * (JWE and database tokens), CSRF token and cookie, PKCE verifier, state, nonce, authorization
 * codes, access/refresh/ID tokens, the email token and link, passwords — and every captured log
 * entry, rendered with stacks and `cause` chains, is searched for each of them, whole and by
 * every 16-character piece.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { Account, AuthConfig, Profile } from "../../src/types.js"
import { Browser, type Visit } from "../support/browser.js"
import { startGitHubLikeServer, type GitHubEmail, type GitHubLikeServer, type GitHubUser } from "../support/github-like-server.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.js"
import { authApp, csrfToken, expectLandedOn, SESSION_COOKIE, sessionOf, signIn, signInUntilCallback } from "../flow/end-to-end-helpers.js"
import { Client } from "../flow/flow-helpers.js"
import { describeLeaks, LogCapture, PIECE, render, SecretRegistry } from "./secrets-in-logs-support.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`
const random = () => randomBytes(32).toString("base64url")

// Random, so no piece of them can turn up in a log by coincidence.
const AUTH_SECRET = random()
const PASSWORD = `pw-${random()}`
const WRONG_PASSWORD = `wrong-${random()}`
const GITHUB_CLIENT_SECRET = random()
const OIDC_CLIENT_SECRET = random()

const capture = new LogCapture()
const secrets = new SecretRegistry()

let github: GitHubLikeServer
let oidc: OidcServer
let smtp: TestSmtpServer

beforeAll(async () => {
  ;[github, oidc, smtp] = await Promise.all([
    startGitHubLikeServer({
      clientId: "log-gh-client",
      clientSecret: GITHUB_CLIENT_SECRET,
      redirectUris: [`${APP}/auth/callback/github`],
      refreshTokens: true,
    }),
    startOidcServer({
      clients: [{ client_id: "log-oidc-client", client_secret: OIDC_CLIENT_SECRET, redirect_uris: [`${APP}/auth/callback/idp`] }],
      accounts: { alice: { email: "alice@example.com", email_verified: true, name: "Alice Liddell" } },
      refreshTokens: "always",
    }),
    startSmtpServer(),
  ])
  for (const [label, value] of [
    ["AUTH secret", AUTH_SECRET],
    ["password", PASSWORD],
    ["wrong password", WRONG_PASSWORD],
    ["GitHub client secret", GITHUB_CLIENT_SECRET],
    ["OIDC client secret", OIDC_CLIENT_SECRET],
  ] as const) {
    secrets.remember(label, value)
  }
  capture.spyOnConsole()
})

afterAll(async () => {
  vi.restoreAllMocks()
  await Promise.all([github?.stop(), oidc?.stop(), smtp?.stop()])
})

/** The providers' tokens, as the signIn event sees them. */
function rememberAccount(account: Account | null | undefined): void {
  if (!account) return
  secrets.remember("access token", account.access_token)
  secrets.remember("refresh token", account.refresh_token)
  secrets.remember("ID token", account.id_token)
}

/** Everything secret a navigation carried: cookies the app set, codes, states, nonces, tokens in URLs and forms. */
function rememberVisit(visit: Visit): void {
  for (const hop of visit.hops) {
    if (new URL(hop.url).origin === APP) secrets.rememberCookies(hop.headers.getSetCookie())
    for (const url of [hop.url, hop.location]) {
      if (url === undefined) continue
      const params = new URL(url).searchParams
      for (const name of ["code", "state", "nonce", "token", "code_verifier"]) secrets.remember(`"${name}" in a URL`, params.get(name))
    }
    for (const name of ["csrfToken", "token", "password", "code", "state"]) secrets.remember(`"${name}" in a form`, hop.form?.get(name))
  }
}

/** What the OAuth servers received since `mark`: codes, verifiers, states, nonces, refresh tokens. */
function rememberServerRequests(requests: { url: string; body: URLSearchParams | undefined }[]): void {
  for (const request of requests) {
    const query = new URL(request.url, "http://server.test").searchParams
    for (const name of ["state", "nonce"]) secrets.remember(`"${name}" sent to the provider`, query.get(name))
    for (const name of ["code", "code_verifier", "refresh_token", "client_secret"]) secrets.remember(`"${name}" sent to the provider`, request.body?.get(name))
  }
}

const MODES = [
  { name: "a recording logger", custom: true },
  { name: "the built-in logger, on console", custom: false },
]

describe.each(MODES)("full flows with debug on and $name", ({ name, custom }) => {
  /** A configuration for this mode: debug on, and the recording logger or none (the built-in one). */
  function config(extra: Partial<AuthConfig>): AuthConfig {
    return { secret: AUTH_SECRET, trustHost: true, debug: true, ...(custom && { logger: capture.logger }), ...extra } as AuthConfig
  }
  const during = (what: string) => {
    capture.during = `${name}: ${what}`
  }

  it("credentials: sign-in, session read and update, wrong password, bad CSRF, tampered cookie, sign-out", async () => {
    during("credentials")
    const client = new Client(
      config({
        providers: [
          Credentials({
            credentials: { username: {}, password: { type: "password" } },
            authorize: ({ username, password }) => (username === "ada" && password === PASSWORD ? { id: "ada", name: "Ada", email: "ada@app.test" } : null),
          }),
        ],
      }),
    )
    const token = await client.csrfToken()
    secrets.remember("CSRF token", token)
    const signedIn = await client.postForm("callback/credentials", { csrfToken: token, username: "ada", password: PASSWORD })
    expect(signedIn.status).toBe(302)
    secrets.rememberCookies(signedIn.headers.getSetCookie())
    for (const [cookieName, value] of client.jar.cookies) if (!cookieName.includes("callback-url")) secrets.rememberCookies([`${cookieName}=${value}`])
    expect(await client.session()).toMatchObject({ user: { email: "ada@app.test" } })

    const updated = await client.postJson("session", { csrfToken: token, data: { theme: "dark" } })
    expect(updated.status).toBe(200)
    secrets.rememberCookies(updated.headers.getSetCookie())

    const wrongPassword = await client.postForm("callback/credentials", { csrfToken: token, username: "ada", password: WRONG_PASSWORD })
    expect(wrongPassword.headers.get("location")).toMatch(/error=CredentialsSignin/)

    const badCsrf = await client.postForm("signout", { csrfToken: `${token.slice(0, 40)}${"0".repeat(24)}` })
    expect(badCsrf.headers.get("location")).toMatch(/error=MissingCSRF/)

    const sessionCookie = client.jar.get(SESSION_COOKIE)!
    const parts = sessionCookie.split(".")
    parts[3] = `${parts[3]!.slice(0, -2)}${parts[3]!.endsWith("AA") ? "BA" : "AA"}`
    const tampered = await client.send(new Request(`${APP}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${parts.join(".")}` } }))
    expect(await tampered.json()).toBeNull()

    const signedOut = await client.postForm("signout", { csrfToken: token })
    expect(signedOut.status).toBe(302)
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
  })

  it("OAuth 2 against the GitHub-like server: sign-in with PKCE and state, session, token refresh, refused refresh, wrong code, sign-out", async () => {
    during("OAuth 2")
    const mark = github.requests.length
    // Access tokens that expire within the refresh margin: every session read refreshes.
    github.accessTokenTtl = 30
    const provider: OAuthConfig = {
      id: "github",
      name: "GitHub-like",
      type: "oauth",
      clientId: "log-gh-client",
      clientSecret: GITHUB_CLIENT_SECRET,
      checks: ["pkce", "state"],
      refreshAccessToken: true,
      authorization: { url: github.authorizeUrl, params: { scope: "read:user user:email" } },
      token: github.tokenUrl,
      userinfo: {
        url: github.userUrl,
        async request({ tokens, fetch }) {
          const headers = { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" }
          const user = (await (await fetch(github.userUrl, { headers })).json()) as GitHubUser
          const emails = (await (await fetch(github.emailsUrl, { headers })).json()) as GitHubEmail[]
          return { ...user, email: emails.find((email) => email.primary)?.email ?? null }
        },
      },
      profile: (profile: Profile) => ({ id: String(profile.id), name: String(profile.name), email: profile.email as string }),
    }
    const browser = new Browser({
      app: authApp(config({ providers: [provider], events: { signIn: ({ account }) => rememberAccount(account) } })),
      appOrigin: APP,
    })
    const visit = await signIn(browser, "github")
    rememberVisit(visit)
    expectLandedOn(visit, DASHBOARD)
    const issuedBefore = github.issued.length
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "octocat@users.example" } })
    expect(github.issued.length, "the session read refreshed the access token").toBe(issuedBefore + 1)
    secrets.remember("session cookie after a refresh", browser.cookie(SESSION_COOKIE))
    github.failures.refuseRefresh = true
    try {
      expect(await sessionOf(browser)).toMatchObject({ error: "RefreshAccessTokenError" })
    } finally {
      github.failures.refuseRefresh = false
      github.accessTokenTtl = 28800
    }

    const callback = new URL(await signInUntilCallback(browser, "github"))
    secrets.remember("authorization code", callback.searchParams.get("code"))
    secrets.rememberCookies(browser.cookies().map((cookie) => `${cookie.name}=${cookie.value}`))
    callback.searchParams.set("code", randomBytes(10).toString("hex"))
    const wrongCode = await browser.get(callback.href)
    expect(wrongCode.url).toMatch(/\/auth\/(error|signin)\?error=/)

    await browser.post(`${APP}/auth/signout`, { csrfToken: await csrfToken(browser) })
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined()
    for (const issued of github.issued) {
      secrets.remember("access token", issued.accessToken)
      secrets.remember("refresh token", issued.refreshToken)
    }
    rememberServerRequests(github.requests.slice(mark))
  })

  it("OpenID Connect against oidc-provider: PKCE, state and nonce, session, wrong code, wrong state, sign-out", async () => {
    during("OpenID Connect")
    const mark = oidc.requests.length
    const provider: OAuthConfig = {
      id: "idp",
      name: "IdP",
      type: "oidc",
      issuer: oidc.issuer,
      clientId: "log-oidc-client",
      clientSecret: OIDC_CLIENT_SECRET,
      checks: ["pkce", "state", "nonce"],
    }
    const browser = new Browser({
      app: authApp(config({ providers: [provider], events: { signIn: ({ account }) => rememberAccount(account) } })),
      appOrigin: APP,
    })
    const visit = await signIn(browser, "idp", { query: { login_hint: "alice" } })
    rememberVisit(visit)
    expectLandedOn(visit, DASHBOARD)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })

    const wrongCode = new URL(await signInUntilCallback(browser, "idp", { login_hint: "alice" }))
    secrets.remember("authorization code", wrongCode.searchParams.get("code"))
    secrets.remember("state", wrongCode.searchParams.get("state"))
    secrets.rememberCookies(browser.cookies().map((cookie) => `${cookie.name}=${cookie.value}`))
    wrongCode.searchParams.set("code", random())
    expect((await browser.get(wrongCode.href)).url).toMatch(/\/auth\/(error|signin)\?error=/)

    const wrongState = new URL(await signInUntilCallback(browser, "idp", { login_hint: "alice" }))
    secrets.remember("authorization code", wrongState.searchParams.get("code"))
    secrets.remember("state", wrongState.searchParams.get("state"))
    secrets.rememberCookies(browser.cookies().map((cookie) => `${cookie.name}=${cookie.value}`))
    wrongState.searchParams.set("state", random())
    expect((await browser.get(wrongState.href)).url).toMatch(/\/auth\/(error|signin)\?error=/)

    await browser.post(`${APP}/auth/signout`, { csrfToken: await csrfToken(browser) })
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined()
    rememberServerRequests(oidc.requests.slice(mark))
  })

  it("magic link over SMTP with database sessions: link, sign-in, session, spent link, wrong token, sign-out", async () => {
    during("email")
    const email = `log-${custom ? "custom" : "console"}@example.com`
    const browser = new Browser({
      app: authApp(
        config({
          adapter: MemoryAdapter(),
          session: { strategy: "database" },
          providers: [Nodemailer({ server: smtp.smtpUrl, from: "auth@app.test" })],
        }),
      ),
      appOrigin: APP,
    })
    const requested = await browser.post(`${APP}/auth/signin/nodemailer`, { email, csrfToken: await csrfToken(browser), callbackUrl: DASHBOARD })
    rememberVisit(requested)
    expect(requested.url).toMatch(/verify-request/)
    const message = await smtp.waitForMessage((candidate) => candidate.to.includes(email))
    const link = /<a href="([^"]+)"/.exec(message.html)![1]!.replaceAll("&amp;", "&")
    secrets.remember("sign-in link", link, { wholeOnly: true })
    secrets.remember("email verification token", new URL(link).searchParams.get("token"))

    const landed = await browser.get(link)
    rememberVisit(landed)
    expectLandedOn(landed, DASHBOARD)
    const databaseToken = browser.cookie(SESSION_COOKIE)
    expect(databaseToken).toMatch(/^[0-9a-f]{64}$/)
    secrets.remember("database session token", databaseToken)
    expect(await sessionOf(browser)).toMatchObject({ user: { email } })

    // Spent: the page asks first (the binding went with the sign-in); confirming it finds nothing.
    expect((await browser.submitForm(await browser.get(link))).url).toMatch(/error=Verification/)
    const wrongToken = new URL(link)
    wrongToken.searchParams.set("token", randomBytes(32).toString("hex"))
    // A token this browser did not ask for asks first; confirming it finds nothing.
    expect((await browser.submitForm(await browser.get(wrongToken.href))).url).toMatch(/error=Verification/)

    await browser.post(`${APP}/auth/signout`, { csrfToken: await csrfToken(browser) })
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined()
  })
})

describe("the logs of every flow above", () => {
  it("were written: each mode logged the failures, through the logger and through console", () => {
    const fromLogger = capture.entries.filter((entry) => entry.source.startsWith("logger."))
    const fromConsole = capture.entries.filter((entry) => entry.source.startsWith("console."))
    const codes = fromLogger.map((entry) => String(entry.args[0]))
    for (const code of ["CredentialsSignin", "MissingCSRF", "JWTSessionError", "Verification", "RefreshAccessTokenError", "debug-enabled"]) {
      expect(codes).toContain(code)
    }
    expect(codes.some((code) => /CallbackRouteError|InvalidCheck|OAuthCallbackError/.test(code))).toBe(true)
    const printed = fromConsole.map((entry) => String(entry.args[0]))
    for (const code of ["CredentialsSignin", "MissingCSRF", "JWTSessionError", "Verification"]) {
      expect(printed.some((line) => line.includes(code)), `console carried ${code}`).toBe(true)
    }
  })

  it("were searched for every kind of secret the flows handled", () => {
    const labels = secrets.labels()
    for (const expected of [
      "AUTH secret",
      "password",
      "wrong password",
      "GitHub client secret",
      "OIDC client secret",
      "CSRF token",
      "CSRF cookie hash",
      "cookie __Secure-authjs.session-token",
      "cookie __Secure-authjs.pkce.code_verifier",
      "cookie __Secure-authjs.state",
      "cookie __Secure-authjs.nonce",
      "authorization code",
      '"code_verifier" sent to the provider',
      '"state" sent to the provider',
      '"nonce" sent to the provider',
      "access token",
      "refresh token",
      "ID token",
      "sign-in link",
      "email verification token",
      "database session token",
    ]) {
      expect(labels, `collected: ${labels.join(", ")}`).toContain(expected)
    }
  })

  it("contain none of them, whole or as any 16-character piece", () => {
    expect(capture.entries.length).toBeGreaterThan(0)
    const leaks = secrets.findIn(capture.entries)
    expect(leaks, `secrets found in logs:\n${describeLeaks(leaks)}`).toEqual([])
  })
})

describe("the search itself", () => {
  it("finds a 16-character piece of a token deep in an Error's cause chain, and a whole secret in a console line", () => {
    const registry = new SecretRegistry()
    const token = random()
    const password = random()
    registry.remember("token", token)
    registry.remember("password", password)
    const nested = new Error("outer", { cause: { err: new Error("inner", { cause: { detail: `… ${token.slice(5, 5 + PIECE)} …` } }) } })
    const leaks = registry.findIn([
      { source: "logger.error", during: "self-test", args: ["Code", nested] },
      { source: "console.error", during: "self-test", args: [`[auth] ${password}`] },
      { source: "console.error", during: "self-test", args: [`[auth] ${token.slice(0, PIECE - 1)}`] },
    ])
    expect(leaks.map((leak) => [leak.secret, leak.source])).toEqual([
      ["token", "logger.error"],
      ["password", "console.error"],
    ])
  })

  it("renders what console would print of an Error: stack, own fields and cause", () => {
    const error = Object.assign(new Error("message-text", { cause: new Error("cause-text") }), { code: "field-text" })
    const text = render([error])
    for (const part of ["message-text", "cause-text", "field-text", "secrets-in-logs.test.ts"]) expect(text).toContain(part)
  })
})
