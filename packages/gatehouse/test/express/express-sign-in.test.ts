/**
 * Every provider kind signed in through a real Express app (5 and 4) on 127.0.0.1: credentials
 * (JWT and database sessions), a magic link delivered by SMTP, OpenID Connect against
 * oidc-provider, plain OAuth 2 against a GitHub-shaped server, and passkeys from a software
 * authenticator. The client is `fetch` with a cookie jar; nothing follows a redirect by itself.
 */
import type { Express } from "express"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { getSession, ServerAuth, type ServerAuthConfig } from "../../src/express/index.js"
import { GitHub } from "../../src/providers/github.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { OAuthConfig, ProviderEnvOptions } from "../../src/providers/types.js"
import { ada, credentialsConfig, recordingLogger, secret, storedKey } from "../flow/flow-helpers.js"
import { storedAdapters } from "../flow/stored-adapters.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { SoftwareAuthenticator, type CredentialJSON } from "../support/software-authenticator.js"
import {
  closeServers,
  expressVersions,
  HttpClient,
  isolateAuthEnv,
  listen,
  reportErrors,
  setCookieLine,
  type ExpressVersion,
  type Listening,
  smtpForSuite,
  storeForSuite,
} from "./express-apps.js"

isolateAuthEnv()
afterEach(closeServers)

const SESSION = "authjs.session-token"

/** The auth routes at /auth, a page at /dashboard, and /api/me answering `getSession`. */
function authApp(version: ExpressVersion, config: ServerAuthConfig, app: Express = version.express()): Express {
  app.use("/auth", ServerAuth(config))
  app.get("/dashboard", (_req, res) => {
    res.type("text/plain").send("dashboard")
  })
  app.get("/api/me", async (req, res, next) => {
    try {
      res.json(await getSession(req, config, res))
    } catch (error) {
      next(error)
    }
  })
  app.use(reportErrors)
  return app
}

async function started(version: ExpressVersion, config: ServerAuthConfig): Promise<{ client: HttpClient; origin: string }> {
  const { origin } = await listen(authApp(version, config))
  return { client: new HttpClient(origin), origin }
}

describe.each(expressVersions)("credentials sign-in through $name", (version) => {
  it("signs in into a JWT session cookie that /auth/session and getSession both read, and signs out", async () => {
    const { client, origin } = await started(version, credentialsConfig())
    expect(await client.get("/api/me").then((response) => response.json())).toBeNull()

    const response = await client.signIn()
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(origin)
    const cookie = setCookieLine(response, SESSION)!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).not.toMatch(/Secure/)
    expect(client.cookie(SESSION)!.split(".")).toHaveLength(5)

    const user = { name: ada.name, email: ada.email, image: ada.image }
    expect(await client.session()).toEqual({ user, expires: expect.any(String) })
    expect(await (await client.get("/api/me")).json()).toEqual({ user, expires: expect.any(String) })

    const signOut = await client.postForm("/auth/signout", { csrfToken: await client.csrfToken() })
    expect(signOut.status).toBe(302)
    expect(signOut.headers.get("location")).toBe(origin)
    expect(client.cookie(SESSION)).toBeUndefined()
    expect(await client.session()).toBeNull()
  })

  it("sends a wrong password back to the sign-in page with CredentialsSignin and no session, the name typed in a cookie for that page", async () => {
    const { client, origin } = await started(version, credentialsConfig())
    const response = await client.signIn({ username: "ada", password: "wrong" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect(setCookieLine(response, "authjs.sign-in-identifier")).toMatch(/^authjs\.sign-in-identifier=username%3Dada; Max-Age=60; Path=\/auth; Expires=[^;]+; HttpOnly; SameSite=Lax$/)
    expect(setCookieLine(response, SESSION)).toBeUndefined()
    expect(await client.session()).toBeNull()
  })

  it("sends a wrong password posted from the app's own page (/login, not pages.signIn) back to that page with its error", async () => {
    const { client, origin } = await started(version, credentialsConfig())
    const csrfToken = await client.csrfToken()
    const response = await client.postForm("/auth/callback/credentials", { csrfToken, username: "ada", password: "wrong" }, { referer: `${origin}/login?callbackUrl=%2Fdashboard` })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/login?callbackUrl=%2Fdashboard&error=CredentialsSignin&code=credentials`)
    expect(setCookieLine(response, SESSION)).toBeUndefined()
  })

  it("refuses a sign-in without the CSRF token and keeps the user signed out", async () => {
    const { client, origin } = await started(version, credentialsConfig())
    await client.csrfToken()
    const response = await client.postForm("/auth/callback/credentials", { username: "ada", password: "correct horse" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
    expect(client.cookie(SESSION)).toBeUndefined()
  })

  describe.each(storedAdapters.filter((store) => store.name !== "PostgreSQL"))("database sessions on the $name adapter", (store) => {
    const opened = storeForSuite(store)

    it("signs in into a session row whose token is the cookie; getSession reads it; sign-out deletes the row", async () => {
      const { adapter } = opened
      const user = await adapter.createUser({ id: crypto.randomUUID(), name: "Row User", email: `${crypto.randomUUID()}@app.test`, emailVerified: null })
      const config = credentialsConfig({
        adapter,
        session: { strategy: "database" },
        providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: ({ password }) => (password === "pw" ? { id: user.id } : null) }],
      })
      const { client, origin } = await started(version, config)

      const response = await client.signIn({ password: "pw" })
      expect(response.headers.get("location")).toBe(origin)
      const token = client.cookie(SESSION)
      expect(token).toMatch(/^[0-9a-f]{64}$/)
      expect((await adapter.getSessionAndUser(storedKey(token)))?.user.id).toBe(user.id)

      const session = { user: { name: "Row User", email: user.email, image: null }, expires: expect.any(String) }
      expect(await client.session()).toEqual(session)
      expect(await (await client.get("/api/me")).json()).toEqual(session)

      await client.postForm("/auth/signout", { csrfToken: await client.csrfToken() })
      expect(await adapter.getSessionAndUser(storedKey(token))).toBeNull()
      expect(await (await client.get("/api/me")).json()).toBeNull()
    })
  })
})

describe("magic link by SMTP through Express", () => {
  const smtp = smtpForSuite()
  const emailConfig = () => smtp.emailConfig("Gatehouse <auth@app.test>")


  describe.each(expressVersions)("on $name", (version) => {
    it("mails a link on the app's origin; following it signs in and lands on the callback URL", async () => {
      const { client, origin } = await started(version, emailConfig())
      const email = `magic-${version.major}-${crypto.randomUUID().slice(0, 8)}@example.com`
      const response = await client.postForm("/auth/signin/nodemailer", {
        email,
        csrfToken: await client.csrfToken(),
        callbackUrl: `${origin}/dashboard`,
      })
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=email`)

      const message = await smtp.server.waitForMessage((candidate) => candidate.to.includes(email))
      const link = /<a href="([^"]+)"/.exec(message.html)![1]!.replaceAll("&amp;", "&")
      expect(link.startsWith(`${origin}/auth/callback/nodemailer?`)).toBe(true)
      expect(message.text).toContain(link)

      const landed = await client.follow(await client.get(link), link)
      expect(landed.urls).toEqual([`${origin}/dashboard`])
      expect(await landed.response.text()).toBe("dashboard")
      expect(await client.session()).toMatchObject({ user: { email } })

      // The link is spent.
      const again = await new HttpClient(origin).openLink(link)
      expect(again.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    })
  })
})

describe.each(expressVersions)("OpenID Connect through $name", (version) => {
  let app: Express
  let listening: Listening
  let idp: OidcServer

  beforeAll(async () => {
    // The redirect URI must be registered before the provider starts, so the app listens first.
    app = version.express()
    listening = await listen(app, { untracked: true })
    idp = await startOidcServer({
      clients: [{ client_id: "express-app", client_secret: "express-secret", redirect_uris: [`${listening.origin}/auth/callback/idp`] }],
      accounts: { alice: { email: "alice@example.com", email_verified: true, name: "Alice Liddell" } },
    })
  })
  afterAll(async () => {
    await listening?.close()
    await idp?.stop()
  })

  it("signs in through discovery, the provider's login and consent, and the callback route", async () => {
    const provider: OAuthConfig = { id: "idp", name: "IdP", type: "oidc", issuer: idp.issuer, clientId: "express-app", clientSecret: "express-secret" }
    const adapter = MemoryAdapter()
    authApp(version, { secret, logger: recordingLogger().logger, adapter, providers: [provider] }, app)
    const { origin } = listening
    const client = new HttpClient(origin)

    const start = await client.postForm("/auth/signin/idp?login_hint=alice", { csrfToken: await client.csrfToken(), callbackUrl: `${origin}/dashboard` })
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.origin).toBe(idp.issuer)
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback/idp`)
    expect(authorize.searchParams.get("login_hint")).toBe("alice")

    const { response, urls } = await client.follow(start, "/auth/signin/idp")
    expect(urls.some((url) => url.startsWith(`${origin}/auth/callback/idp?`))).toBe(true)
    expect(urls.at(-1)).toBe(`${origin}/dashboard`)
    expect(await response.text()).toBe("dashboard")
    expect(await client.session()).toEqual({ user: { name: "Alice Liddell", email: "alice@example.com", image: null }, expires: expect.any(String) })
    expect(await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })).toMatchObject({ email: "alice@example.com" })
    // The check cookies are gone.
    expect(client.cookieNames().filter((name) => /pkce|state|nonce/.test(name))).toEqual([])
  })
})

describe.each(expressVersions)("OAuth 2 (GitHub-shaped) through $name", (version) => {
  let app: Express
  let listening: Listening
  let github: GitHubLikeServer

  beforeAll(async () => {
    app = version.express()
    listening = await listen(app, { untracked: true })
    github = await startGitHubLikeServer({ clientId: "gh-client", clientSecret: "gh-secret", redirectUris: [`${listening.origin}/auth/callback/github`] })
  })
  afterAll(async () => {
    await listening?.close()
    await github?.stop()
  })

  it("signs in with the catalogue's GitHub provider, its id, secret and the auth secret from the environment", async () => {
    vi.stubEnv("AUTH_SECRET", secret)
    vi.stubEnv("AUTH_GITHUB_ID", "gh-client")
    vi.stubEnv("AUTH_GITHUB_SECRET", "gh-secret")
    const config: ServerAuthConfig = {
      logger: recordingLogger().logger,
      providers: [(options: ProviderEnvOptions) => GitHub({ ...options, enterprise: { baseUrl: github.url } })],
    }
    authApp(version, config, app)
    const { origin } = listening
    const client = new HttpClient(origin)
    const mark = github.requests.length

    const start = await client.postForm("/auth/signin/github", { csrfToken: await client.csrfToken(), callbackUrl: `${origin}/dashboard` })
    expect(start.headers.get("location")).toMatch(new RegExp(`^${github.url}/login/oauth/authorize\\?`))
    const { response, urls } = await client.follow(start, "/auth/signin/github")
    expect(urls.at(-1)).toBe(`${origin}/dashboard`)
    expect(await response.text()).toBe("dashboard")
    const token = github.requests.slice(mark).find((request) => request.path === "/login/oauth/access_token")
    // HTTP Basic with each part form-urlencoded (RFC 6749 §2.3.1).
    const basic = Buffer.from(token!.headers.authorization!.slice("Basic ".length), "base64").toString()
    expect(basic.split(":").map(decodeURIComponent)).toEqual(["gh-client", "gh-secret"])
    expect(await client.session()).toMatchObject({ user: { name: "The Octocat", email: "octocat@users.example" } })
    // The app's config object was left as it was.
    expect(config.secret).toBeUndefined()
    expect(typeof config.providers[0]).toBe("function")
  })
})

describe.each(expressVersions)("passkeys through $name", (version) => {
  interface Options {
    action: "register" | "authenticate"
    options: { challenge: string; rp?: { id: string } }
  }

  async function options(client: HttpClient, query: Record<string, string>): Promise<Options> {
    const response = await client.get(`/auth/webauthn-options/passkey?${new URLSearchParams(query)}`)
    expect(response.status).toBe(200)
    return (await response.json()) as Options
  }

  const answer = (client: HttpClient, action: string, credential: CredentialJSON) =>
    client.postForm("/auth/callback/passkey", { action, data: JSON.stringify(credential) })

  it("registers a passkey for a new user and signs back in with it, relying party = the app's host", async () => {
    const adapter = MemoryAdapter()
    const { client, origin } = await started(version, {
      secret,
      logger: recordingLogger().logger,
      adapter,
      experimental: { enableWebAuthn: true },
      providers: [Passkey()],
    })
    const email = `passkey-${version.major}@example.com`
    const authenticator = new SoftwareAuthenticator()
    const ceremony = { origin, rpId: "127.0.0.1" }

    const register = await options(client, { action: "register", email })
    expect(register.action).toBe("register")
    expect(register.options.rp?.id).toBe("127.0.0.1")
    const registered = await answer(client, "register", authenticator.register({ challenge: register.options.challenge, ...ceremony }))
    expect(registered.headers.get("location")).toBe(origin)
    expect(await client.session()).toMatchObject({ user: { email } })

    const later = new HttpClient(origin)
    const login = await options(later, {})
    expect(login.action).toBe("authenticate")
    const signedIn = await answer(later, "authenticate", authenticator.authenticate({ challenge: login.options.challenge, ...ceremony }))
    expect(signedIn.headers.get("location")).toBe(origin)
    expect(await (await later.get("/api/me")).json()).toMatchObject({ user: { email } })
  })
})
