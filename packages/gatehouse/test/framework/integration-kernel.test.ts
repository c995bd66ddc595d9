/**
 * The integration kernel every framework integration is built on: the prepared config, the
 * in-process session read, server-side actions and the route test, through the public
 * `gatehouse-auth/framework` surface.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import { CredentialsSignin, InvalidConfig } from "../../src/errors.js"
import { getSession, isAuthRoute, prepareConfig, runServerAction, setClientAddress, signInFailurePage } from "../../src/framework/index.js"
import { skipCSRFCheck } from "../../src/markers.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, ada, credentialsConfig, moveClockOn, recordingLogger, secret } from "../flow/flow-helpers.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"

afterEach(() => {
  vi.useRealTimers()
})

describe("prepareConfig", () => {
  it("applies the environment to a copy, never to the application's object", () => {
    const config: AuthConfig = { providers: [] }
    const { config: ready } = prepareConfig(config, { AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" })
    expect(ready).not.toBe(config)
    expect(ready).toMatchObject({ secret: [secret], trustHost: true, basePath: "/auth" })
    expect(config).toEqual({ providers: [] })
  })

  it("prepares once per config object and default base path, reading the environment the first time", () => {
    const config: AuthConfig = { providers: [] }
    const first = prepareConfig(config, { AUTH_SECRET: secret })
    expect(prepareConfig(config, { AUTH_SECRET: "another-secret-that-is-ignored-now-0123" })).toBe(first)
    expect(prepareConfig(config, { AUTH_SECRET: secret }, { basePath: "/api/auth" })).not.toBe(first)
  })

  it.each([
    ["the config's basePath", { basePath: "/mine" }, { AUTH_URL: "https://app.test/from-url" }, "/mine"],
    ["AUTH_URL's path", {}, { AUTH_URL: "https://app.test/from-url" }, "/from-url"],
    ["LEGACYAUTH_URL's path", {}, { LEGACYAUTH_URL: "https://app.test/legacy" }, "/legacy"],
    ["the framework's default", {}, { AUTH_URL: "https://app.test" }, "/api/auth"],
  ])("takes %s as the base path first", (_case, extra, env, expected) => {
    expect(prepareConfig({ providers: [], ...extra }, { AUTH_SECRET: secret, ...env }, { basePath: "/api/auth" }).config.basePath).toBe(expected)
  })

  it("with clientAddress, reads the client's address where setClientAddress writes it, unless the app names its own header", () => {
    const config: AuthConfig = { providers: [] }
    const withAddress = prepareConfig(config, {}, { clientAddress: true })
    expect(withAddress.config.trustedIpHeader).toBe("x-gatehouse-client-address")
    expect(prepareConfig(config, {}).config.trustedIpHeader).toBeUndefined()
    expect(prepareConfig(config, {}, { clientAddress: true })).toBe(withAddress)
    expect(prepareConfig({ providers: [], trustedIpHeader: "fly-client-ip" }, {}, { clientAddress: true }).config.trustedIpHeader).toBe("fly-client-ip")
    // What the client sent is replaced, or removed when the framework cannot tell.
    const sent = { "x-gatehouse-client-address": "192.0.2.1", "x-real-ip": "192.0.2.7" }
    expect(setClientAddress(new Headers(sent), "203.0.113.9").get("x-gatehouse-client-address")).toBe("203.0.113.9")
    expect(setClientAddress(new Headers(sent), undefined).has("x-gatehouse-client-address")).toBe(false)
    // The headers a proxy sets are the app's to name, and reach it as they came.
    expect(setClientAddress(new Headers(sent), "203.0.113.9").get("x-real-ip")).toBe("192.0.2.7")
  })

  it("reads AUTH_URL's origin once, and refuses an unusable AUTH_URL as a configuration error", () => {
    expect(prepareConfig({ providers: [] }, { AUTH_URL: "https://app.test:8443/api/auth" }).origin).toBe("https://app.test:8443")
    expect(prepareConfig({ providers: [] }, {}).origin).toBeUndefined()
    for (const bad of ["not a url", "ftp://app.test", "https://user:pass@app.test", "https://app.test/?x=1"]) {
      expect(() => prepareConfig({ providers: [] }, { AUTH_URL: bad })).toThrow(InvalidConfig)
    }
  })
})

describe("getSession", () => {
  const request = (cookie: string) => ({ url: `${ORIGIN}/dashboard`, headers: new Headers(cookie ? { cookie } : {}) })

  it("reads the session in-process, with the same answer as GET {basePath}/session", async () => {
    const client = new Client(credentialsConfig())
    await client.signIn()
    const { config: ready } = prepareConfig(client.config, {})
    const read = await getSession(request(client.jar.header()), ready)
    const route = await (await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: client.jar.header() } }), client.config as Omit<AuthConfig, "raw">)).json()
    expect(read.session).toEqual(route)
    expect(read.session).toMatchObject({ user: { email: ada.email } })
    expect(read.setCookies).toEqual([])
  })

  it("hands back the cookie a read slides, as Set-Cookie values and as cookies", async () => {
    const client = new Client(credentialsConfig())
    await client.signIn()
    moveClockOn()
    const read = await getSession(request(client.jar.header()), client.config)
    expect(read.setCookies).toHaveLength(1)
    expect(read.setCookies[0]).toMatch(new RegExp(`^${SESSION.replace(".", "\\.")}=[^;]+; Path=/; Expires=`))
    expect(read.cookies[0]).toMatchObject({ name: SESSION, options: { httpOnly: true, sameSite: "lax", secure: true } })
  })

  it("answers null for no cookie, and null with a deletion for an unreadable one", async () => {
    const config = credentialsConfig()
    expect(await getSession(request(""), config)).toEqual({ session: null, setCookies: [], cookies: [] })
    const garbage = await getSession(request(`${SESSION}=garbage`), config)
    expect(garbage.session).toBeNull()
    expect(garbage.setCookies).toEqual([`${SESSION}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`])
  })

  it("reads database sessions, extending the row when due", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ email: ada.email!, emailVerified: null })
    const config = credentialsConfig({
      adapter,
      session: { strategy: "database" },
      providers: [Credentials({ credentials: {}, authorize: () => user })],
    })
    const client = new Client(config)
    await client.signIn({})
    expect((await getSession(request(client.jar.header()), config)).session).toMatchObject({ user: { email: ada.email } })
    moveClockOn()
    expect((await getSession(request(client.jar.header()), config)).setCookies).toHaveLength(1)
  })

  it("throws the configuration's error (a missing secret), logging it", async () => {
    const log = recordingLogger()
    await expect(getSession(request(""), { providers: [], trustHost: true, logger: log.logger })).rejects.toMatchObject({ type: "MissingSecret" })
    expect(log.lines.map((line) => line.code)).toContain("MissingSecret")
  })
})

describe("an untrusted host (production, neither AUTH_URL nor AUTH_TRUST_HOST)", () => {
  const FIX = /AUTH_URL=https:\/\/your\.site.*behind a proxy.*AUTH_TRUST_HOST=true/

  it("prepares without complaint, so public pages never meet it; getSession throws UntrustedHost naming the fix, logged once; the routes answer 500 without it", async () => {
    const log = recordingLogger()
    const { trustHost: _, ...config } = credentialsConfig({ logger: log.logger })
    const { config: ready } = prepareConfig(config, { NODE_ENV: "production", AUTH_SECRET: secret })
    expect(isAuthRoute(`${ORIGIN}/about`, ready.basePath, ready)).toBe(false)
    for (let read = 0; read < 3; read++) {
      await expect(getSession({ url: `${ORIGIN}/`, headers: new Headers() }, ready)).rejects.toMatchObject({ type: "UntrustedHost", message: expect.stringMatching(FIX) })
    }
    const answer = await Auth(new Request(`${ORIGIN}/auth/session`), ready)
    expect(answer.status).toBe(500)
    expect(await answer.text()).not.toMatch(/UntrustedHost|AUTH_URL|at .*\.ts/)
    expect(log.lines.filter((line) => line.code === "UntrustedHost")).toHaveLength(1)
  })
})

describe("runServerAction", () => {
  const headersOf = (client: Client) => new Headers({ cookie: client.jar.header() })

  it("signs in with credentials where the framework checked the origin: a redirect and the session cookie", async () => {
    const config = { ...credentialsConfig(), basePath: "/auth" }
    const client = new Client(config)
    const result = await runServerAction(config, {
      action: "callback",
      providerId: "credentials",
      origin: ORIGIN,
      headers: headersOf(client),
      fields: { username: "ada", password: "correct horse", callbackUrl: `${ORIGIN}/dashboard` },
      originChecked: true,
    })
    expect(result).toMatchObject({ status: 302, redirect: `${ORIGIN}/dashboard` })
    expect(result.setCookies.some((line) => line.startsWith(`${SESSION}=`))).toBe(true)
  })

  it("keeps the CSRF check where the origin was not checked", async () => {
    const config = { ...credentialsConfig(), basePath: "/auth" }
    const client = new Client(config)
    const input = { action: "callback" as const, providerId: "credentials", origin: ORIGIN, headers: headersOf(client), fields: { username: "ada", password: "correct horse" } }
    await expect(runServerAction(config, input)).rejects.toMatchObject({ type: "MissingCSRF" })
    const csrfToken = await client.csrfToken()
    const result = await runServerAction(config, { ...input, headers: headersOf(client), fields: { ...input.fields, csrfToken } })
    expect(result.status).toBe(302)
  })

  it("throws CredentialsSignin with its code for a refused sign-in", async () => {
    const config = { ...credentialsConfig(), basePath: "/auth" }
    const refused = runServerAction(config, {
      action: "callback", providerId: "credentials", origin: ORIGIN, headers: new Headers(), fields: { username: "ada", password: "wrong" }, originChecked: true,
    })
    await expect(refused).rejects.toBeInstanceOf(CredentialsSignin)
    await expect(refused).rejects.toMatchObject({ code: "credentials" })
  })

  it("throws CredentialsSignin from a page's own form even when the browser asked for a returned redirect, so a server action gets the typed error", async () => {
    const config = { ...credentialsConfig(), basePath: "/auth" }
    const headers = new Headers({ referer: `${ORIGIN}/login`, "x-auth-return-redirect": "1" })
    const refused = runServerAction(config, {
      action: "callback", providerId: "credentials", origin: ORIGIN, headers, fields: { username: "ada", password: "wrong" }, originChecked: true,
    })
    await expect(refused).rejects.toBeInstanceOf(CredentialsSignin)
  })

  it("signInFailurePage: pages.signIn, else the posting page (its own query kept), else the built-in page; other failures the error page", () => {
    const config = { ...credentialsConfig(), basePath: "/auth" }
    const refused = new CredentialsSignin("no")
    const from = (referer: string | null) => ({ origin: ORIGIN, referer, callbackUrl: "/dashboard" })
    expect(signInFailurePage(config, refused, from(`${ORIGIN}/login?next=1`))).toBe("/login?next=1&error=CredentialsSignin&code=credentials")
    expect(signInFailurePage(config, refused, from(null))).toBe("/auth/signin?error=CredentialsSignin&code=credentials&callbackUrl=%2Fdashboard")
    expect(signInFailurePage(config, refused, from("https://evil.test/login"))).toBe("/auth/signin?error=CredentialsSignin&code=credentials&callbackUrl=%2Fdashboard")
    expect(signInFailurePage({ ...config, pages: { signIn: "/signin" } }, refused, from(`${ORIGIN}/login`))).toBe("/signin?error=CredentialsSignin&code=credentials&callbackUrl=%2Fdashboard")
    expect(signInFailurePage(config, new InvalidConfig("bad"), from(`${ORIGIN}/login`))).toBe("/auth/error?error=Configuration")
  })

  it("updates the session with the update trigger and signs out, each with the cookies to set", async () => {
    const config = {
      ...credentialsConfig({
        callbacks: {
          jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token),
        },
      }),
      basePath: "/auth",
    }
    const client = new Client(config)
    await client.signIn()
    const updated = await runServerAction(config, { action: "session", origin: ORIGIN, headers: headersOf(client), json: { data: { name: "Countess" } }, originChecked: true })
    expect(updated.body).toMatchObject({ user: { name: "Countess" } })
    expect(updated.setCookies).toHaveLength(1)
    const out = await runServerAction(config, { action: "signout", origin: ORIGIN, headers: headersOf(client), fields: { callbackUrl: `${ORIGIN}/` }, originChecked: true })
    expect(out.redirect).toBe(`${ORIGIN}/`)
    expect(out.setCookies).toContain(`${SESSION}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`)
  })

  it("logs each configuration warning once for the app, however many copies server actions make, and no csrf-disabled for them", async () => {
    const { logger, lines } = recordingLogger()
    const config = { ...credentialsConfig({ logger, debug: true }), basePath: "/auth" }
    const client = new Client(config)
    await client.get("session")
    const input = { action: "callback" as const, providerId: "credentials", origin: ORIGIN, fields: { username: "ada", password: "correct horse" } }
    await runServerAction(config, { ...input, headers: new Headers(), originChecked: true })
    const csrfToken = await client.csrfToken()
    await runServerAction(config, { ...input, headers: headersOf(client), fields: { ...input.fields, csrfToken } })
    const warnings = lines.filter((line) => line.level === "warn").map((line) => line.code)
    expect(warnings).toEqual(["debug-enabled"])
  })

  it("still warns an app that turns the CSRF check off itself", async () => {
    const { logger, lines } = recordingLogger()
    const config = { ...credentialsConfig({ logger, skipCSRFCheck }), basePath: "/auth" }
    await Auth(new Request(`${ORIGIN}/auth/session`), config)
    expect(lines.filter((line) => line.level === "warn").map((line) => line.code)).toContain("csrf-disabled")
  })
})

describe("isAuthRoute", () => {
  it.each([
    ["/api/auth/session", true],
    ["/api/auth/signin/github?callbackUrl=%2F", true],
    ["https://app.test/api/auth/callback/github", true],
    ["/api/auth/login", false],
    ["/api/authsession", false],
    ["/dashboard", false],
    ["/api/auth/session/extra", false],
  ])("%s → %s", (url, expected) => {
    expect(isAuthRoute(url, "/api/auth")).toBe(expected)
  })

  it("counts the two-factor routes only for a configuration with twoFactor, so the app keeps its own paths otherwise", () => {
    for (const url of ["/api/auth/two-factor", "/api/auth/two-factor/totp/confirm"]) {
      expect(isAuthRoute(url, "/api/auth")).toBe(false)
      expect(isAuthRoute(url, "/api/auth", credentialsConfig())).toBe(false)
      expect(isAuthRoute(url, "/api/auth", credentialsConfig({ twoFactor: { totp: { issuer: "Acme" } } }))).toBe(true)
    }
    expect(isAuthRoute("/api/auth/two-factor/settings", "/api/auth", credentialsConfig({ twoFactor: { totp: { issuer: "Acme" } } }))).toBe(false)
  })
})
