/**
 * Proves the end-to-end test servers and the Browser work, before any Gatehouse code uses them:
 * full authorization-code + PKCE flows driven by `oauth4webapi` directly (a certified RP
 * library), and every failure switch.
 */
import { createLocalJWKSet, jwtVerify } from "jose"
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Browser, type Visit } from "./browser.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "./github-like-server.js"
import { startOidcServer, type OidcServer } from "./oidc-server.js"

const appOrigin = "https://app.test"
const redirectUri = `${appOrigin}/callback`
/** Both servers are plain http on loopback. */
const insecure = { [oauth.allowInsecureRequests]: true } as const

/** The stand-in app: its redirect_uri just answers 200, the test reads the hops. */
const app = async (request: Request) => new Response(`reached ${new URL(request.url).pathname}`)
const newBrowser = () => new Browser({ app, appOrigin })

describe("OIDC server (oidc-provider) with oauth4webapi", () => {
  let server: OidcServer
  let as: oauth.AuthorizationServer
  const basicClient: oauth.Client = { client_id: "basic-client" }
  const postClient: oauth.Client = { client_id: "post-client" }
  const publicClient: oauth.Client = { client_id: "public-client", token_endpoint_auth_method: "none" }

  beforeAll(async () => {
    server = await startOidcServer({
      clients: [
        { client_id: "basic-client", client_secret: "basic-secret", redirect_uris: [redirectUri] },
        { client_id: "post-client", client_secret: "post-secret", redirect_uris: [redirectUri], token_endpoint_auth_method: "client_secret_post" },
        { client_id: "public-client", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" },
      ],
      accounts: {
        alice: { email: "alice@example.com", email_verified: true, name: "Alice", picture: "https://img.example/alice.png" },
        bob: { email: "bob@example.com", email_verified: false, name: "Bob" },
      },
    })
    const issuer = new URL(server.issuer)
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure))
  })
  afterAll(() => server.stop())

  /** Starts an authorization in `browser`, follows it to the redirect_uri, returns the checks used. */
  async function authorize(
    browser: Browser,
    client: oauth.Client,
    extra: Record<string, string> = {},
    { pkce = true }: { pkce?: boolean } = {},
  ) {
    const state = oauth.generateRandomState()
    const nonce = oauth.generateRandomNonce()
    const verifier = oauth.generateRandomCodeVerifier()
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid profile email",
      state,
      nonce,
      ...(pkce ? { code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" } : {}),
      ...extra,
    }).toString()
    const visit = await browser.get(url.href, { from: `${appOrigin}/signin` })
    return { visit, state, nonce, verifier }
  }

  async function exchange(client: oauth.Client, auth: oauth.ClientAuth, visit: Visit, state: string, verifier: string) {
    const params = oauth.validateAuthResponse(as, client, new URL(visit.url), state)
    return oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure)
  }

  it("runs code + PKCE through the automated login and consent, then userinfo and a rotating refresh", async () => {
    const browser = newBrowser()
    const { visit, state, nonce, verifier } = await authorize(browser, basicClient, { scope: "openid profile email offline_access", prompt: "consent" })

    // /auth -> /interaction (login) -> /auth/:uid -> /interaction (consent) -> /auth/:uid -> redirect_uri
    const paths = visit.hops.map((h) => new URL(h.url).pathname)
    expect(paths[0]).toBe("/auth")
    expect(paths.filter((p) => p.startsWith("/interaction/"))).toHaveLength(2)
    expect(visit.url.startsWith(`${redirectUri}?`)).toBe(true)
    const callback = new URL(visit.url).searchParams
    expect(callback.get("state")).toBe(state)
    expect(callback.get("iss")).toBe(server.issuer)
    expect(callback.get("code")).toBeTruthy()
    expect(visit.status).toBe(200)

    const auth = oauth.ClientSecretBasic("basic-secret")
    const response = await exchange(basicClient, auth, visit, state, verifier)
    const tokens = await oauth.processAuthorizationCodeResponse(as, basicClient, response, { expectedNonce: nonce, requireIdToken: true })
    await oauth.validateApplicationLevelSignature(as, response, insecure)
    const claims = oauth.getValidatedIdTokenClaims(tokens)!
    expect(claims).toMatchObject({ sub: "alice", iss: server.issuer, aud: "basic-client", nonce, email: "alice@example.com", name: "Alice", picture: "https://img.example/alice.png" })
    expect(tokens.token_type.toLowerCase()).toBe("bearer")
    expect(tokens.refresh_token).toBeTruthy()
    expect(server.requests.find((r) => r.path === "/token")?.headers.authorization).toMatch(/^Basic /)

    const userinfo = await oauth.processUserInfoResponse(
      as,
      basicClient,
      "alice",
      await oauth.userInfoRequest(as, basicClient, tokens.access_token, insecure),
    )
    expect(userinfo).toMatchObject({ sub: "alice", email: "alice@example.com", email_verified: true })

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      basicClient,
      await oauth.refreshTokenGrantRequest(as, basicClient, auth, tokens.refresh_token!, insecure),
    )
    expect(refreshed.access_token).not.toBe(tokens.access_token)
    expect(refreshed.refresh_token).toBeTruthy()
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe("alice")

    // Rotation: the old refresh token is spent.
    const reuse = oauth.processRefreshTokenResponse(
      as,
      basicClient,
      await oauth.refreshTokenGrantRequest(as, basicClient, auth, tokens.refresh_token!, insecure),
    )
    await expect(reuse).rejects.toMatchObject({ error: "invalid_grant" })
  })

  it("reuses the provider session (no interaction) on a second sign-in, and switches account on nextLogin or login_hint", async () => {
    const browser = newBrowser()
    const first = await authorize(browser, basicClient)
    expect(first.visit.url.startsWith(redirectUri)).toBe(true)

    const again = await authorize(browser, basicClient)
    expect(again.visit.hops.some((h) => h.url.includes("/interaction/"))).toBe(false)

    server.nextLogin = "bob"
    const asBob = await authorize(browser, basicClient)
    const bobTokens = await oauth.processAuthorizationCodeResponse(
      as,
      basicClient,
      await exchange(basicClient, oauth.ClientSecretBasic("basic-secret"), asBob.visit, asBob.state, asBob.verifier),
      { expectedNonce: asBob.nonce },
    )
    expect(oauth.getValidatedIdTokenClaims(bobTokens)).toMatchObject({ sub: "bob", email: "bob@example.com", email_verified: false })
    // Switching account ends alice's provider session first, through an auto-submitted logout form.
    expect(asBob.visit.hops.some((h) => h.method === "POST" && h.url === `${server.issuer}/session/end/confirm`)).toBe(true)
    expect(server.nextLogin).toBeUndefined()

    const hinted = await authorize(browser, basicClient, { login_hint: "alice@example.com" })
    const aliceTokens = await oauth.processAuthorizationCodeResponse(
      as,
      basicClient,
      await exchange(basicClient, oauth.ClientSecretBasic("basic-secret"), hinted.visit, hinted.state, hinted.verifier),
      { expectedNonce: hinted.nonce },
    )
    expect(oauth.getValidatedIdTokenClaims(aliceTokens)?.sub).toBe("alice")
  })

  it("authenticates client_secret_post and public (none) clients, and requires PKCE of public clients", async () => {
    const post = await authorize(newBrowser(), postClient)
    const postResponse = await exchange(postClient, oauth.ClientSecretPost("post-secret"), post.visit, post.state, post.verifier)
    await oauth.processAuthorizationCodeResponse(as, postClient, postResponse, { expectedNonce: post.nonce })
    const postRequest = server.requests.filter((r) => r.path === "/token").at(-1)
    expect(postRequest?.body?.get("client_secret")).toBe("post-secret")
    expect(postRequest?.headers.authorization).toBeUndefined()

    const pub = await authorize(newBrowser(), publicClient)
    const pubResponse = await exchange(publicClient, oauth.None(), pub.visit, pub.state, pub.verifier)
    const pubTokens = await oauth.processAuthorizationCodeResponse(as, publicClient, pubResponse, { expectedNonce: pub.nonce })
    expect(oauth.getValidatedIdTokenClaims(pubTokens)?.aud).toBe("public-client")

    const noPkce = await authorize(newBrowser(), publicClient, {}, { pkce: false })
    const error = new URL(noPkce.visit.url).searchParams
    expect(noPkce.visit.url.startsWith(redirectUri)).toBe(true)
    expect(error.get("error")).toBe("invalid_request")
    expect(error.get("error_description")).toMatch(/PKCE/i)
  })

  it("delivers the code by response_mode=form_post, which the Browser submits (by itself, or when told)", async () => {
    const { visit, state, nonce, verifier } = await authorize(newBrowser(), basicClient, { response_mode: "form_post" })
    // Like a real browser, it ran the page's auto-submit: the last hop is the POST to the redirect_uri.
    const page = visit.hops.at(-2)!
    expect(page.url.startsWith(`${server.issuer}/auth/`)).toBe(true)
    expect(page.body).toContain("<form")
    expect(visit.last).toMatchObject({ method: "POST", url: redirectUri, status: 200 })
    const form = visit.last.form!
    expect(form.get("iss")).toBe(server.issuer)
    const params = oauth.validateAuthResponse(as, basicClient, form, state)
    const response = await oauth.authorizationCodeGrantRequest(as, basicClient, oauth.ClientSecretBasic("basic-secret"), params, redirectUri, verifier, insecure)
    const tokens = await oauth.processAuthorizationCodeResponse(as, basicClient, response, { expectedNonce: nonce })
    expect(oauth.getValidatedIdTokenClaims(tokens)?.sub).toBe("alice")

    const manual = new Browser({ app, appOrigin, autoSubmit: false })
    const stopped = await authorize(manual, basicClient, { response_mode: "form_post" })
    expect(stopped.visit.url.startsWith(`${server.issuer}/auth/`)).toBe(true)
    const posted = await manual.submitForm(stopped.visit)
    expect(posted.hops[0]).toMatchObject({ method: "POST", url: redirectUri, status: 200 })
    expect(posted.hops[0]!.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(oauth.validateAuthResponse(as, basicClient, posted.last.form!, stopped.state).get("code")).toBeTruthy()
  })

  describe("failure switches", () => {
    const auth = oauth.ClientSecretBasic("basic-secret")

    it("tokenServerErrors: the token endpoint answers 500 once, and the same code works on retry", async () => {
      const { visit, state, nonce, verifier } = await authorize(newBrowser(), basicClient)
      server.failures.tokenServerErrors = 1
      const failed = await exchange(basicClient, auth, visit, state, verifier)
      expect(failed.status).toBe(500)
      await expect(oauth.processAuthorizationCodeResponse(as, basicClient, failed, { expectedNonce: nonce })).rejects.toThrow(
        /unexpected HTTP status code|not a conform/,
      )
      expect(server.failures.tokenServerErrors).toBe(0)
      const retried = await exchange(basicClient, auth, visit, state, verifier)
      await oauth.processAuthorizationCodeResponse(as, basicClient, retried, { expectedNonce: nonce })
    })

    it("userinfoGarbage: userinfo answers a body that is not JSON", async () => {
      const { visit, state, nonce, verifier } = await authorize(newBrowser(), basicClient)
      const tokens = await oauth.processAuthorizationCodeResponse(as, basicClient, await exchange(basicClient, auth, visit, state, verifier), {
        expectedNonce: nonce,
      })
      server.failures.userinfoGarbage = true
      try {
        const response = await oauth.userInfoRequest(as, basicClient, tokens.access_token, insecure)
        expect(response.status).toBe(200)
        await expect(oauth.processUserInfoResponse(as, basicClient, "alice", response)).rejects.toThrow(/JSON/i)
      } finally {
        server.failures.userinfoGarbage = false
      }
    })

    it("denyNextAuthorization: the redirect_uri gets error=access_denied (even with an SSO session)", async () => {
      const browser = newBrowser()
      await authorize(browser, basicClient) // leaves a provider session behind
      server.failures.denyNextAuthorization = true
      const { visit, state } = await authorize(browser, basicClient)
      expect(server.failures.denyNextAuthorization).toBe(false)
      const params = new URL(visit.url).searchParams
      expect(params.get("code")).toBeNull()
      expect(params.get("state")).toBe(state)
      expect(() => oauth.validateAuthResponse(as, basicClient, new URL(visit.url), state)).toThrow(
        expect.objectContaining({ error: "access_denied" }),
      )
    })

    it.each([
      ["iss", { iss: "https://evil.example" }, /"iss"/],
      ["nonce", { nonce: "not-the-nonce" }, /"nonce"/],
    ])("idTokenClaims: an ID token with a wrong %s, validly signed, is rejected", async (_, claims, message) => {
      const { visit, state, nonce, verifier } = await authorize(newBrowser(), basicClient)
      server.failures.idTokenClaims = claims
      try {
        const response = await exchange(basicClient, auth, visit, state, verifier)
        await expect(oauth.processAuthorizationCodeResponse(as, basicClient, response.clone(), { expectedNonce: nonce })).rejects.toThrow(message)
        // Only the claim is wrong: the signature still verifies against the provider's JWKS.
        const idToken = ((await response.json()) as { id_token: string }).id_token
        const { payload } = await jwtVerify(idToken, createLocalJWKSet(server.jwks))
        expect(payload).toMatchObject(claims)
      } finally {
        server.failures.idTokenClaims = undefined
      }
    })
  })
})

describe("GitHub-like server with oauth4webapi", () => {
  let github: GitHubLikeServer
  let as: oauth.AuthorizationServer
  const client: oauth.Client = { client_id: "gh-client" }
  const auth = oauth.ClientSecretBasic("gh-secret")
  const ghRedirect = `${appOrigin}/auth/callback/github`

  beforeAll(async () => {
    github = await startGitHubLikeServer({ clientId: "gh-client", clientSecret: "gh-secret", redirectUris: [ghRedirect], refreshTokens: true })
    // No discovery at GitHub: metadata is written by hand, as Auth.js's GitHub provider does.
    as = { issuer: `${github.url}/login/oauth`, authorization_endpoint: github.authorizeUrl, token_endpoint: github.tokenUrl }
  })
  afterAll(() => github.stop())

  async function authorize(browser: Browser) {
    const state = oauth.generateRandomState()
    const verifier = oauth.generateRandomCodeVerifier()
    const url = new URL(github.authorizeUrl)
    url.search = new URLSearchParams({
      client_id: "gh-client",
      redirect_uri: ghRedirect,
      scope: "read:user user:email",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString()
    return { visit: await browser.get(url.href, { from: `${appOrigin}/signin` }), state, verifier }
  }

  async function signIn() {
    const { visit, state, verifier } = await authorize(newBrowser())
    const params = oauth.validateAuthResponse(as, client, new URL(visit.url), state)
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, ghRedirect, verifier, insecure)
    return { response, params, verifier }
  }

  it("runs code + PKCE, then /user and /user/emails, recording every request", async () => {
    const browser = newBrowser()
    const { visit, state, verifier } = await authorize(browser)
    expect(visit.hops.map((h) => h.status)).toEqual([302, 200])
    expect(new URL(visit.url).searchParams.get("state")).toBe(state)

    const params = oauth.validateAuthResponse(as, client, new URL(visit.url), state)
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, ghRedirect, verifier, insecure)
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response)
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "read:user,user:email", expires_in: 28800 })

    const tokenRequest = github.requests.find((r) => r.path === "/login/oauth/access_token")!
    expect(tokenRequest.headers.authorization).toMatch(/^Basic /)
    expect(tokenRequest.body?.get("code_verifier")).toBe(verifier)

    const user = await oauth.protectedResourceRequest(tokens.access_token, "GET", new URL(github.userUrl), undefined, undefined, insecure)
    expect(await user.json()).toMatchObject({ id: 1001, login: "octocat", email: null })
    const emails = await fetch(`${github.url}/api/v3/user/emails`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(await emails.json()).toContainEqual({ email: "octocat@users.example", primary: true, verified: true, visibility: "private" })
    expect((await fetch(github.userUrl, { headers: { authorization: "Bearer nope" } })).status).toBe(401)
  })

  it("refuses a wrong code_verifier and a replayed code", async () => {
    const { visit, state } = await authorize(newBrowser())
    const params = oauth.validateAuthResponse(as, client, new URL(visit.url), state)
    const wrong = await oauth.authorizationCodeGrantRequest(as, client, auth, params, ghRedirect, oauth.generateRandomCodeVerifier(), insecure)
    // GitHub style: the error comes with HTTP 200.
    expect(wrong.status).toBe(200)
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" })

    const { response, params: used, verifier } = await signIn()
    await oauth.processAuthorizationCodeResponse(as, client, response)
    const replay = await oauth.authorizationCodeGrantRequest(as, client, auth, used, ghRedirect, verifier, insecure)
    expect(await replay.json()).toMatchObject({ error: "bad_verification_code" })
  })

  it("rotates refresh tokens, refuses spent ones, and refuses all when told to", async () => {
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, (await signIn()).response)
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    )
    expect(refreshed.refresh_token).toBeTruthy()
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)

    const spent = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure)
    expect(await spent.json()).toMatchObject({ error: "bad_refresh_token" })

    github.failures.refuseRefresh = true
    try {
      const refused = await oauth.refreshTokenGrantRequest(as, client, auth, refreshed.refresh_token!, insecure)
      expect(await refused.json()).toMatchObject({ error: "bad_refresh_token" })
    } finally {
      github.failures.refuseRefresh = false
    }
  })

  it("ignoreCodeVerifier: redeems a code with any code_verifier, as servers that ignore PKCE do", async () => {
    const lax = await startGitHubLikeServer({ clientId: "gh-client", clientSecret: "gh-secret", redirectUris: [ghRedirect], ignoreCodeVerifier: true })
    try {
      const laxAs = { ...as, authorization_endpoint: lax.authorizeUrl, token_endpoint: lax.tokenUrl }
      const url = new URL(lax.authorizeUrl)
      const state = oauth.generateRandomState()
      const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier())
      url.search = new URLSearchParams({ client_id: "gh-client", redirect_uri: ghRedirect, state, code_challenge: challenge, code_challenge_method: "S256" }).toString()
      const visit = await newBrowser().get(url.href, { from: `${appOrigin}/signin` })
      const params = oauth.validateAuthResponse(laxAs, client, new URL(visit.url), state)
      const other = await oauth.authorizationCodeGrantRequest(laxAs, client, auth, params, ghRedirect, oauth.generateRandomCodeVerifier(), insecure)
      expect(await oauth.processAuthorizationCodeResponse(laxAs, client, other)).toMatchObject({ token_type: "bearer" })
    } finally {
      await lax.stop()
    }
  })

  it("denyNextAuthorization: redirects back with error=access_denied", async () => {
    github.failures.denyNextAuthorization = true
    const { visit, state } = await authorize(newBrowser())
    expect(() => oauth.validateAuthResponse(as, client, new URL(visit.url), state)).toThrow(expect.objectContaining({ error: "access_denied" }))
    expect(github.failures.denyNextAuthorization).toBe(false)
  })
})

describe("Browser", () => {
  it("keeps cookies per origin with Path, Max-Age deletion, Secure, prefixes and SameSite", async () => {
    const seen: Record<string, string | null> = {}
    const handler = async (request: Request) => {
      const url = new URL(request.url)
      seen[`${request.method} ${url.pathname}`] = request.headers.get("cookie")
      seen[`origin of ${request.method} ${url.pathname}`] = request.headers.get("origin")
      const headers = new Headers()
      if (url.pathname === "/set") {
        headers.append("set-cookie", "plain=1; Path=/")
        headers.append("set-cookie", "scoped=2; Path=/deep")
        headers.append("set-cookie", "__Host-strict=3; Path=/; Secure; SameSite=Strict")
        headers.append("set-cookie", "__Secure-none=4; Path=/; Secure; SameSite=None")
        headers.append("set-cookie", "__Host-bad=5; Path=/") // no Secure: refused
        headers.append("set-cookie", "foreign=6; Path=/; Domain=other.test") // refused
      }
      if (url.pathname === "/clear") headers.append("set-cookie", "plain=; Path=/; Max-Age=0")
      if (url.pathname === "/bounce") return new Response(null, { status: 302, headers: { location: "/deep/page" } })
      return new Response("ok", { headers })
    }
    const browser = new Browser({ app: handler, origins: { "https://other.test": handler } })

    await browser.get("/set")
    expect(browser.cookies().map((c) => c.name).sort()).toEqual(["__Host-strict", "__Secure-none", "plain", "scoped"])
    expect(browser.cookies("https://other.test")).toEqual([])

    const visit = await browser.get("/bounce")
    expect(visit.hops.map((h) => [h.status, h.url])).toEqual([
      [302, "https://app.test/bounce"],
      [200, "https://app.test/deep/page"],
    ])
    expect(seen["GET /deep/page"]).toBe("scoped=2; plain=1; __Host-strict=3; __Secure-none=4")

    // A cross-site POST (a form on another site) carries only SameSite=None cookies.
    await browser.post("/anywhere", { a: "b" }, { from: "https://elsewhere.example/page" })
    expect(seen["POST /anywhere"]).toBe("__Secure-none=4")
    expect(seen["origin of POST /anywhere"]).toBe("https://elsewhere.example")
    // A cross-site top-level GET carries Lax and None, not Strict.
    await browser.get("/nav", { from: "https://elsewhere.example/page" })
    expect(seen["GET /nav"]).toBe("plain=1; __Secure-none=4")
    expect(seen["origin of GET /nav"]).toBeNull()

    await browser.get("/clear")
    expect(browser.cookie("plain")).toBeUndefined()
    expect(browser.cookie("scoped")).toBe("2")
  })
})
