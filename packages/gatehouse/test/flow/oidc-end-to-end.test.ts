/**
 * OpenID Connect sign-in end to end: a Browser clicks "sign in" on an app served by `Auth()`, and a
 * real OpenID Provider (oidc-provider, in-process, automated login and consent) answers. Nothing
 * of the protocol is faked: discovery, the authorization request, the code exchange and the ID
 * token are the provider's; the failures come from its switches.
 */
import { decodeJwt } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { setEnvDefaults } from "../../src/env.js"
import type { OAuthConfig, ProviderEnvOptions } from "../../src/providers/types.js"
import type { Account, AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startOidcServer, type OidcServer, type RecordedRequest } from "../support/oidc-server.js"
import { authApp, expectLandedOn, SESSION_COOKIE, sessionOf, signIn, signInUntilCallback } from "./end-to-end-helpers.js"
import { recordingLogger, secret, storedKey } from "./flow-helpers.js"
import { storedAdapters, type FlowAdapter } from "./stored-adapters.js"

const APP = "https://app.test"
const PROXY = "https://proxy.test"
const DASHBOARD = `${APP}/dashboard`
const CONFIGURATION_ERROR = `${APP}/auth/error?error=Configuration`
/** A failed check is the browser's (a lost or foreign cookie), named as such; Auth.js says Configuration. */
const INVALID_CHECK = `${APP}/auth/error?error=InvalidCheck`
const CHECK_COOKIES = ["__Secure-authjs.pkce.code_verifier", "__Secure-authjs.state", "__Secure-authjs.nonce"]

/** The callback URL of a provider id on the app (or the proxy): the redirect URI registered at the server. */
const callbackOf = (id: string, origin = APP) => `${origin}/auth/callback/${id}`

let server: OidcServer

beforeAll(async () => {
  server = await startOidcServer({
    clients: [
      {
        client_id: "app-client",
        client_secret: "app-secret",
        redirect_uris: ["idp", "idp-checks", "idp-dangerous", "idp-params", "idp-form"].map((id) => callbackOf(id)),
      },
      { client_id: "second-client", client_secret: "second-secret", redirect_uris: [callbackOf("idp-b")] },
      {
        client_id: "post-client",
        client_secret: "post-secret",
        redirect_uris: [callbackOf("idp-post")],
        token_endpoint_auth_method: "client_secret_post",
      },
      { client_id: "public-client", redirect_uris: [callbackOf("idp-public")], token_endpoint_auth_method: "none" },
      { client_id: "env-client", client_secret: "env-secret", redirect_uris: [callbackOf("corp-sso")] },
      // Registered with the proxy's callback only: the provider never sends anyone to app.test.
      { client_id: "proxied-client", client_secret: "proxied-secret", redirect_uris: [callbackOf("proxied", PROXY)] },
    ],
    accounts: {
      alice: { email: "alice@example.com", email_verified: true, name: "Alice Liddell", picture: "https://img.example/alice.png" },
      bob: { email: "bob@example.com", email_verified: true, name: "Bob Builder" },
      carol: { email: "carol@example.com", email_verified: true, name: "Carol OIDC" },
      dave: { email: "dave@example.com", email_verified: true, name: "Dave OIDC" },
    },
  })
})
afterAll(() => server?.stop())

/** An OIDC provider found by discovery: only the issuer and the client. */
function oidc(id: string, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return { id, name: `IdP ${id}`, type: "oidc", issuer: server.issuer, clientId: "app-client", clientSecret: "app-secret", ...overrides }
}

function config(providers: OAuthConfig[], extra: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, logger: recordingLogger().logger, providers, ...extra }
}

function browserFor(appConfig: AuthConfig): Browser {
  return new Browser({ app: authApp(appConfig), appOrigin: APP })
}

const requestsSince = (mark: number, path: string) => server.requests.slice(mark).filter((request) => request.path === path)

/** The query of the (first) authorization request made since `mark`. */
function authorizationRequest(mark: number): URLSearchParams {
  const request = requestsSince(mark, "/auth")[0]
  expect(request, "an authorization request reached the provider").toBeDefined()
  return new URL(request!.url, server.issuer).searchParams
}

function tokenRequests(mark: number): RecordedRequest[] {
  return requestsSince(mark, "/token").filter((request) => request.method === "POST")
}

/** `id:secret` of an HTTP Basic header (each part is form-urlencoded, RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): string {
  expect(header).toMatch(/^Basic /)
  const decoded = Buffer.from(header!.slice("Basic ".length), "base64").toString("utf8")
  const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "))
  const colon = decoded.indexOf(":")
  return `${formDecode(decoded.slice(0, colon))}:${formDecode(decoded.slice(colon + 1))}`
}

describe("OIDC sign-in with discovery", () => {
  it("signs in through the provider's login and consent into a JWT session with the account's name and email", async () => {
    const mark = server.requests.length
    const browser = browserFor(config([oidc("idp")]))
    const visit = await signIn(browser, "idp", { query: { login_hint: "alice" } })

    expectLandedOn(visit, DASHBOARD)
    expect(requestsSince(mark, "/.well-known/openid-configuration").length).toBeGreaterThanOrEqual(1)
    expect(visit.hops.some((hop) => hop.url.startsWith(`${server.issuer}/interaction/`))).toBe(true)
    const callback = visit.hops.find((hop) => hop.url.startsWith(callbackOf("idp")))!
    expect(new URL(callback.url).searchParams.get("iss")).toBe(server.issuer)

    const authorize = authorizationRequest(mark)
    expect(Object.fromEntries(authorize)).toMatchObject({
      response_type: "code",
      client_id: "app-client",
      redirect_uri: callbackOf("idp"),
      scope: "openid profile email",
      login_hint: "alice",
      code_challenge_method: "S256",
    })
    // PKCE and state by default (state binds the callback to this browser), no nonce.
    expect(authorize.get("state")!.split(".")).toHaveLength(5)
    expect(authorize.has("nonce")).toBe(false)

    expect(await sessionOf(browser)).toEqual({
      user: { name: "Alice Liddell", email: "alice@example.com", image: "https://img.example/alice.png" },
      expires: expect.any(String),
    })
    expect(browser.cookie(SESSION_COOKIE)!.split(".")).toHaveLength(5)
    for (const name of CHECK_COOKIES) expect(browser.cookie(name), name).toBeUndefined()
  })

  describe.each(storedAdapters.filter((store) => store.name !== "PostgreSQL"))("database sessions on the $name adapter", (store) => {
    let adapter: FlowAdapter
    let close: () => Promise<void>
    beforeAll(async () => {
      ;({ adapter, close } = await store.open())
    })
    afterAll(() => close?.())

    it("stores the user and the linked account with its tokens, and serves the session from the database", async () => {
      const browser = browserFor(config([oidc("idp")], { adapter }))
      const before = Math.floor(Date.now() / 1000)
      const visit = await signIn(browser, "idp", { query: { login_hint: "alice" } })
      const after = Math.floor(Date.now() / 1000)
      expectLandedOn(visit, DASHBOARD)

      expect(await sessionOf(browser)).toEqual({
        user: { name: "Alice Liddell", email: "alice@example.com", image: "https://img.example/alice.png" },
        expires: expect.any(String),
      })
      const user = await adapter.getUserByAccount!({ provider: "idp", providerAccountId: "alice" })
      // The provider said email_verified: the address is stored as proven (Auth.js stores null).
      expect(user).toMatchObject({ name: "Alice Liddell", email: "alice@example.com", emailVerified: expect.any(Date) })
      const stored = await adapter.getSessionAndUser(storedKey(browser.cookie(SESSION_COOKIE)))
      expect(stored?.user.id).toBe(user!.id)

      const account = await adapter.getAccount!("alice", "idp")
      expect(account).toMatchObject({ provider: "idp", type: "oidc", providerAccountId: "alice", userId: user!.id, token_type: "bearer" })
      expect(Number(account!.expires_at)).toBeGreaterThanOrEqual(before + 300)
      expect(Number(account!.expires_at)).toBeLessThanOrEqual(after + 300)
      expect(decodeJwt(account!.id_token!)).toMatchObject({ iss: server.issuer, sub: "alice", aud: "app-client" })
      // The stored access token is the provider's real one: its userinfo endpoint accepts it.
      const userinfo = await fetch(`${server.issuer}/me`, { headers: { authorization: `Bearer ${account!.access_token}` } })
      expect(userinfo.status).toBe(200)
      expect(await userinfo.json()).toMatchObject({ sub: "alice" })
    })
  })
})

describe("OIDC checks", () => {
  const allChecks = () => oidc("idp-checks", { checks: ["pkce", "state", "nonce"] })

  it("sends state, nonce and a PKCE challenge, finds the nonce in the ID token, and clears the check cookies", async () => {
    let account: Account | null | undefined
    const mark = server.requests.length
    const browser = browserFor(
      config([allChecks()], { callbacks: { jwt: (params) => ((account ??= params.account), params.token) } }),
    )
    const visit = await signIn(browser, "idp-checks", { query: { login_hint: "bob" } })

    expectLandedOn(visit, DASHBOARD)
    const authorize = authorizationRequest(mark)
    expect(authorize.get("state")!.split(".")).toHaveLength(5)
    expect(authorize.get("nonce")).toMatch(/^[\w-]{43}$/)
    expect(authorize.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(decodeJwt(account!.id_token!).nonce).toBe(authorize.get("nonce"))
    expect(tokenRequests(mark)[0]!.body?.get("code_verifier")).toMatch(/^[\w-]{43}$/)
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Bob Builder", email: "bob@example.com" } })
    for (const name of CHECK_COOKIES) expect(browser.cookie(name), name).toBeUndefined()
  })

  it("refuses an ID token whose nonce is not the one sent", async () => {
    const { logger, lines } = recordingLogger()
    const browser = browserFor(config([allChecks()], { logger }))
    server.failures.idTokenClaims = { nonce: "x" }
    try {
      const visit = await signIn(browser, "idp-checks")
      expect(visit.url).toBe(INVALID_CHECK)
    } finally {
      server.failures.idTokenClaims = undefined
    }
    expect(lines.map((line) => line.code)).toContain("InvalidCheck")
    expect(await sessionOf(browser)).toBeNull()
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined()
  })

  it("refuses a validly signed ID token from another issuer", async () => {
    const { logger, lines } = recordingLogger()
    const browser = browserFor(config([oidc("idp")], { logger }))
    server.failures.idTokenClaims = { iss: "https://evil.example" }
    try {
      const visit = await signIn(browser, "idp")
      expect(visit.url).toBe(CONFIGURATION_ERROR)
    } finally {
      server.failures.idTokenClaims = undefined
    }
    expect(lines.map((line) => line.code)).toContain("CallbackRouteError")
    expect(await sessionOf(browser)).toBeNull()
  })

  it("shows the provider's refusal on the sign-in page as OAuthCallbackError", async () => {
    const browser = browserFor(config([oidc("idp")]))
    server.failures.denyNextAuthorization = true
    const visit = await signIn(browser, "idp")
    expect(server.failures.denyNextAuthorization).toBe(false)
    const back = visit.hops.find((hop) => hop.url.startsWith(callbackOf("idp")))!
    expect(new URL(back.url).searchParams.get("error")).toBe("access_denied")
    expect(visit.url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    expect(visit.status).toBe(200)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("fails with Configuration when the token endpoint answers 500, and logs CallbackRouteError", async () => {
    const { logger, lines } = recordingLogger()
    const browser = browserFor(config([oidc("idp")], { logger }))
    const mark = server.requests.length
    server.failures.tokenServerErrors = 1
    try {
      const visit = await signIn(browser, "idp")
      expect(visit.url).toBe(CONFIGURATION_ERROR)
    } finally {
      server.failures.tokenServerErrors = 0
    }
    expect(tokenRequests(mark)).toHaveLength(1)
    expect(lines.filter((line) => line.level === "error").map((line) => line.code)).toContain("CallbackRouteError")
    expect(await sessionOf(browser)).toBeNull()
  })

  it("refuses a replayed callback: without its check cookies at once, with them at the provider (OAuthCallbackError); only one session is made", async () => {
    const memory = MemoryAdapter()
    const created: string[] = []
    const adapter: Adapter = { ...memory, createSession: (session) => (created.push(session.sessionToken), memory.createSession(session)) }
    const appConfig = config([oidc("idp")], { adapter })
    const browser = browserFor(appConfig)
    const mark = server.requests.length

    const callbackUrl = await signInUntilCallback(browser, "idp", { login_hint: "alice" })
    const checkCookies = browser.cookies().filter((cookie) => CHECK_COOKIES.includes(cookie.name))
    expect(checkCookies.map((cookie) => cookie.name).sort()).toEqual(["__Secure-authjs.pkce.code_verifier", "__Secure-authjs.state"])
    expectLandedOn(await browser.get(callbackUrl), DASHBOARD)
    const sessionToken = browser.cookie(SESSION_COOKIE)
    expect(created).toEqual([storedKey(sessionToken)])

    // The same browser again: the check cookie was used up, so the provider is not even asked.
    expect((await browser.get(callbackUrl)).url).toBe(INVALID_CHECK)
    expect(tokenRequests(mark)).toHaveLength(1)
    expect(browser.cookie(SESSION_COOKIE)).toBe(sessionToken)

    // Someone who captured the URL and the check cookies: the provider refuses the spent code
    // (invalid_grant), a failed sign-in on the sign-in page, not a server fault.
    const replayer = browserFor(appConfig)
    for (const cookie of checkCookies) replayer.setCookie(`${cookie.name}=${cookie.value}; Path=/; Secure; HttpOnly; SameSite=Lax`)
    expect((await replayer.get(callbackUrl)).url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    expect(tokenRequests(mark)).toHaveLength(2)
    expect(replayer.cookie(SESSION_COOKIE)).toBeUndefined()
    expect(created).toHaveLength(1)
  })

  it("refuses a callback carrying the check cookie of another provider, before asking for tokens", async () => {
    const { logger, lines } = recordingLogger()
    const providers = [oidc("idp"), oidc("idp-b", { clientId: "second-client", clientSecret: "second-secret" })]
    const browser = browserFor(config(providers, { logger }))
    const mark = server.requests.length

    const callbackUrl = await signInUntilCallback(browser, "idp-b")
    const crossed = callbackUrl.replace("/auth/callback/idp-b?", "/auth/callback/idp?")
    expect((await browser.get(crossed)).url).toBe(INVALID_CHECK)
    expect(lines.map((line) => line.code)).toContain("InvalidCheck")
    expect(tokenRequests(mark)).toHaveLength(0)
    expect(await sessionOf(browser)).toBeNull()

    // The refused callback was idp's, and the checks are idp-b's: it ends nothing of idp-b's flow,
    // whose own callback then completes (a callback of another provider cannot use them anyway).
    expect(browser.cookies().filter((cookie) => CHECK_COOKIES.includes(cookie.name))).not.toEqual([])
    expectLandedOn(await browser.get(callbackUrl), DASHBOARD)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("authenticates with client_secret_post: the secret in the body, no Authorization header", async () => {
    const mark = server.requests.length
    const provider = oidc("idp-post", { clientId: "post-client", clientSecret: "post-secret", client: { token_endpoint_auth_method: "client_secret_post" } })
    const browser = browserFor(config([provider]))
    expectLandedOn(await signIn(browser, "idp-post"), DASHBOARD)

    const [token] = tokenRequests(mark)
    expect(token!.headers.authorization).toBeUndefined()
    expect(token!.body?.get("client_id")).toBe("post-client")
    expect(token!.body?.get("client_secret")).toBe("post-secret")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("signs in a public client (auth method none) with PKCE and no secret at all", async () => {
    const mark = server.requests.length
    const provider = oidc("idp-public", { clientId: "public-client", clientSecret: undefined, client: { token_endpoint_auth_method: "none" } })
    const browser = browserFor(config([provider]))
    expectLandedOn(await signIn(browser, "idp-public"), DASHBOARD)

    expect(authorizationRequest(mark).get("code_challenge_method")).toBe("S256")
    const [token] = tokenRequests(mark)
    expect(token!.headers.authorization).toBeUndefined()
    expect(token!.body?.get("client_id")).toBe("public-client")
    expect(token!.body?.has("client_secret")).toBe(false)
    expect(token!.body?.get("code_verifier")).toMatch(/^[\w-]{43}$/)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })
})

describe("authorization parameters and response modes", () => {
  // Google's `access_type`/`prompt` and Keycloak's `offline_access` scope are configured this way.
  it("sends the authorization params configured without a URL (the endpoint comes from discovery)", async () => {
    const mark = server.requests.length
    const provider = oidc("idp-params", { authorization: { params: { scope: "openid email", ui_locales: "fr-CA" } } })
    const browser = browserFor(config([provider]))

    expectLandedOn(await signIn(browser, "idp-params"), DASHBOARD)
    const authorize = authorizationRequest(mark)
    expect(authorize.get("scope")).toBe("openid email")
    expect(authorize.get("ui_locales")).toBe("fr-CA")
    // Without the profile scope the ID token has no name: the session shows the email only.
    const session = (await sessionOf(browser)) as { user: Record<string, unknown> }
    expect(session.user.email).toBe("alice@example.com")
    expect(session.user.name).toBeUndefined()
  })

  it("completes a response_mode=form_post sign-in, whose callback is a cross-site POST", async () => {
    const mark = server.requests.length
    const provider = oidc("idp-form", {
      checks: ["pkce", "state", "nonce"],
      authorization: { url: `${server.issuer}/auth`, params: { response_mode: "form_post" } },
    })
    const browser = browserFor(config([provider]))

    const visit = await signIn(browser, "idp-form", { query: { login_hint: "bob" } })
    // The callback-url cookie goes out SameSite=None for form_post providers, so the cross-site
    // POST carries it and the user lands where they were going (Auth.js drops them on the origin).
    expectLandedOn(visit, DASHBOARD)
    expect(authorizationRequest(mark).get("response_mode")).toBe("form_post")
    const callback = visit.hops.find((hop) => hop.url === callbackOf("idp-form"))
    expect(callback, "the provider posted the code to the callback").toMatchObject({ method: "POST", status: 302 })
    expect(callback!.form?.get("code")).toBeTruthy()
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Bob Builder", email: "bob@example.com" } })
  })
})

describe("OIDC profile from the userinfo endpoint", () => {
  it("reads the profile from userinfo, for the ID token's subject, when idToken is false", async () => {
    const mark = server.requests.length
    const browser = browserFor(config([oidc("idp", { idToken: false })]))
    expectLandedOn(await signIn(browser, "idp", { query: { login_hint: "bob" } }), DASHBOARD)
    expect(requestsSince(mark, "/me")).toHaveLength(1)
    expect(requestsSince(mark, "/me")[0]!.headers.authorization).toMatch(/^Bearer /)
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Bob Builder", email: "bob@example.com" } })
  })

  it("fails with Configuration when userinfo answers something that is not JSON", async () => {
    const browser = browserFor(config([oidc("idp", { idToken: false })]))
    server.failures.userinfoGarbage = true
    try {
      expect((await signIn(browser, "idp")).url).toBe(CONFIGURATION_ERROR)
    } finally {
      server.failures.userinfoGarbage = false
    }
    expect(await sessionOf(browser)).toBeNull()
  })
})

describe("account linking under database sessions", () => {
  it("creates a new user on the first sign-in and finds the same user on the next one", async () => {
    const adapter = MemoryAdapter()
    const appConfig = config([oidc("idp")], { adapter, pages: { newUser: "/welcome" } })

    const first = await signIn(browserFor(appConfig), "idp", { query: { login_hint: "alice" } })
    expectLandedOn(first, `${APP}/welcome?callbackUrl=${encodeURIComponent(DASHBOARD)}`)
    const user = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    expect(user).not.toBeNull()

    const browser = browserFor(appConfig)
    expectLandedOn(await signIn(browser, "idp", { query: { login_hint: "alice" } }), DASHBOARD)
    expect((await adapter.getSessionAndUser(storedKey(browser.cookie(SESSION_COOKIE))))?.user.id).toBe(user!.id)
    expect(await adapter.getUserByEmail("alice@example.com")).toMatchObject({ id: user!.id })
  })

  it("refuses to sign in to an existing user with the same email who never linked the account", async () => {
    const adapter = MemoryAdapter()
    const existing = await adapter.createUser({ email: "carol@example.com", emailVerified: new Date(), name: "Carol by email" })
    const browser = browserFor(config([oidc("idp")], { adapter }))

    const visit = await signIn(browser, "idp", { query: { login_hint: "carol" } })
    expect(visit.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined()
    expect(await adapter.getAccount("carol", "idp")).toBeNull()
    expect(await adapter.getUser(existing.id)).toMatchObject({ name: "Carol by email" })
  })

  it("links the account to the existing user with the same email when allowDangerousEmailAccountLinking is on", async () => {
    const adapter = MemoryAdapter()
    const existing = await adapter.createUser({ email: "dave@example.com", emailVerified: new Date(), name: "Dave by email" })
    const browser = browserFor(config([oidc("idp-dangerous", { allowDangerousEmailAccountLinking: true })], { adapter }))

    expectLandedOn(await signIn(browser, "idp-dangerous", { query: { login_hint: "dave" } }), DASHBOARD)
    expect(await adapter.getAccount("dave", "idp-dangerous")).toMatchObject({ userId: existing.id })
    expect((await adapter.getSessionAndUser(storedKey(browser.cookie(SESSION_COOKIE))))?.user.id).toBe(existing.id)
  })

  it("links a second provider's account to the user who is signed in, whatever its email", async () => {
    const adapter = MemoryAdapter()
    const providers = [oidc("idp"), oidc("idp-b", { clientId: "second-client", clientSecret: "second-secret" })]
    const browser = browserFor(config(providers, { adapter }))

    expectLandedOn(await signIn(browser, "idp", { query: { login_hint: "alice" } }), DASHBOARD)
    const alice = (await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })) as AdapterUser
    // At the second provider the person is bob (another email): linked to alice all the same.
    expectLandedOn(await signIn(browser, "idp-b", { query: { login_hint: "bob" } }), DASHBOARD)

    expect(await adapter.getAccount("bob", "idp-b")).toMatchObject({ userId: alice.id, type: "oidc" })
    expect(await adapter.getUserByEmail("bob@example.com")).toBeNull()
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Alice Liddell", email: "alice@example.com" } })

    // And the linked account now signs in as alice anywhere.
    const elsewhere = browserFor(config(providers, { adapter }))
    expectLandedOn(await signIn(elsewhere, "idp-b", { query: { login_hint: "bob" } }), DASHBOARD)
    expect((await adapter.getSessionAndUser(storedKey(elsewhere.cookie(SESSION_COOKIE))))?.user.id).toBe(alice.id)
  })
})

describe("account linking while signed in", () => {
  const providers = () => [oidc("idp"), oidc("idp-b", { clientId: "second-client", clientSecret: "second-secret" })]

  it("refuses to link an account that already belongs to another user, and keeps the session", async () => {
    const adapter = MemoryAdapter()
    const appConfig = config(providers(), { adapter })
    const bobsBrowser = browserFor(appConfig)
    expectLandedOn(await signIn(bobsBrowser, "idp-b", { query: { login_hint: "bob" } }), DASHBOARD)
    const bob = await adapter.getUserByAccount({ provider: "idp-b", providerAccountId: "bob" })

    const browser = browserFor(appConfig)
    expectLandedOn(await signIn(browser, "idp", { query: { login_hint: "alice" } }), DASHBOARD)
    const aliceSession = browser.cookie(SESSION_COOKIE)
    const visit = await signIn(browser, "idp-b", { query: { login_hint: "bob" } })

    expect(visit.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)
    expect(await adapter.getAccount("bob", "idp-b")).toMatchObject({ userId: bob!.id })
    expect(browser.cookie(SESSION_COOKIE)).toBe(aliceSession)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("links to the signed-in user under JWT sessions with an adapter too", async () => {
    const adapter = MemoryAdapter()
    const browser = browserFor(config(providers(), { adapter, session: { strategy: "jwt" } }))

    expectLandedOn(await signIn(browser, "idp", { query: { login_hint: "alice" } }), DASHBOARD)
    expect(browser.cookie(SESSION_COOKIE)!.split(".")).toHaveLength(5)
    const alice = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    expectLandedOn(await signIn(browser, "idp-b", { query: { login_hint: "bob" } }), DASHBOARD)

    expect(await adapter.getAccount("bob", "idp-b")).toMatchObject({ userId: alice!.id })
    expect(await adapter.getUserByEmail("bob@example.com")).toBeNull()
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })
})

describe("provider client id, secret and issuer from the environment", () => {
  const bare = { id: "corp-sso", name: "Corp SSO", type: "oidc" } as const

  it.each([
    ["a provider object", bare],
    ["a provider factory", (options: ProviderEnvOptions): OAuthConfig => ({ ...bare, ...options })],
  ])("fills in AUTH_CORP_SSO_ID, _SECRET and _ISSUER for %s with setEnvDefaults, and signs in with them", async (_, provider) => {
    const appConfig: AuthConfig = { providers: [provider], trustHost: true, logger: recordingLogger().logger }
    setEnvDefaults(
      { AUTH_SECRET: secret, AUTH_CORP_SSO_ID: "env-client", AUTH_CORP_SSO_SECRET: "env-secret", AUTH_CORP_SSO_ISSUER: server.issuer },
      appConfig,
    )
    const mark = server.requests.length
    const browser = browserFor(appConfig)

    expectLandedOn(await signIn(browser, "corp-sso"), DASHBOARD)
    expect(requestsSince(mark, "/auth")[0]?.url).toContain("client_id=env-client")
    expect(basicCredentials(tokenRequests(mark)[0]?.headers.authorization)).toBe("env-client:env-secret")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })
})

describe("redirect proxy", () => {
  it("sends the provider to the proxy, which forwards the callback to the app that started the sign-in", async () => {
    const provider = () => oidc("proxied", { clientId: "proxied-client", clientSecret: "proxied-secret" })
    const redirectProxyUrl = `${PROXY}/auth`
    const browser = new Browser({
      app: authApp(config([provider()], { redirectProxyUrl })),
      appOrigin: APP,
      origins: { [PROXY]: authApp(config([provider()], { redirectProxyUrl })) },
    })
    const mark = server.requests.length

    const visit = await signIn(browser, "proxied", { query: { login_hint: "alice" } })
    expectLandedOn(visit, DASHBOARD)

    const authorize = authorizationRequest(mark)
    expect(authorize.get("redirect_uri")).toBe(callbackOf("proxied", PROXY))
    // State is on behind a proxy, even though the provider only asks for PKCE.
    expect(authorize.get("state")!.split(".")).toHaveLength(5)
    const atProxy = visit.hops.find((hop) => hop.url.startsWith(callbackOf("proxied", PROXY)))!
    expect(atProxy.status).toBe(302)
    const forwarded = new URL(atProxy.location!)
    expect(forwarded.origin + forwarded.pathname).toBe(callbackOf("proxied"))
    expect(Object.fromEntries(forwarded.searchParams)).toEqual(Object.fromEntries(new URL(atProxy.url).searchParams))

    // The code was exchanged by the app, with the redirect URI the provider saw.
    expect(tokenRequests(mark)[0]?.body?.get("redirect_uri")).toBe(callbackOf("proxied", PROXY))
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Alice Liddell", email: "alice@example.com" } })
    expect(browser.cookie(SESSION_COOKIE, PROXY)).toBeUndefined()
  })
})
