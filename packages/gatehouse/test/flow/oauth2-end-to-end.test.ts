/**
 * Plain OAuth 2 (no OpenID Connect) sign-in end to end: a Browser signs in on an app served by
 * `Auth()` against a real HTTP server that behaves like GitHub (code + PKCE, HTTP Basic client
 * auth, `/user` and `/user/emails`, errors with HTTP 200), first with a provider written out by
 * hand, then with the catalogue's GitHub provider pointed at it as a GitHub Enterprise Server.
 */
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { setEnvDefaults } from "../../src/env.js"
import { GitHub } from "../../src/providers/github.js"
import type { OAuthConfig, ProviderEnvOptions } from "../../src/providers/types.js"
import type { AuthConfig, Profile } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startGitHubLikeServer, type GitHubEmail, type GitHubLikeServer, type GitHubUser, type RecordedRequest } from "../support/github-like-server.js"
import { authApp, expectLandedOn, SESSION_COOKIE, sessionOf, signIn, signInUntilCallback } from "./end-to-end-helpers.js"
import { recordingLogger, secret, storedKey } from "./flow-helpers.js"

const APP = "https://app.test"
const PROXY = "https://proxy.test"
const DASHBOARD = `${APP}/dashboard`
const CALLBACK = `${APP}/auth/callback/github`

let github: GitHubLikeServer

beforeAll(async () => {
  github = await startGitHubLikeServer({
    clientId: "gh-client",
    clientSecret: "gh-secret",
    redirectUris: [CALLBACK, `${PROXY}/auth/callback/github`],
    refreshTokens: true,
  })
})
afterAll(() => github?.stop())

/** A GitHub-shaped provider written out by hand: explicit endpoints and a userinfo hook. */
function handWritten(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "github",
    name: "GitHub-like",
    type: "oauth",
    clientId: "gh-client",
    clientSecret: "gh-secret",
    authorization: { url: github.authorizeUrl, params: { scope: "read:user user:email" } },
    token: github.tokenUrl,
    userinfo: {
      url: github.userUrl,
      // GitHub keeps most users' email private: it is then only in /user/emails.
      async request({ tokens, fetch }) {
        const headers = { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" }
        const user = (await (await fetch(github.userUrl, { headers })).json()) as GitHubUser
        if (user.email === null) {
          const emails = (await (await fetch(github.emailsUrl, { headers })).json()) as GitHubEmail[]
          user.email = emails.find((email) => email.primary && email.verified)?.email ?? null
        }
        return user
      },
    },
    profile: (profile: Profile) => {
      const user = profile as unknown as GitHubUser
      return { id: String(user.id), name: user.name ?? user.login, email: user.email, image: user.avatar_url }
    },
    ...overrides,
  }
}

function config(providers: AuthConfig["providers"], extra: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, logger: recordingLogger().logger, providers, ...extra }
}

const browserFor = (appConfig: AuthConfig) => new Browser({ app: authApp(appConfig), appOrigin: APP })

const requestsSince = (mark: number, path: string): RecordedRequest[] =>
  github.requests.slice(mark).filter((request) => request.path === path)

function authorizationRequest(mark: number): URLSearchParams {
  const request = requestsSince(mark, "/login/oauth/authorize")[0]
  expect(request, "an authorization request reached the server").toBeDefined()
  return new URL(request!.url, github.url).searchParams
}

function tokenRequest(mark: number): RecordedRequest {
  const request = requestsSince(mark, "/login/oauth/access_token")[0]
  expect(request, "a token request reached the server").toBeDefined()
  return request!
}

/** `id:secret` of an HTTP Basic header (each part is form-urlencoded, RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): string {
  expect(header).toMatch(/^Basic /)
  const decoded = Buffer.from(header!.slice("Basic ".length), "base64").toString("utf8")
  const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "))
  const colon = decoded.indexOf(":")
  return `${formDecode(decoded.slice(0, colon))}:${formDecode(decoded.slice(colon + 1))}`
}

/** Runs `body` with `/user` answering this email, then puts the private (null) email back. */
async function withPublicEmail<T>(email: string, body: () => Promise<T>): Promise<T> {
  github.user.email = email
  try {
    return await body()
  } finally {
    github.user.email = null
  }
}

describe("OAuth 2 sign-in with explicit endpoints and a userinfo hook", () => {
  it("signs in with the email from /user/emails when /user has none", async () => {
    const mark = github.requests.length
    const browser = browserFor(config([handWritten()]))

    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    expect(requestsSince(mark, "/user")).toHaveLength(1)
    expect(requestsSince(mark, "/user/emails")).toHaveLength(1)
    expect(await sessionOf(browser)).toEqual({
      user: { name: "The Octocat", email: "octocat@users.example", image: "https://avatars.example/u/1001" },
      expires: expect.any(String),
    })
  })

  it("sends the scope and a PKCE challenge, and redeems the code with the verifier and HTTP Basic client auth", async () => {
    const mark = github.requests.length
    const browser = browserFor(config([handWritten()]))
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)

    const authorize = authorizationRequest(mark)
    expect(Object.fromEntries(authorize)).toMatchObject({
      response_type: "code",
      client_id: "gh-client",
      redirect_uri: CALLBACK,
      scope: "read:user user:email",
      code_challenge_method: "S256",
    })
    const token = tokenRequest(mark)
    const verifier = token.body?.get("code_verifier")
    expect(verifier).toMatch(/^[\w-]{43}$/)
    expect(createHash("sha256").update(verifier!).digest("base64url")).toBe(authorize.get("code_challenge"))
    expect(token.body?.get("grant_type")).toBe("authorization_code")
    expect(token.body?.get("redirect_uri")).toBe(CALLBACK)
    expect(token.body?.has("client_secret")).toBe(false)
    expect(basicCredentials(token.headers.authorization)).toBe("gh-client:gh-secret")
    // The hook's requests carry the access token the server issued for this code.
    const issued = github.issued.at(-1)!.accessToken
    expect(requestsSince(mark, "/user")[0]?.headers.authorization).toBe(`Bearer ${issued}`)
  })

  it("uses the public email of /user without asking /user/emails", async () => {
    const mark = github.requests.length
    const browser = browserFor(config([handWritten()]))
    await withPublicEmail("Public@Octo.example", async () => expectLandedOn(await signIn(browser, "github"), DASHBOARD))
    expect(requestsSince(mark, "/user/emails")).toHaveLength(0)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "public@octo.example" } })
  })

  it("stores the account under database sessions with the string id, refresh token and expires_at", async () => {
    const adapter = MemoryAdapter()
    const browser = browserFor(config([handWritten()], { adapter }))
    const before = Math.floor(Date.now() / 1000)
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const after = Math.floor(Date.now() / 1000)

    const user = await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" })
    expect(user).toMatchObject({ name: "The Octocat", email: "octocat@users.example" })
    const account = await adapter.getAccount("1001", "github")
    const issued = github.issued.at(-1)!
    expect(account).toMatchObject({
      type: "oauth",
      userId: user!.id,
      token_type: "bearer",
      scope: "read:user,user:email",
      access_token: issued.accessToken,
      refresh_token: issued.refreshToken,
    })
    expect(account!.expires_at).toBeGreaterThanOrEqual(before + 28800)
    expect(account!.expires_at).toBeLessThanOrEqual(after + 28800)
    expect((await adapter.getSessionAndUser(storedKey(browser.cookie(SESSION_COOKIE))))?.user.id).toBe(user!.id)
  })

  it("gives callbacks and events the whole token response, while the row keeps what account() picks", async () => {
    const adapter = MemoryAdapter()
    const seen: Record<string, unknown>[] = []
    const browser = browserFor(
      config([handWritten({ account: (tokens) => ({ access_token: tokens.access_token, token_type: tokens.token_type }) })], {
        adapter,
        callbacks: {
          signIn: ({ account }) => (seen.push({ from: "signIn", ...account }), true),
          jwt: ({ token, account }) => (account && seen.push({ from: "jwt", ...account }), token),
        },
        events: { linkAccount: ({ account }) => void seen.push({ from: "linkAccount", ...account }) },
        session: { strategy: "jwt" },
      }),
    )
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const issued = github.issued.at(-1)!
    const whole = { access_token: issued.accessToken, refresh_token: issued.refreshToken, expires_in: 28800, refresh_token_expires_in: 15897600 }
    expect(seen.find((entry) => entry.from === "signIn")).toMatchObject({ ...whole, provider: "github", providerAccountId: "1001" })
    expect(seen.find((entry) => entry.from === "jwt")).toMatchObject(whole)
    const stored = await adapter.getAccount("1001", "github")
    expect(stored).toMatchObject({ access_token: issued.accessToken, token_type: "bearer", provider: "github", type: "oauth" })
    expect(stored).not.toHaveProperty("refresh_token")
    expect(seen.find((entry) => entry.from === "linkAccount")).not.toHaveProperty("refresh_token")
  })

  it("shows the server's refusal on the sign-in page as OAuthCallbackError", async () => {
    const browser = browserFor(config([handWritten()]))
    github.failures.denyNextAuthorization = true
    const visit = await signIn(browser, "github")
    expect(github.failures.denyNextAuthorization).toBe(false)
    expect(visit.url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("shows a replayed code, refused with HTTP 200 bad_verification_code as GitHub does, on the sign-in page as OAuthCallbackError", async () => {
    const { logger, lines } = recordingLogger()
    const browser = browserFor(config([handWritten()], { logger }))
    const first = await signInUntilCallback(browser, "github")
    expectLandedOn(await browser.get(first), DASHBOARD)
    const session = browser.cookie(SESSION_COOKIE)

    // A new flow in the same browser, coming back with the first flow's spent code.
    const second = new URL(await signInUntilCallback(browser, "github"))
    second.searchParams.set("code", new URL(first).searchParams.get("code")!)
    const mark = github.requests.length
    const replay = await browser.get(second.href)
    expect(replay.hops[0]!.status).toBe(302)
    expect(replay.url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    expect(requestsSince(mark, "/login/oauth/access_token")).toHaveLength(1)
    expect(lines.map((line) => line.code)).toContain("OAuthCallbackError")
    expect(lines.map((line) => line.code)).not.toContain("CallbackRouteError")
    expect(browser.cookie(SESSION_COOKIE)).toBe(session)
  })

  it("shows a code redeemed with another flow's PKCE verifier (invalid_grant) on the sign-in page as OAuthCallbackError", async () => {
    const browser = browserFor(config([handWritten()]))
    const first = new URL(await signInUntilCallback(browser, "github"))
    // A second flow replaces the first one's cookies; its callback comes back with the first code.
    const second = new URL(await signInUntilCallback(browser, "github"))
    second.searchParams.set("code", first.searchParams.get("code")!)
    const mark = github.requests.length
    expect((await browser.get(second.href)).url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    const token = tokenRequest(mark)
    expect(token.body?.get("code")).toBe(first.searchParams.get("code"))
    expect(await sessionOf(browser)).toBeNull()
  })

  it("fails with Configuration on a token error sent with HTTP 200, as GitHub does", async () => {
    const { logger, lines } = recordingLogger()
    const mark = github.requests.length
    const browser = browserFor(config([handWritten({ clientSecret: "wrong secret" })], { logger }))

    expect((await signIn(browser, "github")).url).toBe(`${APP}/auth/error?error=Configuration`)
    expect(tokenRequest(mark)).toBeDefined()
    expect(requestsSince(mark, "/user")).toHaveLength(0)
    expect(lines.map((line) => line.code)).toContain("CallbackRouteError")
    expect(await sessionOf(browser)).toBeNull()
  })

})

describe("OAuth 2 sign-in through a redirect proxy", () => {
  const redirectProxyUrl = `${PROXY}/auth`
  /** app.test, where sign-ins start, and proxy.test, whose callback is the one registered. */
  const proxiedBrowser = () =>
    new Browser({
      app: authApp(config([handWritten()], { redirectProxyUrl })),
      appOrigin: APP,
      origins: { [PROXY]: authApp(config([handWritten()], { redirectProxyUrl })) },
    })

  it("goes round the proxy: the server returns to the proxy, which forwards to the app", async () => {
    const browser = proxiedBrowser()
    const mark = github.requests.length

    const visit = await signIn(browser, "github")
    expectLandedOn(visit, DASHBOARD)
    expect(authorizationRequest(mark).get("redirect_uri")).toBe(`${PROXY}/auth/callback/github`)
    expect(visit.hops.map((hop) => `${hop.status} ${new URL(hop.url).origin}${new URL(hop.url).pathname}`)).toEqual([
      `302 ${APP}/auth/signin/github`,
      `302 ${github.url}/login/oauth/authorize`,
      `302 ${PROXY}/auth/callback/github`,
      `302 ${APP}/auth/callback/github`,
      `200 ${APP}/dashboard`,
    ])
    expect(tokenRequest(mark).body?.get("redirect_uri")).toBe(`${PROXY}/auth/callback/github`)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "octocat@users.example" } })
    expect(browser.cookie(SESSION_COOKIE, PROXY)).toBeUndefined()
  })

  it("forwards the server's refusal to the app, which shows it on its sign-in page", async () => {
    const browser = proxiedBrowser()
    github.failures.denyNextAuthorization = true
    const visit = await signIn(browser, "github")
    expect(github.failures.denyNextAuthorization).toBe(false)
    expect(visit.hops.some((hop) => hop.url.startsWith(`${PROXY}/auth/callback/github?error=access_denied`))).toBe(true)
    expect(visit.url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("signs in on the proxy itself without forwarding", async () => {
    const browser = proxiedBrowser()
    const visit = await signIn(browser, "github", { origin: PROXY })
    expectLandedOn(visit, `${PROXY}/dashboard`)
    expect(visit.hops.some((hop) => hop.url.startsWith(`${APP}/`))).toBe(false)
    expect(await sessionOf(browser, PROXY)).toMatchObject({ user: { email: "octocat@users.example" } })
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined()
  })
})

describe("the catalogue's GitHub provider, pointed at the server as GitHub Enterprise", () => {
  const enterprise = () => ({ enterprise: { baseUrl: github.url } })

  it("signs in through /login/oauth and the /api/v3 user endpoints, with the email from /user/emails", async () => {
    const mark = github.requests.length
    const adapter = MemoryAdapter()
    const browser = browserFor(config([GitHub({ clientId: "gh-client", clientSecret: "gh-secret", ...enterprise() })], { adapter }))

    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    expect(authorizationRequest(mark).get("scope")).toBe("read:user user:email")
    expect(basicCredentials(tokenRequest(mark).headers.authorization)).toBe("gh-client:gh-secret")
    expect(tokenRequest(mark).body?.get("code_verifier")).toMatch(/^[\w-]{43}$/)
    expect(requestsSince(mark, "/api/v3/user")).toHaveLength(1)
    expect(requestsSince(mark, "/api/v3/user/emails")).toHaveLength(1)
    expect(requestsSince(mark, "/api/v3/user")[0]?.headers["user-agent"]).toBeTruthy()

    expect(await sessionOf(browser)).toEqual({
      user: { name: "The Octocat", email: "octocat@users.example", image: "https://avatars.example/u/1001" },
      expires: expect.any(String),
    })
    expect(await adapter.getAccount("1001", "github")).toMatchObject({ type: "oauth", token_type: "bearer" })
  })

  it("keeps a public email from /user, asking /user/emails only whether it is verified", async () => {
    const mark = github.requests.length
    const browser = browserFor(config([GitHub({ clientId: "gh-client", clientSecret: "gh-secret", ...enterprise() })]))
    await withPublicEmail("octo@public.example", async () => expectLandedOn(await signIn(browser, "github"), DASHBOARD))
    expect(requestsSince(mark, "/api/v3/user/emails")).toHaveLength(1)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "octo@public.example" } })
  })

  it("signs in with AUTH_GITHUB_ID and AUTH_GITHUB_SECRET filled in by setEnvDefaults", async () => {
    const appConfig: AuthConfig = {
      providers: [(options: ProviderEnvOptions) => GitHub({ ...options, ...enterprise() })],
      trustHost: true,
      logger: recordingLogger().logger,
    }
    setEnvDefaults({ AUTH_SECRET: secret, AUTH_GITHUB_ID: "gh-client", AUTH_GITHUB_SECRET: "gh-secret" }, appConfig)
    const mark = github.requests.length
    const browser = browserFor(appConfig)

    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    expect(authorizationRequest(mark).get("client_id")).toBe("gh-client")
    expect(basicCredentials(tokenRequest(mark).headers.authorization)).toBe("gh-client:gh-secret")
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "The Octocat" } })
  })
})
