/**
 * The attributes of every cookie Gatehouse sets, as a browser receives them. The cookie kinds come
 * from src/cookies/defaults.ts: a new kind without a flow here fails the first test.
 *
 * On https: HttpOnly, Path=/ (the sign-in identifier: the base path), SameSite=Lax, Secure, no
 * Domain, and the `__Secure-` prefix (the CSRF cookie: `__Host-`). On plain http: the same without Secure and without prefix, as Auth.js
 * does. Lifetimes: the session cookie expires with the session, the OAuth checks and the WebAuthn
 * challenge within 15 minutes, and the CSRF and callback-url cookies with the browser session.
 * `useSecureCookies` and `cookies` overrides are respected, and so is an https `AUTH_URL` in front
 * of a server that itself speaks plain http (the Express integration).
 */
import express from "express"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { defaultCookies, type CookiesOptions } from "../../src/cookies/defaults.js"
import { impersonateUser } from "../../src/core/admin/impersonation-functions.js"
import { ServerAuth } from "../../src/express/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { ada, Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { enrol, totpNow } from "../two-factor/bypass-matrix-helpers.js"

type Kind = keyof CookiesOptions

/** Every cookie kind Gatehouse has, read from the defaults themselves. */
const ALL_KINDS = Object.keys(defaultCookies(true)) as Kind[]

/** The kinds driven through a real flow below: all of them. */
const KINDS = ALL_KINDS

/** The name of each kind without prefix: Auth.js's names, which Gatehouse keeps. */
const BASE_NAMES: Record<Kind, string> = {
  sessionToken: "authjs.session-token",
  callbackUrl: "authjs.callback-url",
  csrfToken: "authjs.csrf-token",
  pkceCodeVerifier: "authjs.pkce.code_verifier",
  state: "authjs.state",
  nonce: "authjs.nonce",
  webauthnChallenge: "authjs.challenge",
  // Gatehouse's own: Auth.js binds no link to a browser.
  emailLinkBinding: "authjs.email-link",
  twoFactor: "authjs.two-factor",
  twoFactorTrust: "authjs.two-factor-trust",
  signInIdentifier: "authjs.sign-in-identifier",
  impersonator: "authjs.impersonator",
}

const SESSION_MAX_AGE = 30 * 24 * 60 * 60
const CHECK_LIFETIME = 15 * 60

/**
 * How long each kind lives: `maxAge` is the Max-Age attribute (absent when `undefined`),
 * `expiresIn` the seconds from now its Expires names (absent when `undefined`). The nonce has
 * only Expires, as in Auth.js.
 */
const LIFETIMES: Record<Kind, { maxAge: number | undefined; expiresIn: number | undefined }> = {
  sessionToken: { maxAge: undefined, expiresIn: SESSION_MAX_AGE },
  callbackUrl: { maxAge: undefined, expiresIn: undefined },
  csrfToken: { maxAge: undefined, expiresIn: undefined },
  pkceCodeVerifier: { maxAge: CHECK_LIFETIME, expiresIn: CHECK_LIFETIME },
  state: { maxAge: CHECK_LIFETIME, expiresIn: CHECK_LIFETIME },
  nonce: { maxAge: undefined, expiresIn: CHECK_LIFETIME },
  webauthnChallenge: { maxAge: CHECK_LIFETIME, expiresIn: CHECK_LIFETIME },
  // As long as the link it binds (a day by default).
  emailLinkBinding: { maxAge: 24 * 60 * 60, expiresIn: 24 * 60 * 60 },
  // A sign-in waits at most 5 minutes for its second factor.
  twoFactor: { maxAge: 5 * 60, expiresIn: 5 * 60 },
  // twoFactor.trustDevice.maxAge of the app below.
  twoFactorTrust: { maxAge: 30 * 24 * 60 * 60, expiresIn: 30 * 24 * 60 * 60 },
  // The name typed before a wrong password, until the sign-in page shows it again.
  signInIdentifier: { maxAge: 60, expiresIn: 60 },
  // As long as the impersonation it waits out (an hour by default).
  impersonator: { maxAge: undefined, expiresIn: 60 * 60 },
}

/** The path each kind is sent for: `/`, but the sign-in identifier's, which only the sign-in page (under the base path) reads. */
const PATHS: Partial<Record<Kind, string>> = { signInIdentifier: "/auth" }

/** An OAuth provider with all three checks. Signing in only redirects to it, so nothing listens there. */
const idp: OAuthConfig = {
  id: "idp",
  name: "IdP",
  type: "oauth",
  clientId: "cookie-client",
  clientSecret: "cookie-client-secret",
  checks: ["pkce", "state", "nonce"],
  authorization: "https://idp.test/authorize",
  token: "https://idp.test/token",
  userinfo: "https://idp.test/userinfo",
}

/**
 * One app that can set every cookie: credentials, an OAuth provider with every check, passkeys,
 * two-factor sign-in (asked only of users who enrolled, so the other flows sign in at once).
 */
function appConfig(extra: Partial<AuthConfig> = {}): AuthConfig {
  const adapter = MemoryAdapter()
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    twoFactor: { totp: { issuer: "Cookie tests" }, trustDevice: { maxAge: 30 * 24 * 60 * 60 } },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        // The stored Ada once a two-factor driver stored her (her factor is kept by her id).
        authorize: async ({ username, password }) =>
          username === "ada" && password === "correct horse" ? ((await adapter.getUserByEmail(ada.email!)) ?? { ...ada }) : null,
      }),
      idp,
      Passkey(),
      { id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} },
    ],
    ...extra,
  }
}

/** The flow that makes Gatehouse set each kind of cookie; returns every Set-Cookie line of its last step. */
const DRIVERS: Partial<Record<Kind, (client: Client) => Promise<string[]>>> = {
  sessionToken: async (client) => (await client.signIn()).headers.getSetCookie(),
  callbackUrl: async (client) => (await client.get(`signin?callbackUrl=${encodeURIComponent(`${client.origin}/dashboard`)}`)).headers.getSetCookie(),
  csrfToken: async (client) => (await client.get("csrf")).headers.getSetCookie(),
  pkceCodeVerifier: (client) => oauthSignIn(client),
  state: (client) => oauthSignIn(client),
  nonce: (client) => oauthSignIn(client),
  webauthnChallenge: async (client) => (await client.get("webauthn-options/passkey")).headers.getSetCookie(),
  emailLinkBinding: async (client) => (await client.postForm("signin/email", { email: "ada@app.test", csrfToken: await client.csrfToken() })).headers.getSetCookie(),
  twoFactor: async (client) => {
    await enrolAda(client)
    const response = await client.signIn()
    expect(response.headers.get("location")).toBe(`${client.origin}/auth/two-factor`)
    return response.headers.getSetCookie()
  },
  twoFactorTrust: async (client) => {
    const key = await enrolAda(client)
    await client.signIn()
    const response = await client.postForm("two-factor", { code: totpNow(key), method: "totp", trustDevice: "on", csrfToken: await client.csrfToken() })
    expect(response.headers.get("location")).toBe(client.origin)
    return response.headers.getSetCookie()
  },
  impersonator: async (client) => {
    // Ada signs in as an admin (admin.userIds) and impersonates Grace.
    const adapter = client.config.adapter!
    const stored = await adapter.createUser!({ ...ada, id: "", emailVerified: null } as AdapterUser)
    const grace = await adapter.createUser!({ id: "", name: "Grace", email: "grace@app.test", emailVerified: null } as AdapterUser)
    const config = { ...client.config, admin: { userIds: [stored.id] } }
    expect((await client.signIn()).status).toBe(302)
    const { setCookies } = await impersonateUser(new Request(`${client.origin}/admin`, { headers: { cookie: client.jar.header() } }), config, grace.id)
    return setCookies
  },
  signInIdentifier: async (client) => {
    const response = await client.signIn({ username: "ada", password: "wrong" })
    expect(response.headers.get("location")).toBe(`${client.origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    return response.headers.getSetCookie()
  },
}

/** Stores Ada with an authenticator app enabled; returns its key. */
async function enrolAda(client: Client): Promise<Uint8Array> {
  const adapter = client.config.adapter!
  const stored = await adapter.createUser!({ ...ada, id: "", emailVerified: null } as AdapterUser)
  return enrol(adapter, stored.id)
}

async function oauthSignIn(client: Client): Promise<string[]> {
  const response = await client.postForm("signin/idp", { csrfToken: await client.csrfToken() })
  expect(response.headers.get("location")).toMatch(/^https:\/\/idp\.test\/authorize\?/)
  return response.headers.getSetCookie()
}

interface SetCookie {
  name: string
  value: string
  /** Attribute names lower-cased; flags map to `""`. */
  attributes: Map<string, string>
  line: string
}

/** A Set-Cookie line as RFC 6265 reads it (attribute names are case-insensitive). */
function parse(line: string): SetCookie {
  const [pair = "", ...rest] = line.split(";")
  const eq = pair.indexOf("=")
  const attributes = new Map<string, string>()
  for (const attribute of rest) {
    const i = attribute.indexOf("=")
    const key = (i === -1 ? attribute : attribute.slice(0, i)).trim().toLowerCase()
    attributes.set(key, i === -1 ? "" : attribute.slice(i + 1).trim())
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes, line }
}

/** The one line setting `name` to a value (not deleting it). */
function setting(lines: string[], name: string): SetCookie {
  const found = lines.map(parse).filter((cookie) => cookie.name === name && cookie.value !== "" && cookie.attributes.get("max-age") !== "0")
  expect(found, `one Set-Cookie for ${name} in:\n${lines.join("\n")}`).toHaveLength(1)
  return found[0]!
}

/** The name a kind has: `__Host-` for the CSRF cookie and `__Secure-` for the others on secure cookies, none otherwise. */
function expectedName(kind: Kind, secure: boolean): string {
  if (!secure) return BASE_NAMES[kind]
  return `${kind === "csrfToken" ? "__Host-" : "__Secure-"}${BASE_NAMES[kind]}`
}

/** Asserts the attributes every Gatehouse cookie has by default. */
function expectDefaultAttributes(cookie: SetCookie, secure: boolean, path = "/"): void {
  const where = cookie.line
  expect(cookie.attributes.has("httponly"), `HttpOnly: ${where}`).toBe(true)
  expect(cookie.attributes.get("path"), `Path: ${where}`).toBe(path)
  expect(cookie.attributes.get("samesite")?.toLowerCase(), `SameSite: ${where}`).toBe("lax")
  expect(cookie.attributes.has("secure"), `Secure: ${where}`).toBe(secure)
  expect(cookie.attributes.has("domain"), `no Domain: ${where}`).toBe(false)
  if (!secure) expect(cookie.name.startsWith("__"), `no prefix: ${where}`).toBe(false)
}

/** Asserts Max-Age and Expires name the kind's lifetime, for a cookie set between `before` and `after` (ms). */
function expectLifetime(kind: Kind, cookie: SetCookie, before: number, after: number): void {
  const { maxAge, expiresIn } = LIFETIMES[kind]
  const where = cookie.line
  if (maxAge === undefined) expect(cookie.attributes.has("max-age"), `no Max-Age: ${where}`).toBe(false)
  else expect(Number(cookie.attributes.get("max-age")), `Max-Age: ${where}`).toBe(maxAge)
  const expires = cookie.attributes.get("expires")
  if (expiresIn === undefined) {
    expect(expires, `no Expires (a browser-session cookie): ${where}`).toBeUndefined()
    return
  }
  expect(expires, `Expires: ${where}`).toBeDefined()
  // Expires has whole seconds: allow one either side.
  const at = Date.parse(expires!)
  expect(at, where).toBeGreaterThanOrEqual(before + expiresIn * 1000 - 1000)
  expect(at, where).toBeLessThanOrEqual(after + expiresIn * 1000 + 1000)
}

async function drive(kind: Kind, client: Client): Promise<{ lines: string[]; before: number; after: number }> {
  const before = Date.now()
  const driver = DRIVERS[kind]
  if (!driver) throw new Error(`No flow sets the ${kind} cookie yet`)
  const lines = await driver(client)
  return { lines, before, after: Date.now() }
}

describe("the cookie kinds this file covers", () => {
  it("are exactly the kinds in src/cookies/defaults.ts", () => {
    expect(KINDS.length).toBeGreaterThanOrEqual(8)
    expect([...KINDS].sort()).toEqual(Object.keys(DRIVERS).sort())
    expect([...ALL_KINDS].sort()).toEqual(Object.keys(BASE_NAMES).sort())
    expect([...ALL_KINDS].sort()).toEqual(Object.keys(LIFETIMES).sort())
  })

})

describe.each([
  { scheme: "https", origin: "https://app.test", secure: true },
  { scheme: "plain http", origin: "http://app.test", secure: false },
])("on $scheme", ({ origin, secure }) => {
  it.each(KINDS)(`sets the %s cookie with the ${secure ? "secure" : "plain"} defaults and a sensible lifetime`, async (kind) => {
    const client = new Client(appConfig(), origin)
    const { lines, before, after } = await drive(kind, client)
    const cookie = setting(lines, expectedName(kind, secure))
    expectDefaultAttributes(cookie, secure, PATHS[kind])
    expectLifetime(kind, cookie, before, after)
    if (kind === "csrfToken" && secure) {
      // What __Host- requires: Secure, Path=/, no Domain.
      expect(cookie.name.startsWith("__Host-")).toBe(true)
    }
  })

  it("sets every chunk of a session too large for one cookie with the same attributes and expiry", async () => {
    const config = appConfig({ callbacks: { jwt: ({ token }) => ({ ...token, padding: "x".repeat(6000) }) } })
    const client = new Client(config, origin)
    const before = Date.now()
    const lines = (await client.signIn()).headers.getSetCookie()
    const after = Date.now()
    const name = expectedName("sessionToken", secure)
    const chunks = [0, 1].map((index) => setting(lines, `${name}.${index}`))
    for (const chunk of chunks) {
      expectDefaultAttributes(chunk, secure)
      expectLifetime("sessionToken", chunk, before, after)
    }
    expect(lines.map(parse).filter((cookie) => cookie.name === name && cookie.value !== "")).toEqual([])
  })

  it("deletes the session cookie at sign-out under the same name, Path and Secure it was set with", async () => {
    const client = new Client(appConfig(), origin)
    await client.signIn()
    const name = expectedName("sessionToken", secure)
    expect(client.jar.get(name)).toBeDefined()
    const lines = (await client.postForm("signout", { csrfToken: await client.csrfToken() })).headers.getSetCookie()
    const deletion = lines.map(parse).find((cookie) => cookie.name === name)
    expect(deletion, lines.join("\n")).toBeDefined()
    expect(deletion!.value).toBe("")
    expect(deletion!.attributes.get("max-age")).toBe("0")
    expect(deletion!.attributes.get("path")).toBe("/")
    expect(deletion!.attributes.has("secure")).toBe(secure)
    expect(deletion!.attributes.has("httponly")).toBe(true)
  })
})

describe("overrides", () => {
  it.each(KINDS)("useSecureCookies: true makes the %s cookie Secure and prefixed on plain http", async (kind) => {
    const client = new Client(appConfig({ useSecureCookies: true }), "http://app.test")
    const { lines } = await drive(kind, client)
    expectDefaultAttributes(setting(lines, expectedName(kind, true)), true, PATHS[kind])
  })

  it.each(KINDS)("useSecureCookies: false leaves the %s cookie without Secure and prefix on https", async (kind) => {
    const client = new Client(appConfig({ useSecureCookies: false }), "https://app.test")
    const { lines } = await drive(kind, client)
    expectDefaultAttributes(setting(lines, expectedName(kind, false)), false, PATHS[kind])
  })

  it.each(KINDS)("cookies.%s overrides the name and the attributes given, keeping the others", async (kind) => {
    const name = `custom-${kind}`
    const client = new Client(appConfig({ cookies: { [kind]: { name, options: { sameSite: "strict", domain: "app.test" } } } }), "https://app.test")
    const { lines } = await drive(kind, client)
    const cookie = setting(lines, name)
    expect(cookie.attributes.get("samesite")?.toLowerCase()).toBe("strict")
    expect(cookie.attributes.get("domain")).toBe("app.test")
    expect(cookie.attributes.has("httponly")).toBe(true)
    expect(cookie.attributes.has("secure")).toBe(true)
    expect(cookie.attributes.get("path")).toBe(PATHS[kind] ?? "/")
    // The default name is not set alongside.
    expect(lines.map(parse).filter((line) => line.name === expectedName(kind, true))).toEqual([])
  })

  it("reads an Auth.js cookie override as jshttp/cookie does: sameSite true is Strict, false none, and priority is sent", async () => {
    const strict = new Client(appConfig({ cookies: { sessionToken: { options: { sameSite: true, priority: "high" } } } }), "https://app.test")
    const session = setting((await drive("sessionToken", strict)).lines, expectedName("sessionToken", true))
    expect(session.attributes.get("samesite")).toBe("Strict")
    expect(session.attributes.get("priority")).toBe("High")
    const none = new Client(appConfig({ cookies: { sessionToken: { options: { sameSite: false } } } }), "https://app.test")
    expect(setting((await drive("sessionToken", none)).lines, expectedName("sessionToken", true)).attributes.has("samesite")).toBe(false)
  })
})

describe("behind an https AUTH_URL, on a server speaking plain http (Express)", () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  /** Serves `ServerAuth` at /auth on 127.0.0.1; returns its origin and a way to stop it. */
  async function serve(config: AuthConfig) {
    const app = express()
    app.use("/auth", ServerAuth(config as Omit<AuthConfig, "raw">))
    const server = app.listen(0, "127.0.0.1")
    await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return { origin, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
  }

  async function csrfAndSessionCookies(origin: string) {
    const csrf = await fetch(`${origin}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const csrfLines = csrf.headers.getSetCookie()
    const cookie = csrfLines.map((line) => line.split(";")[0]).join("; ")
    const signIn = await fetch(`${origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "correct horse" }),
    })
    expect(signIn.status).toBe(302)
    return [...csrfLines, ...signIn.headers.getSetCookie()]
  }

  it("sets Secure, prefixed cookies when AUTH_URL is https", async () => {
    for (const name of ["AUTH_SECRET", "AUTH_TRUST_HOST", "AUTH_REDIRECT_PROXY_URL"]) vi.stubEnv(name, "")
    vi.stubEnv("AUTH_URL", "https://app.test/auth")
    const { origin, stop } = await serve(appConfig())
    try {
      const lines = await csrfAndSessionCookies(origin)
      expectDefaultAttributes(setting(lines, "__Host-authjs.csrf-token"), true)
      expectDefaultAttributes(setting(lines, "__Secure-authjs.session-token"), true)
    } finally {
      await stop()
    }
  })

  it("(control) sets plain cookies without AUTH_URL on the same server", async () => {
    for (const name of ["AUTH_URL", "AUTH_SECRET", "AUTH_TRUST_HOST", "AUTH_REDIRECT_PROXY_URL"]) vi.stubEnv(name, "")
    const { origin, stop } = await serve(appConfig())
    try {
      const lines = await csrfAndSessionCookies(origin)
      expectDefaultAttributes(setting(lines, "authjs.csrf-token"), false)
      expectDefaultAttributes(setting(lines, "authjs.session-token"), false)
    } finally {
      await stop()
    }
  })
})
