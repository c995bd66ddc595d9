/**
 * Whole sign-ins through `Auth()` with catalogue providers whose token or userinfo exchange is
 * not the standard one, each against an imitation of that provider at its own URLs (see
 * fake-provider.ts): the requests carry what the provider wants, and the profile is read where
 * and how it serves it.
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { setEnvDefaults } from "../../src/env.js"
import { Frontegg } from "../../src/providers/frontegg.js"
import { FusionAuth } from "../../src/providers/fusionauth.js"
import { HubSpot } from "../../src/providers/hubspot.js"
import { Instagram } from "../../src/providers/instagram.js"
import { Kakao } from "../../src/providers/kakao.js"
import { LINE } from "../../src/providers/line.js"
import { Mailru } from "../../src/providers/mailru.js"
import { Mastodon } from "../../src/providers/mastodon.js"
import { Mattermost } from "../../src/providers/mattermost.js"
import { NetSuite } from "../../src/providers/netsuite.js"
import { Nextcloud } from "../../src/providers/nextcloud.js"
import type { OAuthConfig, ProviderEnvOptions } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { authApp, expectLandedOn, sessionOf, signIn, signInUntilCallback } from "../flow/end-to-end-helpers.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { fakeProvider, type FakeProvider, type FakeProviderOptions } from "./fake-provider.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`
const CLIENT = { clientId: "client-1", clientSecret: "secret with spaces & symbols" }

function setUp(provider: OAuthConfig | ((options: ProviderEnvOptions) => OAuthConfig), fake: FakeProvider, extra: Partial<AuthConfig> = {}) {
  const { logger, lines } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, logger, providers: [provider], ...extra }
  const browser = new Browser({ app: authApp(config), appOrigin: APP, origins: fake.origins })
  return { browser, config, lines }
}

function fake(options: Omit<FakeProviderOptions, "clientId" | "clientSecret">): FakeProvider {
  return fakeProvider({ ...CLIENT, ...options })
}

/** A JSON route that answers only requests carrying an access token this provider issued. */
const withBearer = (body: unknown) => (_request: unknown, grant: unknown) => (grant ? Response.json(body) : Response.json({ message: "unauthorized" }, { status: 401 }))

describe("Kakao", () => {
  const kakaoUser = {
    id: 2_134_567_890,
    connected_at: "2024-01-02T03:04:05Z",
    kakao_account: {
      profile: { nickname: "라이언", profile_image_url: "https://k.kakaocdn.net/dn/ryan/img_640x640.jpg", is_default_image: false },
      email: "ryan@kakao.test",
      is_email_valid: true,
      is_email_verified: true,
    },
  }
  const kakao = () =>
    fake({
      authorizeUrl: "https://kauth.kakao.com/oauth/authorize",
      tokenUrl: "https://kauth.kakao.com/oauth/token",
      clientAuth: "client_secret_post",
      routes: { "GET https://kapi.kakao.com/v2/user/me": withBearer(kakaoUser) },
    })

  it("authenticates in the token request's body and reads the nested kakao_account profile", async () => {
    const server = kakao()
    const adapter = MemoryAdapter()
    const { browser } = setUp(Kakao({ ...CLIENT, fetch: server.fetch }), server, { adapter })
    expectLandedOn(await signIn(browser, "kakao"), DASHBOARD)

    const token = server.last("POST", "https://kauth.kakao.com/oauth/token")
    expect(token.headers.get("authorization")).toBeNull()
    expect(token.form?.get("client_id")).toBe(CLIENT.clientId)
    expect(token.form?.get("client_secret")).toBe(CLIENT.clientSecret)
    // An empty scope: Kakao asks for the consent items set up for the app.
    expect(server.grants[0]!.params.get("scope")).toBe("")
    expect(server.last("GET", "https://kapi.kakao.com/v2/user/me").headers.get("authorization")).toBe(`Bearer ${server.grants[0]!.accessToken}`)
    expect(await sessionOf(browser)).toMatchObject({
      user: { name: "라이언", email: "ryan@kakao.test", image: "https://k.kakaocdn.net/dn/ryan/img_640x640.jpg" },
    })
    expect(await adapter.getAccount("2134567890", "kakao")).toMatchObject({ type: "oauth", provider: "kakao" })
  })
})

describe("LINE", () => {
  const ISSUER = "https://access.line.me"
  let es256Jwk: Record<string, unknown>
  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true })
    es256Jwk = { ...(await exportJWK(pair.publicKey)), kid: "line-es256", alg: "ES256" }
  })

  const line = () => {
    const server: FakeProvider = fake({
      authorizeUrl: `${ISSUER}/oauth2/v2.1/authorize`,
      tokenUrl: "https://api.line.me/oauth2/v2.1/token",
      clientAuth: "client_secret_basic",
      // LINE signs a web login's ID token with HS256, keyed with the channel secret.
      tokenResponse: async (grant) => {
        const idToken = await new SignJWT({ name: "Brown", picture: "https://profile.line-scdn.net/brown", email: "brown@line.test", amr: ["pwd"] })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setIssuer(ISSUER)
          .setSubject("U4af4980629d0f1d6a1c5f4b3a1b2c3d4")
          .setAudience(CLIENT.clientId)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode(CLIENT.clientSecret))
        return Response.json({ access_token: grant.accessToken, token_type: "Bearer", expires_in: 2592000, scope: "profile openid email", id_token: idToken })
      },
      routes: {
        // LINE's discovery document lists ES256 only (the algorithm of native-app tokens).
        [`GET ${ISSUER}/.well-known/openid-configuration`]: () =>
          Response.json({
            issuer: ISSUER,
            authorization_endpoint: `${ISSUER}/oauth2/v2.1/authorize`,
            token_endpoint: "https://api.line.me/oauth2/v2.1/token",
            userinfo_endpoint: "https://api.line.me/oauth2/v2.1/userinfo",
            jwks_uri: "https://api.line.me/oauth2/v2.1/certs",
            response_types_supported: ["code"],
            subject_types_supported: ["pairwise"],
            id_token_signing_alg_values_supported: ["ES256"],
            code_challenge_methods_supported: ["S256"],
          }),
        "GET https://api.line.me/oauth2/v2.1/certs": () => Response.json({ keys: [es256Jwk] }),
      },
    })
    return server
  }

  it("accepts the HS256 ID token of a web login, with state and without PKCE", async () => {
    const server = line()
    const { browser, lines } = setUp(LINE({ ...CLIENT, fetch: server.fetch }), server)
    expectLandedOn(await signIn(browser, "line"), DASHBOARD)
    expect(lines.filter((entry) => entry.level === "error")).toEqual([])
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Brown", email: "brown@line.test", image: "https://profile.line-scdn.net/brown" } })

    const authorize = server.grants[0]!.params
    expect(authorize.get("state")).toBeTruthy()
    expect(authorize.has("code_challenge")).toBe(false)
    expect(authorize.get("scope")).toBe("openid profile email")
    expect(server.last("POST", "https://api.line.me/oauth2/v2.1/token").form?.has("code_verifier")).toBe(false)
  })
})

describe("Instagram", () => {
  it("signs in though the token response has no token_type, and reads the Graph API's fields", async () => {
    const server = fake({
      authorizeUrl: "https://api.instagram.com/oauth/authorize",
      tokenUrl: "https://api.instagram.com/oauth/access_token",
      clientAuth: "client_secret_post",
      // Instagram's answer: the token and the user's id, nothing else.
      tokenResponse: (grant) => Response.json({ access_token: grant.accessToken, user_id: 17841405793187218 }),
      routes: { "GET https://graph.instagram.com/me": withBearer({ id: "17841405793187218", username: "jayposiris", account_type: "PERSONAL" }) },
    })
    const adapter = MemoryAdapter()
    const { browser } = setUp(Instagram({ ...CLIENT, fetch: server.fetch }), server, { adapter })
    expectLandedOn(await signIn(browser, "instagram"), DASHBOARD)

    expect(server.grants[0]!.params.get("scope")).toBe("user_profile")
    expect(server.last("POST", "https://api.instagram.com/oauth/access_token").form?.get("client_secret")).toBe(CLIENT.clientSecret)
    expect(server.last("GET", "https://graph.instagram.com/me").url.searchParams.get("fields")).toBe("id,username,account_type,name")
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "jayposiris" } })
    expect(await adapter.getAccount("17841405793187218", "instagram")).toMatchObject({ token_type: "bearer", access_token: server.grants[0]!.accessToken })
  })
})

describe("HubSpot", () => {
  const TOKEN_INFO = "https://api.hubapi.com/oauth/v1/access-tokens"

  it("authenticates in the body and takes the profile from the token information endpoint, the token in its path", async () => {
    const server: FakeProvider = fake({
      authorizeUrl: "https://app.hubspot.com/oauth/authorize",
      tokenUrl: "https://api.hubapi.com/oauth/v1/token",
      clientAuth: "client_secret_post",
      routes: {
        // No bearer header: the token is the path's last segment.
        [`GET ${TOKEN_INFO}/*`]: (request) => {
          const token = decodeURIComponent(request.url.pathname.split("/").at(-1)!)
          if (!server.grantOf(token)) return Response.json({ status: "error", message: "token not found" }, { status: 404 })
          return Response.json({ token, user: "ada@hubspot.test", hub_domain: "acme.hubspot.test", scopes: ["oauth"], hub_id: 62515, app_id: 456, expires_in: 1754, user_id: 123, token_type: "access" })
        },
      },
    })
    const adapter = MemoryAdapter()
    const { browser } = setUp(HubSpot({ ...CLIENT, fetch: server.fetch }), server, { adapter })
    expectLandedOn(await signIn(browser, "hubspot"), DASHBOARD)

    expect(server.grants[0]!.params.get("scope")).toBe("oauth")
    const token = server.last("POST", "https://api.hubapi.com/oauth/v1/token")
    expect(token.headers.get("authorization")).toBeNull()
    expect(token.form?.get("client_secret")).toBe(CLIENT.clientSecret)
    expect(server.last("GET", `${TOKEN_INFO}/${server.grants[0]!.accessToken}`)).toBeDefined()
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "ada@hubspot.test", email: "ada@hubspot.test" } })
    expect(await adapter.getAccount("123", "hubspot")).toMatchObject({ provider: "hubspot" })
  })
})

describe("Mail.ru", () => {
  const USERINFO = "https://oauth.mail.ru/userinfo"
  /** Mail.ru reads the token from the query only, and reports failures in a 200 body. */
  const mailru = (body = { id: "1734604429", nickname: "Бернар", email: "bernard@mail.test", image: "https://filin.mail.ru/pic?d=1" }) => {
    const server: FakeProvider = fake({
      authorizeUrl: "https://oauth.mail.ru/login",
      tokenUrl: "https://oauth.mail.ru/token",
      clientAuth: "client_secret_basic",
      routes: {
        [`GET ${USERINFO}`]: (request) =>
          server.grantOf(request.url.searchParams.get("access_token")) ? Response.json(body) : Response.json({ error: "invalid_request", error_description: "access_token not set" }),
      },
    })
    return server
  }

  it("sends the access token as the userinfo endpoint's access_token parameter", async () => {
    const server = mailru()
    const { browser } = setUp(Mailru({ ...CLIENT, fetch: server.fetch }), server)
    expectLandedOn(await signIn(browser, "mailru"), DASHBOARD)

    expect(server.grants[0]!.params.get("scope")).toBe("userinfo")
    expect(server.last("GET", USERINFO).url.searchParams.get("access_token")).toBe(server.grants[0]!.accessToken)
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Бернар", email: "bernard@mail.test" } })
  })

  it("fails the sign-in, without a session, when Mail.ru answers the lookup with an error", async () => {
    const server = mailru({ error: "invalid_token" } as never)
    const { browser, lines } = setUp(Mailru({ ...CLIENT, fetch: server.fetch }), server)
    expect((await signIn(browser, "mailru")).url).toBe(`${APP}/auth/error?error=Configuration`)
    expect(lines.map((line) => line.code)).toContain("CallbackRouteError")
    expect(await sessionOf(browser)).toBeNull()
  })
})

describe("Nextcloud", () => {
  const CLOUD = "https://cloud.example.test"
  const USERS = `${CLOUD}/ocs/v1.php/cloud/users`
  const frank = { id: "frank k", email: "frank@cloud.test", displayname: "Frank K.", enabled: true, groups: ["admin"] }
  const nextcloud = (meta = { status: "ok", statuscode: 100 }) => {
    const server: FakeProvider = fake({
      authorizeUrl: `${CLOUD}/apps/oauth2/authorize`,
      tokenUrl: `${CLOUD}/apps/oauth2/api/v1/token`,
      clientAuth: "client_secret_basic",
      // Nextcloud's token response names the user.
      tokenResponse: (grant) => Response.json({ access_token: grant.accessToken, token_type: "Bearer", expires_in: 3600, refresh_token: "rt", user_id: frank.id }),
      routes: {
        [`GET ${USERS}/${encodeURIComponent(frank.id)}`]: (request, grant) => {
          if (!grant || request.headers.get("ocs-apirequest") !== "true") return Response.json({ message: "CSRF check failed" }, { status: 401 })
          return Response.json({ ocs: { meta, data: meta.status === "ok" ? frank : [] } })
        },
      },
    })
    return server
  }

  it("reads the user the token response names from the provisioning API, with the OCS-APIRequest header", async () => {
    const server = nextcloud()
    const { browser } = setUp(Nextcloud({ ...CLIENT, issuer: `${CLOUD}/`, fetch: server.fetch }), server)
    expectLandedOn(await signIn(browser, "nextcloud"), DASHBOARD)

    expect(server.last("GET", `${USERS}/frank%20k`).headers.get("authorization")).toBe(`Bearer ${server.grants[0]!.accessToken}`)
    expect(await sessionOf(browser)).toMatchObject({
      user: { name: "Frank K.", email: "frank@cloud.test", image: `${CLOUD}/avatar/frank%20k/512` },
    })
  })

  it("fails the sign-in when the provisioning API answers HTTP 200 with an OCS failure and no user", async () => {
    const server = nextcloud({ status: "failure", statuscode: 997 })
    const { browser } = setUp(Nextcloud({ ...CLIENT, issuer: CLOUD, fetch: server.fetch }), server)
    expect((await signIn(browser, "nextcloud")).url).toBe(`${APP}/auth/error?error=Configuration`)
    expect(await sessionOf(browser)).toBeNull()
  })
})

describe("FusionAuth", () => {
  const ISSUER = "https://auth.example.test"
  let signingKey: CryptoKey
  let jwk: Record<string, unknown>
  beforeAll(async () => {
    const pair = await generateKeyPair("RS256", { extractable: true })
    signingKey = pair.privateKey as CryptoKey
    jwk = { ...(await exportJWK(pair.publicKey)), kid: "fa", alg: "RS256" }
  })

  /** FusionAuth puts a WWW-Authenticate header on its token responses, errors included. */
  const challenge = { "www-authenticate": 'Bearer realm="FusionAuth"' }
  const fusionauth = () =>
    fake({
      authorizeUrl: `${ISSUER}/oauth2/authorize`,
      tokenUrl: `${ISSUER}/oauth2/token`,
      clientAuth: "client_secret_basic",
      tokenResponse: async (grant) => {
        const idToken = await new SignJWT({ email: "richard@fusionauth.test", email_verified: true, given_name: "Richard", family_name: "Hendricks", authenticationType: "PASSWORD" })
          .setProtectedHeader({ alg: "RS256", kid: "fa" })
          .setIssuer(ISSUER)
          .setSubject("00000000-0000-0001-0000-000000000000")
          .setAudience(CLIENT.clientId)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(signingKey)
        return Response.json({ access_token: grant.accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken, refresh_token: "rt" }, { headers: challenge })
      },
      refusedCode: () => Response.json({ error: "invalid_grant", error_description: "The authorization code is invalid." }, { status: 400, headers: challenge }),
      routes: {
        [`GET ${ISSUER}/.well-known/openid-configuration`]: () =>
          Response.json({
            issuer: ISSUER,
            authorization_endpoint: `${ISSUER}/oauth2/authorize`,
            token_endpoint: `${ISSUER}/oauth2/token`,
            userinfo_endpoint: `${ISSUER}/oauth2/userinfo`,
            jwks_uri: `${ISSUER}/.well-known/jwks.json`,
            response_types_supported: ["code"],
            id_token_signing_alg_values_supported: ["RS256"],
          }),
        [`GET ${ISSUER}/.well-known/jwks.json`]: () => Response.json({ keys: [jwk] }),
      },
    })

  it("signs in through discovery, with the tenant, refresh scope, PKCE and state", async () => {
    const server = fusionauth()
    const { browser } = setUp(FusionAuth({ ...CLIENT, issuer: ISSUER, tenantId: "tenant-7", fetch: server.fetch }), server)
    expectLandedOn(await signIn(browser, "fusionauth"), DASHBOARD)
    expect(Object.fromEntries(server.grants[0]!.params)).toMatchObject({ tenantId: "tenant-7", scope: "openid offline_access email profile", code_challenge_method: "S256" })
    expect(server.grants[0]!.params.get("state")).toBeTruthy()
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Richard Hendricks", email: "richard@fusionauth.test" } })
  })

  it("shows a replayed code on the sign-in page as OAuthCallbackError, though FusionAuth refuses it with a WWW-Authenticate header", async () => {
    const server = fusionauth()
    const { browser, lines } = setUp(FusionAuth({ ...CLIENT, issuer: ISSUER, fetch: server.fetch }), server)
    const first = await signInUntilCallback(browser, "fusionauth")
    expectLandedOn(await browser.get(first), DASHBOARD)

    // A new flow in the same browser, coming back with the first flow's spent code.
    const second = new URL(await signInUntilCallback(browser, "fusionauth"))
    second.searchParams.set("code", new URL(first).searchParams.get("code")!)
    const replay = await browser.get(second.href)
    expect(replay.url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    expect(lines.map((line) => line.code)).not.toContain("CallbackRouteError")
  })
})

describe("Frontegg", () => {
  const DOMAIN = "https://app-abc123.frontegg.test"
  let signingKey: CryptoKey
  beforeAll(async () => {
    signingKey = (await generateKeyPair("RS256", { extractable: true })).privateKey as CryptoKey
  })

  it("signs in at the endpoints under its issuer, without asking for a discovery document", async () => {
    const server = fake({
      authorizeUrl: `${DOMAIN}/oauth/authorize`,
      tokenUrl: `${DOMAIN}/oauth/token`,
      clientAuth: "client_secret_basic",
      tokenResponse: async (grant) => {
        const idToken = await new SignJWT({ name: "Ada Lovelace", email: "ada@frontegg.test", email_verified: true, roles: ["admin"] })
          .setProtectedHeader({ alg: "RS256" })
          .setIssuer(DOMAIN)
          .setSubject("8a1f0c3e-0000-4000-8000-000000000001")
          .setAudience(CLIENT.clientId)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(signingKey)
        return Response.json({ access_token: grant.accessToken, token_type: "Bearer", expires_in: 86400, id_token: idToken, refresh_token: "rt" })
      },
    })
    const { browser } = setUp(Frontegg({ ...CLIENT, issuer: DOMAIN, fetch: server.fetch }), server)
    expectLandedOn(await signIn(browser, "frontegg"), DASHBOARD)
    expect(server.requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual(["GET /oauth/authorize", "POST /oauth/token"])
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@frontegg.test" } })
  })
})

describe("NetSuite", () => {
  const RESTLET = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1"
  const user = { id: 42, name: "Ada Lovelace", email: "ada@netsuite.test", location: 1, role: 3, contact: 0 }

  it("uses the account's own domains, state without PKCE, and calls the RESTlet asking for JSON", async () => {
    const server = fake({
      authorizeUrl: "https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl",
      tokenUrl: "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
      clientAuth: "client_secret_basic",
      routes: {
        // A RESTlet called without a content type answers 206; this one returns JSON.stringify(user).
        [`GET ${RESTLET}`]: (request, grant) => {
          if (!grant) return Response.json({ error: { code: "INVALID_LOGIN_ATTEMPT" } }, { status: 401 })
          if (request.headers.get("content-type") !== "application/json") return new Response("", { status: 206 })
          return Response.json(JSON.stringify(user))
        },
      },
    })
    const adapter = MemoryAdapter()
    const provider = NetSuite({ ...CLIENT, accountID: "1234567_SB1", userinfo: RESTLET, prompt: "login", fetch: server.fetch })
    const { browser } = setUp(provider, server, { adapter })
    expectLandedOn(await signIn(browser, "netsuite"), DASHBOARD)

    const authorize = server.grants[0]!.params
    expect(authorize.get("scope")).toBe("restlets rest_webservices")
    expect(authorize.get("prompt")).toBe("login")
    expect(authorize.get("state")).toBeTruthy()
    expect(authorize.has("code_challenge")).toBe(false)
    const restlet = server.last("GET", RESTLET)
    expect(restlet.url.href).toBe(RESTLET)
    expect(restlet.headers.get("authorization")).toBe(`Bearer ${server.grants[0]!.accessToken}`)
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@netsuite.test" } })
    expect(await adapter.getAccount("42", "netsuite")).toMatchObject({ provider: "netsuite" })
  })
})

describe("instance-relative providers, the instance from AUTH_<ID>_ISSUER", () => {
  it("Mastodon: signs in at the instance AUTH_MASTODON_ISSUER names", async () => {
    const INSTANCE = "https://mastodon.example.test"
    const server = fake({
      authorizeUrl: `${INSTANCE}/oauth/authorize`,
      tokenUrl: `${INSTANCE}/oauth/token`,
      clientAuth: "client_secret_basic",
      routes: { [`GET ${INSTANCE}/api/v1/accounts/verify_credentials`]: withBearer({ id: "109348", username: "gargron", acct: "Gargron", display_name: "Eugen", avatar_static: `${INSTANCE}/avatars/original/missing.png` }) },
    })
    const config: AuthConfig = { trustHost: true, logger: recordingLogger().logger, providers: [(options: ProviderEnvOptions) => Mastodon({ ...options, fetch: server.fetch })] }
    setEnvDefaults({ AUTH_SECRET: secret, AUTH_MASTODON_ID: CLIENT.clientId, AUTH_MASTODON_SECRET: CLIENT.clientSecret, AUTH_MASTODON_ISSUER: `${INSTANCE}/` }, config)
    const browser = new Browser({ app: authApp(config), appOrigin: APP, origins: server.origins })
    expectLandedOn(await signIn(browser, "mastodon"), DASHBOARD)
    expect(server.grants[0]!.params.get("scope")).toBe("read")
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "gargron", image: `${INSTANCE}/avatars/original/missing.png` } })
  })

  it("Mattermost: signs in at the server AUTH_MATTERMOST_ISSUER names, authenticating in the body", async () => {
    const SERVER = "https://chat.example.test"
    const server = fake({
      authorizeUrl: `${SERVER}/oauth/authorize`,
      tokenUrl: `${SERVER}/oauth/access_token`,
      clientAuth: "client_secret_post",
      routes: { [`GET ${SERVER}/api/v4/users/me`]: withBearer({ id: "ibzkpfi6sjfyipm5ogwn6mxtxr", username: "ada", email: "ada@chat.test", first_name: "Ada", last_name: "Lovelace" }) },
    })
    const config: AuthConfig = { trustHost: true, logger: recordingLogger().logger, providers: [(options: ProviderEnvOptions) => Mattermost({ ...options, fetch: server.fetch })] }
    setEnvDefaults({ AUTH_SECRET: secret, AUTH_MATTERMOST_ID: CLIENT.clientId, AUTH_MATTERMOST_SECRET: CLIENT.clientSecret, AUTH_MATTERMOST_ISSUER: SERVER }, config)
    const browser = new Browser({ app: authApp(config), appOrigin: APP, origins: server.origins })
    expectLandedOn(await signIn(browser, "mattermost"), DASHBOARD)
    expect(server.last("POST", `${SERVER}/oauth/access_token`).form?.get("client_secret")).toBe(CLIENT.clientSecret)
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "ada", email: "ada@chat.test" } })
  })
})
