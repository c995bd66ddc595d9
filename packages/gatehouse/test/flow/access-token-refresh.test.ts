/**
 * Access-token refresh (`refreshAccessToken` on a provider) end to end: a user signs in against a
 * real OAuth server that issues expiring, rotating refresh tokens (GitHub-App style) or a real
 * OpenID Provider, and later session reads swap the refresh token for new tokens. Under JWT
 * sessions the tokens live in the session cookie; under database sessions in the account row, on
 * every stored adapter.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import type { AdapterAccount } from "../../src/adapters/index.js"
import { Auth } from "../../src/core/handler.js"
import { decode } from "../../src/jwt/index.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { AuthConfig, Profile } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startGitHubLikeServer, type GitHubLikeServer, type GitHubUser } from "../support/github-like-server.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { authApp, expectLandedOn, SESSION_COOKIE, sessionOf, signIn } from "./end-to-end-helpers.js"
import { recordingLogger, secret } from "./flow-helpers.js"
import { storedAdapters, type FlowAdapter } from "./stored-adapters.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`
/** Tokens this short-lived count as expired at once (a minute's margin); these last. */
const EXPIRING = 30
const LASTING = 3600

let github: GitHubLikeServer

beforeAll(async () => {
  github = await startGitHubLikeServer({
    clientId: "gh-client",
    clientSecret: "gh-secret",
    redirectUris: [`${APP}/auth/callback/github`],
    refreshTokens: true,
  })
})
afterAll(() => github?.stop())
afterEach(() => {
  github.accessTokenTtl = EXPIRING
  github.failures.refuseRefresh = false
})

function githubProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "github",
    name: "GitHub-like",
    type: "oauth",
    clientId: "gh-client",
    clientSecret: "gh-secret",
    authorization: github.authorizeUrl,
    token: github.tokenUrl,
    userinfo: github.userUrl,
    profile: (profile: Profile) => {
      const user = profile as unknown as GitHubUser
      return { id: String(user.id), name: user.name, email: `${user.login}@users.example` }
    },
    refreshAccessToken: true,
    ...overrides,
  }
}

/** The session route shows what the tokens are, as an app would pass the access token on. */
const exposeTokens: NonNullable<AuthConfig["callbacks"]>["session"] = (params) =>
  params.token
    ? { ...params.session, accessToken: params.token.access_token, refreshToken: params.token.refresh_token, expiresAt: params.token.expires_at }
    : params.session

interface TokenSession {
  accessToken?: string
  refreshToken?: string
  expiresAt?: number
  error?: string
  user?: { email?: string }
}

const refreshGrants = () =>
  github.requests.filter((request) => request.path === "/login/oauth/access_token" && request.body?.get("grant_type") === "refresh_token")

/** One session read with exactly this cookie header, as concurrent tabs would send it. */
async function readSessionWith(config: AuthConfig, cookie: string): Promise<{ session: TokenSession; setCookie: string[] }> {
  const response = await Auth(new Request(`${APP}/auth/session`, { headers: { cookie } }), config as Omit<AuthConfig, "raw">)
  return { session: (await response.json()) as TokenSession, setCookie: response.headers.getSetCookie() }
}

function sessionCookieHeader(browser: Browser): string {
  return browser
    .cookies()
    .filter((cookie) => cookie.name.startsWith(SESSION_COOKIE))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join("; ")
}

describe("access-token refresh under JWT sessions", () => {
  function setup(provider = githubProvider()) {
    const log = recordingLogger()
    const config: AuthConfig = { secret, trustHost: true, logger: log.logger, providers: [provider], callbacks: { session: exposeTokens } }
    const browser = new Browser({ app: authApp(config), appOrigin: APP })
    return { config, browser, log }
  }

  it("keeps the tokens in the session token and leaves a fresh access token alone", async () => {
    github.accessTokenTtl = LASTING
    const { browser } = setup()
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const issued = github.issued.at(-1)!
    const grants = refreshGrants().length

    const token = await decode({ token: browser.cookie(SESSION_COOKIE)!, secret, salt: SESSION_COOKIE })
    expect(token).toMatchObject({ provider: "github", access_token: issued.accessToken, refresh_token: issued.refreshToken })
    expect((token!.expires_at as number) - Date.now() / 1000).toBeGreaterThan(LASTING - 60)

    const session = (await sessionOf(browser)) as TokenSession
    expect(session.accessToken).toBe(issued.accessToken)
    expect(session.error).toBeUndefined()
    expect(refreshGrants()).toHaveLength(grants)
  })

  it("refreshes an expiring access token, keeps the rotated refresh token, and then stops", async () => {
    const { browser } = setup()
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const first = github.issued.at(-1)!
    const grants = refreshGrants().length
    github.accessTokenTtl = LASTING

    const refreshed = (await sessionOf(browser)) as TokenSession
    const second = github.issued.at(-1)!
    expect(refreshGrants()).toHaveLength(grants + 1)
    expect(refreshGrants().at(-1)!.body!.get("refresh_token")).toBe(first.refreshToken)
    expect(second.accessToken).not.toBe(first.accessToken)
    expect(refreshed).toMatchObject({ accessToken: second.accessToken, refreshToken: second.refreshToken })
    expect(refreshed.expiresAt! - Date.now() / 1000).toBeGreaterThan(LASTING - 60)
    expect(refreshed.error).toBeUndefined()
    expect(refreshed.user?.email).toBe("octocat@users.example")

    // The cookie now holds the new tokens: the next read has nothing to do.
    expect((await sessionOf(browser)) as TokenSession).toMatchObject({ accessToken: second.accessToken })
    expect(refreshGrants()).toHaveLength(grants + 1)
  })

  it("marks the session with RefreshAccessTokenError when the provider refuses, stops asking, and a new sign-in clears it", async () => {
    const { browser, log } = setup()
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const grants = refreshGrants().length
    github.failures.refuseRefresh = true

    const refused = (await sessionOf(browser)) as TokenSession
    expect(refused.error).toBe("RefreshAccessTokenError")
    expect(refused.user?.email).toBe("octocat@users.example")
    expect(refreshGrants()).toHaveLength(grants + 1)
    const logged = log.lines.find((line) => line.code === "RefreshAccessTokenError")
    expect(logged?.level).toBe("error")
    expect(String((logged?.message[0] as Error).message)).toContain("bad_refresh_token")

    // A spent refresh token is not offered again on every read.
    expect(((await sessionOf(browser)) as TokenSession).error).toBe("RefreshAccessTokenError")
    expect(refreshGrants()).toHaveLength(grants + 1)

    github.failures.refuseRefresh = false
    github.accessTokenTtl = LASTING
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const again = (await sessionOf(browser)) as TokenSession
    expect(again.error).toBeUndefined()
    expect(again.accessToken).toBe(github.issued.at(-1)!.accessToken)
  })

  it("refreshes once for many concurrent reads, and hands the result to a read still holding the old cookie", async () => {
    const { browser, config } = setup()
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const cookie = sessionCookieHeader(browser)
    const grants = refreshGrants().length
    github.accessTokenTtl = LASTING

    const reads = await Promise.all(Array.from({ length: 8 }, () => readSessionWith(config, cookie)))
    expect(refreshGrants()).toHaveLength(grants + 1)
    const newest = github.issued.at(-1)!
    for (const { session, setCookie } of reads) {
      expect(session).toMatchObject({ accessToken: newest.accessToken, refreshToken: newest.refreshToken })
      expect(session.error).toBeUndefined()
      expect(setCookie.some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true)
    }

    // A tab whose request left before the new cookie arrived: the rotated-out token is not re-sent.
    const late = await readSessionWith(config, cookie)
    expect(late.session).toMatchObject({ accessToken: newest.accessToken })
    expect(refreshGrants()).toHaveLength(grants + 1)
  })

  it("keeps the session unmarked when the provider cannot be reached, and tries again on the next read", async () => {
    let down = true
    const provider = githubProvider({
      fetch: (input, init) => {
        const url = input instanceof Request ? input.url : String(input)
        if (down && url === github.tokenUrl) return Promise.reject(new TypeError("fetch failed: ECONNREFUSED"))
        return fetch(input, init)
      },
    })
    const { browser, log } = setup(provider)
    down = false
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const first = github.issued.at(-1)!
    down = true

    const during = (await sessionOf(browser)) as TokenSession
    expect(during.error).toBeUndefined()
    expect(during.accessToken).toBe(first.accessToken)
    expect(log.lines.some((line) => line.code === "RefreshAccessTokenError" && /tries again/.test((line.message[0] as Error).message))).toBe(true)

    // Back up, but not asked again at once: one outage must not turn every read into a retry.
    down = false
    github.accessTokenTtl = LASTING
    const grants = refreshGrants().length
    expect(((await sessionOf(browser)) as TokenSession).accessToken).toBe(first.accessToken)
    expect(refreshGrants()).toHaveLength(grants)

    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      vi.setSystemTime(Date.now() + 31_000)
      const after = (await sessionOf(browser)) as TokenSession
      expect(refreshGrants()).toHaveLength(grants + 1)
      expect(after.accessToken).toBe(github.issued.at(-1)!.accessToken)
      expect(after.accessToken).not.toBe(first.accessToken)
      expect(after.error).toBeUndefined()
    } finally {
      vi.useRealTimers()
    }
  })

  it("does not mark the session for errors that say nothing about the refresh token", async () => {
    let answer: Response | undefined
    const provider = githubProvider({
      fetch: (input, init) => {
        const url = input instanceof Request ? input.url : String(input)
        if (answer && url === github.tokenUrl) return Promise.resolve(answer.clone())
        return fetch(input, init)
      },
    })
    const { browser, log } = setup(provider)
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    // A client secret rotated on one side only, then a rate limit: the refresh token is still good.
    answer = Response.json({ error: "invalid_client", error_description: "Client authentication failed" }, { status: 401 })
    const session = (await sessionOf(browser)) as TokenSession
    expect(session.error).toBeUndefined()
    const logged = log.lines.find((line) => line.code === "RefreshAccessTokenError")
    expect((logged?.message[0] as Error).message).toMatch(/tries again/)
  })

  it("keeps tokens out of the log when the provider's answer cannot be used", async () => {
    const provider = githubProvider({
      fetch: async (input, init) => {
        const url = input instanceof Request ? input.url : String(input)
        const response = await fetch(input, init)
        if (url !== github.tokenUrl || !String(init?.body ?? "").includes("grant_type=refresh_token")) return response
        // A token response oauth4webapi rejects (no token_type), carrying a live refresh token.
        const { token_type: _type, ...body } = (await response.json()) as Record<string, unknown>
        return Response.json(body)
      },
    })
    const { browser, log } = setup(provider)
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    expect(((await sessionOf(browser)) as TokenSession).error).toBeUndefined()
    const newest = github.issued.at(-1)!
    const logged = log.lines.filter((line) => line.code === "RefreshAccessTokenError")
    expect(logged).toHaveLength(1)
    const text = JSON.stringify(logged, (_key, value: unknown) =>
      value instanceof Error ? { ...value, message: value.message, cause: value.cause } : value,
    )
    expect(text).toContain("token_type")
    expect(text).not.toContain(newest.refreshToken!)
    expect(text).not.toContain(newest.accessToken)
  })

  it("leaves providers without the option untouched: no tokens in the session token", async () => {
    const { browser } = setup(githubProvider({ refreshAccessToken: false }))
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const token = await decode({ token: browser.cookie(SESSION_COOKIE)!, secret, salt: SESSION_COOKIE })
    expect(token).not.toHaveProperty("access_token")
    expect(token).not.toHaveProperty("refresh_token")
    expect(token).not.toHaveProperty("provider")
  })
})

describe.each(storedAdapters)("access-token refresh under database sessions ($name)", (store) => {
  let adapter: FlowAdapter
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ adapter, close } = await store.open())
  })
  afterAll(() => close?.())

  function setup() {
    const log = recordingLogger()
    const config: AuthConfig = { secret, trustHost: true, logger: log.logger, adapter, providers: [githubProvider()] }
    const browser = new Browser({ app: authApp(config), appOrigin: APP })
    return { config, browser, log }
  }

  async function storedAccount(): Promise<AdapterAccount> {
    const account = await adapter.getAccount!(String(github.user.id), "github")
    expect(account).not.toBeNull()
    return account!
  }

  it("updates the account row with the new tokens, once for many concurrent reads", async () => {
    const { browser, config } = setup()
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const before = await storedAccount()
    expect(before.refresh_token).toBe(github.issued.at(-1)!.refreshToken)
    const cookie = sessionCookieHeader(browser)
    const grants = refreshGrants().length
    github.accessTokenTtl = LASTING

    const reads = await Promise.all(Array.from({ length: 6 }, () => readSessionWith(config, cookie)))
    expect(refreshGrants()).toHaveLength(grants + 1)
    for (const { session } of reads) {
      expect(session.user?.email).toBe("octocat@users.example")
      expect(session.error).toBeUndefined()
    }
    const newest = github.issued.at(-1)!
    const after = await storedAccount()
    expect(after).toMatchObject({ access_token: newest.accessToken, refresh_token: newest.refreshToken, userId: before.userId })
    expect(after.expires_at! - Date.now() / 1000).toBeGreaterThan(LASTING - 60)

    // The row now holds a lasting token.
    await sessionOf(browser)
    expect(refreshGrants()).toHaveLength(grants + 1)
  })

  it("marks the session when the provider refuses, and a new sign-in stores new tokens and clears it", async () => {
    const { browser, log } = setup()
    github.accessTokenTtl = EXPIRING
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    github.failures.refuseRefresh = true

    const refused = (await sessionOf(browser)) as TokenSession
    expect(refused.error).toBe("RefreshAccessTokenError")
    expect(refused.user?.email).toBe("octocat@users.example")
    expect(log.lines.some((line) => line.code === "RefreshAccessTokenError")).toBe(true)

    github.failures.refuseRefresh = false
    github.accessTokenTtl = LASTING
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const newest = github.issued.at(-1)!
    expect(await storedAccount()).toMatchObject({ access_token: newest.accessToken, refresh_token: newest.refreshToken })
    expect(((await sessionOf(browser)) as TokenSession).error).toBeUndefined()
  })

  it("refreshes only the signed-in user's accounts, whatever else the adapter lists", async () => {
    const { browser, config } = setup()
    github.accessTokenTtl = LASTING
    expectLandedOn(await signIn(browser, "github"), DASHBOARD)
    const bystander = await adapter.createUser({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@app.test`, emailVerified: null })
    const theirs = { userId: bystander.id, type: "oauth" as const, provider: "github", providerAccountId: `bystander-${crypto.randomUUID()}`, access_token: "theirs", refresh_token: "their-refresh-token", expires_at: Math.floor(Date.now() / 1000) }
    await adapter.linkAccount!(theirs)
    // A buggy or shared custom adapter: the bystander's rows come back with anyone's.
    const list = adapter.listAccountsByUserId!
    const leaky: FlowAdapter = { ...adapter, listAccountsByUserId: async (userId) => [...(await list(userId)), ...(await list(bystander.id))] }
    const grants = refreshGrants().length

    const { session } = await readSessionWith({ ...config, adapter: leaky }, sessionCookieHeader(browser))
    expect(session.user?.email).toBe("octocat@users.example")
    expect(session.error).toBeUndefined()
    expect(refreshGrants()).toHaveLength(grants)
    expect(await adapter.getAccount!(theirs.providerAccountId, "github")).toMatchObject({ access_token: "theirs", refresh_token: "their-refresh-token", userId: bystander.id })
  })
})

describe("access-token refresh with an OpenID Provider", () => {
  let idp: OidcServer
  beforeAll(async () => {
    idp = await startOidcServer({
      clients: [{ client_id: "refresh-client", client_secret: "refresh-secret", redirect_uris: [`${APP}/auth/callback/idp`] }],
      accounts: { alice: { email: "alice@example.com", email_verified: true, name: "Alice Liddell" } },
      // Expiring at once, so the first session read refreshes.
      accessTokenTtl: EXPIRING,
      refreshTokens: "always",
    })
  })
  afterAll(() => idp?.stop())

  it("refreshes through the discovered token endpoint and validates the new ID token", async () => {
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      providers: [
        { id: "idp", name: "IdP", type: "oidc", issuer: idp.issuer, clientId: "refresh-client", clientSecret: "refresh-secret", refreshAccessToken: true },
      ],
      callbacks: { session: exposeTokens },
    }
    const browser = new Browser({ app: authApp(config), appOrigin: APP })
    idp.nextLogin = "alice"
    expectLandedOn(await signIn(browser, "idp"), DASHBOARD)
    const signedIn = await decode({ token: browser.cookie(SESSION_COOKIE)!, secret, salt: SESSION_COOKIE })
    expect(typeof signedIn?.refresh_token).toBe("string")

    const session = (await sessionOf(browser)) as TokenSession
    const grants = idp.requests.filter((request) => request.body?.get?.("grant_type") === "refresh_token")
    expect(grants).toHaveLength(1)
    expect(grants[0]!.body!.get("refresh_token")).toBe(signedIn!.refresh_token)
    expect(session.error).toBeUndefined()
    expect(session.accessToken).toEqual(expect.any(String))
    expect(session.accessToken).not.toBe(signedIn!.access_token)
    expect(session.user?.email).toBe("alice@example.com")
  })
})
