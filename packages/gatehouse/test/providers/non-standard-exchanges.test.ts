/**
 * Whole sign-ins through `Auth()` with the catalogue's providers whose token or userinfo exchange
 * is not standard OAuth 2, each against an imitation of that provider's quirk at its own URLs (see
 * fake-provider.ts), reached through the provider's `fetch`: the requests carry what the provider
 * wants, the profile is read where and how it serves it, and a failure it reports in its own way
 * fails the sign-in, down to the session and the stored account.
 *
 * A provider whose authorization code exchange is the standard one, its quirks elsewhere, is
 * signed in with in the test Browser through the imitation's authorization and token endpoints
 * ({@link setUp}); one whose exchange is not, with {@link signInWithCode}, the test answering the
 * token request itself.
 */
import { SignJWT } from "jose"
import { beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { providerWithEnv, setEnvDefaults } from "../../src/env.js"
import AzureADB2C from "../../src/providers/azure-ad-b2c.js"
import AzureDevOpsProvider from "../../src/providers/azure-devops.js"
import BankIDNorway from "../../src/providers/bankid-no.js"
import BattleNet from "../../src/providers/battlenet.js"
import SAMLJackson from "../../src/providers/boxyhq-saml.js"
import Bungie from "../../src/providers/bungie.js"
import ClickUp from "../../src/providers/click-up.js"
import EVEOnline from "../../src/providers/eveonline.js"
import FACEIT from "../../src/providers/faceit.js"
import Figma from "../../src/providers/figma.js"
import Foursquare from "../../src/providers/foursquare.js"
import { Frontegg } from "../../src/providers/frontegg.js"
import { FusionAuth } from "../../src/providers/fusionauth.js"
import { GitHub } from "../../src/providers/github.js"
import { HubSpot } from "../../src/providers/hubspot.js"
import { Instagram } from "../../src/providers/instagram.js"
import { Kakao } from "../../src/providers/kakao.js"
import { LINE } from "../../src/providers/line.js"
import { Mailru } from "../../src/providers/mailru.js"
import { Mastodon } from "../../src/providers/mastodon.js"
import { Mattermost } from "../../src/providers/mattermost.js"
import { NetSuite } from "../../src/providers/netsuite.js"
import { Nextcloud } from "../../src/providers/nextcloud.js"
import { Threads } from "../../src/providers/threads.js"
import { TikTok } from "../../src/providers/tiktok.js"
import { TodoistProvider } from "../../src/providers/todoist.js"
import { Trakt } from "../../src/providers/trakt.js"
import { VK } from "../../src/providers/vk.js"
import { WeChat } from "../../src/providers/wechat.js"
import { WorkOS } from "../../src/providers/workos.js"
import type { OAuthConfig, ProviderEnvOptions } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { authApp, expectLandedOn, sessionOf, signIn, signInUntilCallback } from "../flow/end-to-end-helpers.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import {
  APP,
  DASHBOARD,
  discoveryDocument,
  expectRefused,
  expectSignedIn,
  fakeProvider,
  signingKey,
  signInWithCode,
  type FakeExchange,
  type FakeProvider,
  type Route,
  type SigningKey,
} from "./fake-provider.js"

const CLIENT = { clientId: "client-1", clientSecret: "secret with spaces & symbols" }

/** The signing key of the OpenID providers imitated here. */
let key: SigningKey
beforeAll(async () => {
  key = await signingKey()
})

/** An imitation answering the standard exchange for {@link CLIENT}, and `routes`. */
function fake({ routes, ...exchange }: Omit<FakeExchange, "clientId" | "clientSecret"> & { routes?: Record<string, Route> }): FakeProvider {
  return fakeProvider({ exchange: { ...CLIENT, ...exchange }, routes })
}

/** The app with `provider`, in a Browser that reaches the imitation at the provider's origins. */
function setUp(provider: OAuthConfig | ((options: ProviderEnvOptions) => OAuthConfig), fake: FakeProvider, extra: Partial<AuthConfig> = {}) {
  const { logger, lines } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, logger, providers: [provider], ...extra }
  const browser = new Browser({ app: authApp(config), appOrigin: APP, origins: fake.origins })
  return { browser, config, lines }
}

/** A JSON route that answers only requests carrying an access token this provider issued. */
const withBearer = (body: unknown): Route => (_request, grant) => (grant ? Response.json(body) : Response.json({ message: "unauthorized" }, { status: 401 }))

/** The stored user of `provider`'s account `providerAccountId`, or null. */
function storedUser(adapter: ReturnType<typeof MemoryAdapter>, provider: string, providerAccountId: string) {
  return adapter.getUserByAccount({ provider, providerAccountId })
}

describe("Azure AD B2C: a user flow's metadata names the tenant's issuer, not the flow's authority", () => {
  const HOST = "https://contoso.b2clogin.com"
  const FLOW = `${HOST}/contoso.onmicrosoft.com/B2C_1_signupsignin`
  const AUTHORITY = `${FLOW}/v2.0`
  const TENANT_ISSUER = `${HOST}/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/`
  function b2c(issuerInToken: string) {
    const fake = fakeProvider({
      routes: {
        [`GET ${AUTHORITY}/.well-known/openid-configuration`]: () =>
          Response.json(discoveryDocument(TENANT_ISSUER, `${FLOW}/oauth2/v2.0`, { jwks_uri: `${FLOW}/discovery/v2.0/keys` })),
        [`GET ${FLOW}/discovery/v2.0/keys`]: () => Response.json({ keys: [key.jwk] }),
        [`POST ${FLOW}/oauth2/v2.0/token`]: async () => {
          const idToken = await key.sign({ sub: "8d3a8e36", name: "Ada Lovelace", emails: ["ada@example.com"], tfp: "B2C_1_signupsignin" }, issuerInToken, "b2c-client")
          return Response.json({ id_token: idToken, access_token: "b2c-at", token_type: "Bearer", expires_in: 3600 })
        },
      },
    })
    return { fake, provider: AzureADB2C({ clientId: "b2c-client", clientSecret: "b2c-secret", tenantId: "contoso", primaryUserFlow: "B2C_1_signupsignin", fetch: fake.fetch }) }
  }

  it("signs in with an ID token from the tenant's issuer, discovered under the user flow", async () => {
    const { fake, provider } = b2c(TENANT_ISSUER)
    const result = await signInWithCode(provider)
    expectSignedIn(result)
    expect(fake.requests[0]!.url.href).toBe(`${AUTHORITY}/.well-known/openid-configuration`)
    expect(result.authorize.pathname).toBe("/contoso.onmicrosoft.com/B2C_1_signupsignin/oauth2/v2.0/authorize")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
  })

  it("refuses an ID token naming any other issuer", async () => {
    const result = await signInWithCode(b2c(`${HOST}/00000000-0000-0000-0000-000000000000/v2.0/`).provider)
    expectRefused(result)
    expect(await result.client.session()).toBeNull()
  })
})

describe("Azure DevOps: the code is redeemed as a JWT-bearer assertion, with the secret as the client assertion", () => {
  const TOKEN = "POST https://app.vssps.visualstudio.com/oauth2/token"
  const PROFILE = "GET https://app.vssps.visualstudio.com/_apis/profile/profiles/me"
  function azureDevOps() {
    const fake = fakeProvider({
      routes: {
        // Azure DevOps's answer: its own token type, and expires_in as a string.
        [TOKEN]: () => Response.json({ access_token: "ado-at", token_type: "jwt-bearer", expires_in: "3599", refresh_token: "ado-rt", scope: "vso.profile" }),
        [PROFILE]: () =>
          Response.json({ id: "8d3a8e36-5c6b", displayName: "Ada Lovelace", emailAddress: "ada@example.com", coreAttributes: { Avatar: { value: { value: "iVBORw0KGgo=" } } } }),
      },
    })
    const provider = AzureDevOpsProvider({ clientId: "ado-app", clientSecret: "eyJ0eXAi.app-secret.sig", fetch: fake.fetch })
    return { fake, provider }
  }

  it("signs in, sending the assertion grant Azure DevOps takes and reading its jwt-bearer token", async () => {
    const { fake, provider } = azureDevOps()
    const result = await signInWithCode(provider)
    expectSignedIn(result)

    expect(result.authorize.origin + result.authorize.pathname).toBe("https://app.vssps.visualstudio.com/oauth2/authorize")
    expect(Object.fromEntries(result.authorize.searchParams)).toMatchObject({ response_type: "Assertion", client_id: "ado-app", scope: "vso.profile" })
    expect(result.authorize.searchParams.has("code_challenge")).toBe(false)

    const token = fake.only(TOKEN)
    expect(Object.fromEntries(token.form!)).toEqual({
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "eyJ0eXAi.app-secret.sig",
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: "the-code",
      redirect_uri: `${APP}/auth/callback/azure-devops`,
    })
    expect(token.headers.get("authorization")).toBeNull()
    expect(fake.only(PROFILE).headers.get("authorization")).toBe("Bearer ado-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com", image: "data:image/jpeg;base64,iVBORw0KGgo=" } })
  })

  it("sends a refresh grant the same way, and leaves other requests alone", async () => {
    const { fake, provider } = azureDevOps()
    await provider.fetch!("https://app.vssps.visualstudio.com/oauth2/token", {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "ado-rt", client_id: "ado-app", client_secret: "eyJ0eXAi.app-secret.sig" }),
    })
    expect(Object.fromEntries(fake.requests[0]!.form!)).toEqual({
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "eyJ0eXAi.app-secret.sig",
      grant_type: "refresh_token",
      assertion: "ado-rt",
    })
    await provider.fetch!("https://app.vssps.visualstudio.com/other", { method: "POST", body: new URLSearchParams({ a: "b" }) })
    expect(Object.fromEntries(fake.requests[1]!.form!)).toEqual({ a: "b" })
  })
})

describe("BankID Norway: the profile is a signed userinfo JWT", () => {
  const ISSUER = "https://auth.bankid.no/auth/realms/prod"
  const BASE = `${ISSUER}/protocol/openid-connect`
  /** The userinfo answer: a JWT about `subject`, or plain JSON when `asJson`. */
  function bankId(userinfo: { subject?: string; asJson?: boolean } = {}) {
    let sentNonce = ""
    const fake = fakeProvider({
      routes: {
        [`GET ${ISSUER}/.well-known/openid-configuration`]: () => Response.json(discoveryDocument(ISSUER, BASE)),
        [`GET ${BASE}/keys`]: () => Response.json({ keys: [key.jwk] }),
        [`POST ${BASE}/token`]: async () => {
          const idToken = await key.sign({ sub: "9578-6000-4-365161", nonce: sentNonce, amr: "BIS" }, ISSUER, "bankid-client")
          return Response.json({ access_token: "bid-at", token_type: "Bearer", expires_in: 300, id_token: idToken })
        },
        [`GET ${BASE}/userinfo`]: async () => {
          const claims = { sub: userinfo.subject ?? "9578-6000-4-365161", name: "Ada Lovelace", email: "ada@example.no" }
          if (userinfo.asJson) return Response.json(claims)
          return new Response(await key.sign(claims, ISSUER, "bankid-client"), { headers: { "content-type": "application/jwt" } })
        },
      },
    })
    const provider = BankIDNorway({ clientId: "bankid-client", clientSecret: "bankid-secret", fetch: fake.fetch })
    // The ID token carries the nonce the authorization request sent.
    return { fake, provider, onAuthorize: (authorize: URL) => void (sentNonce = authorize.searchParams.get("nonce") ?? "") }
  }

  it("signs in with the userinfo JWT's claims, the secret in the form, and PKCE, state and nonce", async () => {
    const { fake, provider, onAuthorize } = bankId()
    const result = await signInWithCode(provider, { onAuthorize })
    expectSignedIn(result)
    expect(Object.fromEntries(result.authorize.searchParams)).toMatchObject({ ui_locales: "no", login_hint: "BIS", code_challenge_method: "S256" })
    expect(result.authorize.searchParams.get("nonce")).toBeTruthy()
    const token = fake.only(`POST ${BASE}/token`)
    expect(token.form?.get("client_secret")).toBe("bankid-secret")
    expect(token.headers.get("authorization")).toBeNull()
    expect(fake.only(`GET ${BASE}/userinfo`).headers.get("authorization")).toBe("Bearer bid-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.no" } })
  })

  it("refuses a userinfo answer that is not a JWT, or that is about someone else", async () => {
    for (const userinfo of [{ asJson: true }, { subject: "9578-6000-4-000000" }]) {
      const { provider, onAuthorize } = bankId(userinfo)
      const result = await signInWithCode(provider, { onAuthorize })
      expectRefused(result)
      expect(await result.client.session()).toBeNull()
    }
  })
})

describe("Battle.net: a regional issuer", () => {
  const ISSUER = "https://eu.battle.net/oauth"
  function battleNet(issuerInToken = ISSUER) {
    const fake = fakeProvider({
      routes: {
        [`GET ${ISSUER}/.well-known/openid-configuration`]: () => Response.json(discoveryDocument(ISSUER, ISSUER)),
        [`GET ${ISSUER}/keys`]: () => Response.json({ keys: [key.jwk] }),
        [`POST ${ISSUER}/token`]: async () => {
          const idToken = await key.sign({ sub: "100000001", battle_tag: "Ada#1815" }, issuerInToken, "bnet-client")
          return Response.json({ access_token: "bnet-at", token_type: "bearer", expires_in: 86399, id_token: idToken })
        },
      },
    })
    return { fake, provider: BattleNet({ clientId: "bnet-client", clientSecret: "bnet-secret", issuer: ISSUER, fetch: fake.fetch }) }
  }

  it("is discovered under the region, with state and PKCE as in Auth.js, and the BattleTag is the name", async () => {
    const { fake, provider } = battleNet()
    const result = await signInWithCode(provider)
    expectSignedIn(result)
    expect(fake.requests[0]!.url.href).toBe(`${ISSUER}/.well-known/openid-configuration`)
    expect(result.authorize.origin + result.authorize.pathname).toBe(`${ISSUER}/authorize`)
    expect(result.authorize.searchParams.get("state")).toBeTruthy()
    expect(result.authorize.searchParams.get("code_challenge_method")).toBe("S256")
    expect(result.authorize.searchParams.has("nonce")).toBe(false)
    expect(fake.only(`POST ${ISSUER}/token`).form?.get("code_verifier")).toBeTruthy()
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada#1815" } })
  })

  it("refuses an ID token naming another region's issuer", async () => {
    const result = await signInWithCode(battleNet("https://us.battle.net/oauth").provider)
    expectRefused(result)
    expect(await result.client.session()).toBeNull()
  })
})

describe("BoxyHQ SAML: Jackson's endpoints are under the issuer", () => {
  it("signs in through the endpoints built from AUTH_BOXYHQ_SAML_ISSUER, passing tenant and product on", async () => {
    const fake = fakeProvider({
      routes: {
        "POST https://jackson.acme.example/api/oauth/token": () => Response.json({ access_token: "jk-at", token_type: "bearer", expires_in: 300 }),
        "GET https://jackson.acme.example/api/oauth/userinfo": () =>
          Response.json({ id: "ada@acme.example", email: "ada@acme.example", firstName: "Ada", lastName: "Lovelace", requested: { tenant: "acme.example", product: "crm" } }),
      },
    })
    const provider = providerWithEnv((options) => SAMLJackson({ ...options, fetch: fake.fetch }), {
      AUTH_BOXYHQ_SAML_ID: "dummy",
      AUTH_BOXYHQ_SAML_SECRET: "dummy",
      AUTH_BOXYHQ_SAML_ISSUER: "https://jackson.acme.example/",
    }) as OAuthConfig
    const result = await signInWithCode(provider, { query: { tenant: "acme.example", product: "crm" } })
    expectSignedIn(result)
    expect(result.authorize.origin + result.authorize.pathname).toBe("https://jackson.acme.example/api/oauth/authorize")
    expect(Object.fromEntries(result.authorize.searchParams)).toMatchObject({ provider: "saml", tenant: "acme.example", product: "crm", client_id: "dummy" })
    expect(fake.only("GET https://jackson.acme.example/api/oauth/userinfo").headers.get("authorization")).toBe("Bearer jk-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@acme.example" } })
  })
})

describe("Bungie: the memberships call carries the API key, and Bungie's failures in a 200 fail the sign-in", () => {
  const MEMBERSHIPS = "GET https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/"
  function bungie(options: Parameters<typeof Bungie>[0], memberships: Record<string, unknown>) {
    const fake = fakeProvider({
      routes: {
        "POST https://www.bungie.net/platform/app/oauth/token/": () =>
          Response.json({ access_token: "bng-at", token_type: "Bearer", expires_in: 3600, refresh_token: "bng-rt", refresh_expires_in: 7776000, membership_id: "20315338" }),
        [MEMBERSHIPS]: () => Response.json(memberships),
      },
    })
    return { fake, provider: Bungie({ clientId: "bng-client", clientSecret: "bng-secret", fetch: fake.fetch, ...options }) }
  }
  const ok = {
    Response: { bungieNetUser: { membershipId: "20315338", displayName: "Ada", profilePicturePath: "/img/profile/avatars/a.gif" }, destinyMemberships: [] },
    ErrorCode: 1,
    ErrorStatus: "Success",
  }

  it("signs in with X-API-Key and the bearer token on the memberships call", async () => {
    const { fake, provider } = bungie({ apiKey: "bng-key" }, ok)
    const result = await signInWithCode(provider)
    expectSignedIn(result)
    const call = fake.only(MEMBERSHIPS)
    expect(call.headers.get("x-api-key")).toBe("bng-key")
    expect(call.headers.get("authorization")).toBe("Bearer bng-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada", image: "https://www.bungie.net/img/profile/avatars/a.gif" } })
  })

  it("takes the key from AUTH_BUNGIE_KEY for a bare factory, or from Auth.js's headers option", async () => {
    const { fake } = bungie({}, ok)
    const fromEnv = providerWithEnv((options) => Bungie({ ...options, fetch: fake.fetch }), {
      AUTH_BUNGIE_KEY: "env-key",
      AUTH_BUNGIE_ID: "bng-client",
      AUTH_BUNGIE_SECRET: "bng-secret",
    }) as OAuthConfig
    expectSignedIn(await signInWithCode(fromEnv))
    expect(fake.only(MEMBERSHIPS).headers.get("x-api-key")).toBe("env-key")
    const headers = bungie({ headers: { "X-API-Key": "header-key" } }, ok)
    expectSignedIn(await signInWithCode(headers.provider))
    expect(headers.fake.only(MEMBERSHIPS).headers.get("x-api-key")).toBe("header-key")
  })

  it("refuses the sign-in when Bungie answers 200 with an error, and signs no one in", async () => {
    const { provider } = bungie({ apiKey: "bng-key" }, { ErrorCode: 2101, ErrorStatus: "ApiInvalidOrExpiredKey", Message: "Invalid API key", Response: {} })
    const result = await signInWithCode(provider)
    expectRefused(result)
    expect(result.lines.some((line) => /ApiInvalidOrExpiredKey/.test(String(line.message[0])))).toBe(true)
    expect(await result.client.session()).toBeNull()
  })

  it("names the missing API key instead of calling Bungie without it", async () => {
    const { fake, provider } = bungie({}, ok)
    const result = await signInWithCode(provider)
    expectRefused(result)
    expect(fake.to(MEMBERSHIPS)).toEqual([])
    expect(result.lines.some((line) => /needs the application's API key/.test(String(line.message[0])))).toBe(true)
  })
})

describe.each([
  ["ClickUp", ClickUp, "https://api.clickup.com/api/v2/oauth/token", "https://api.clickup.com/api/v2/user", { user: { id: 183, username: "John Doe", email: "john@example.com", color: "#7b68ee", profilePicture: null } }, "John Doe"],
  ["Figma", Figma, "https://api.figma.com/v1/oauth/token", "https://api.figma.com/v1/me", { id: "1234", email: "ada@example.com", handle: "Ada", img_url: "https://s3-alpha.figma.com/profile/1234" }, "Ada"],
] as const)("%s: a token answer without token_type", (_name, factory, tokenUrl, userUrl, profile, name) => {
  it("is read as a bearer token, and the sign-in completes", async () => {
    const fake = fakeProvider({
      routes: {
        [`POST ${tokenUrl}`]: () => Response.json({ access_token: "untyped-at", expires_in: 7776000, refresh_token: "rt" }),
        [`GET ${userUrl}`]: () => Response.json(profile),
      },
    })
    const result = await signInWithCode(factory({ clientId: "c", clientSecret: "s", fetch: fake.fetch }))
    expectSignedIn(result)
    expect(fake.only(`GET ${userUrl}`).headers.get("authorization")).toBe("Bearer untyped-at")
    expect(await result.client.session()).toMatchObject({ user: { name } })
  })
})

describe("EVE Online: the character comes from the SSO v2 access token", () => {
  const VERIFY = "GET https://login.eveonline.com/oauth/verify"
  function eve(accessToken: string) {
    const fake = fakeProvider({
      routes: {
        "POST https://login.eveonline.com/v2/oauth/token": () => Response.json({ access_token: accessToken, token_type: "Bearer", expires_in: 1199, refresh_token: "eve-rt" }),
        [VERIFY]: () =>
          Response.json({ CharacterID: 95465499, CharacterName: "Verified Pilot", ExpiresOn: "2024-01-01T00:00:00", Scopes: "publicData", TokenType: "Character", CharacterOwnerHash: "h", IntellectualProperty: "EVE" }),
      },
    })
    return { fake, provider: EVEOnline({ clientId: "eve-client", clientSecret: "eve-secret", fetch: fake.fetch }) }
  }

  it("reads the character from the JWT the token endpoint returned, without calling /oauth/verify", async () => {
    const jwt = await key.sign({ sub: "CHARACTER:EVE:2112625428", name: "CCP Zoetrope", owner: "lTh3CSNBIRa1fXAZ8V6P7aQnSI8=", scp: ["publicData"], azp: "eve-client" }, "https://login.eveonline.com", "EVE Online")
    const { fake, provider } = eve(jwt)
    let profile: unknown
    const result = await signInWithCode(provider, { config: { callbacks: { signIn: (params) => ((profile = params.profile), true) } } })
    expectSignedIn(result)
    expect(fake.to(VERIFY)).toEqual([])
    expect(profile).toMatchObject({ CharacterID: 2112625428, CharacterName: "CCP Zoetrope", CharacterOwnerHash: "lTh3CSNBIRa1fXAZ8V6P7aQnSI8=", Scopes: "publicData", TokenType: "Character" })
    expect(await result.client.session()).toMatchObject({ user: { name: "CCP Zoetrope", image: "https://images.evetech.net/characters/2112625428/portrait?size=128" } })
  })

  it("asks /oauth/verify when the access token is not such a JWT", async () => {
    const { fake, provider } = eve("opaque-token")
    const result = await signInWithCode(provider)
    expectSignedIn(result)
    expect(fake.only(VERIFY).headers.get("authorization")).toBe("Bearer opaque-token")
    expect(await result.client.session()).toMatchObject({ user: { name: "Verified Pilot" } })
  })
})

describe("FACEIT: the profile is the userinfo's, whatever ID token the token answer carries", () => {
  it("signs in with the guid and nickname, though the ID token names an issuer the provider does not know", async () => {
    const idToken = await key.sign({ sub: "5ea07280", guid: "5ea07280" }, "https://api.faceit.com/auth", "faceitclient")
    const TOKEN = "POST https://api.faceit.com/auth/v1/oauth/token"
    const fake = fakeProvider({
      routes: {
        [TOKEN]: () => Response.json({ access_token: "fc-at", token_type: "bearer", expires_in: 3600, id_token: idToken }),
        "GET https://api.faceit.com/auth/v1/resources/userinfo": () =>
          Response.json({ guid: "5ea07280-2399", nickname: "s1mple", email: "s1mple@example.com", picture: "https://assets.faceit-cdn.net/a.jpg" }),
      },
    })
    const result = await signInWithCode(FACEIT({ clientId: "faceitclient", clientSecret: "faceitsecret", fetch: fake.fetch }))
    expectSignedIn(result)
    expect(fake.only(TOKEN).headers.get("authorization")).toBe(`Basic ${btoa("faceitclient:faceitsecret")}`)
    expect(await result.client.session()).toMatchObject({ user: { name: "s1mple", email: "s1mple@example.com" } })
  })
})

describe("Foursquare: the token answer has no type, and the profile call takes the token in the query", () => {
  it("signs in, with the secret in the form and a versioned users/self call without an Authorization header", async () => {
    const TOKEN = "POST https://foursquare.com/oauth2/access_token"
    const SELF = "GET https://api.foursquare.com/v2/users/self"
    const fake = fakeProvider({
      routes: {
        [TOKEN]: () => Response.json({ access_token: "4sq-at" }),
        [SELF]: () =>
          Response.json({ meta: { code: 200 }, response: { user: { id: "1234567", firstName: "Ada", lastName: "Lovelace", contact: { email: "ada@example.com" }, photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/ada.jpg" } } } }),
      },
    })
    const result = await signInWithCode(Foursquare({ clientId: "4sq-client", clientSecret: "4sq-secret", fetch: fake.fetch }))
    expectSignedIn(result)
    const token = fake.only(TOKEN)
    expect(token.form?.get("client_id")).toBe("4sq-client")
    expect(token.form?.get("client_secret")).toBe("4sq-secret")
    const self = fake.only(SELF)
    expect(Object.fromEntries(self.url.searchParams)).toEqual({ v: "20230131", oauth_token: "4sq-at" })
    expect(self.headers.get("authorization")).toBeNull()
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://fastly.4sqi.net/img/user/original/ada.jpg" } })
  })
})

describe("Frontegg", () => {
  const DOMAIN = "https://app-abc123.frontegg.test"
  it("signs in at the endpoints under its issuer, without asking for a discovery document", async () => {
    const server = fake({
      authorizeUrl: `${DOMAIN}/oauth/authorize`,
      tokenUrl: `${DOMAIN}/oauth/token`,
      clientAuth: "client_secret_basic",
      tokenResponse: async (grant) => {
        const idToken = await key.sign({ sub: "8a1f0c3e-0000-4000-8000-000000000001", name: "Ada Lovelace", email: "ada@frontegg.test", email_verified: true, roles: ["admin"] }, DOMAIN, CLIENT.clientId)
        return Response.json({ access_token: grant.accessToken, token_type: "Bearer", expires_in: 86400, id_token: idToken, refresh_token: "rt" })
      },
    })
    const { browser } = setUp(Frontegg({ ...CLIENT, issuer: DOMAIN, fetch: server.fetch }), server)
    expectLandedOn(await signIn(browser, "frontegg"), DASHBOARD)
    expect(server.requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual(["GET /oauth/authorize", "POST /oauth/token"])
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@frontegg.test" } })
  })
})

describe("FusionAuth", () => {
  const ISSUER = "https://auth.example.test"
  let fusionAuthKey: SigningKey
  beforeAll(async () => {
    fusionAuthKey = await signingKey("fa")
  })

  /** FusionAuth puts a WWW-Authenticate header on its token responses, errors included. */
  const challenge = { "www-authenticate": 'Bearer realm="FusionAuth"' }
  const fusionauth = () =>
    fake({
      authorizeUrl: `${ISSUER}/oauth2/authorize`,
      tokenUrl: `${ISSUER}/oauth2/token`,
      clientAuth: "client_secret_basic",
      tokenResponse: async (grant) => {
        const idToken = await fusionAuthKey.sign(
          { sub: "00000000-0000-0001-0000-000000000000", email: "richard@fusionauth.test", email_verified: true, given_name: "Richard", family_name: "Hendricks", authenticationType: "PASSWORD" },
          ISSUER,
          CLIENT.clientId,
        )
        return Response.json({ access_token: grant.accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken, refresh_token: "rt" }, { headers: challenge })
      },
      refusedCode: () => Response.json({ error: "invalid_grant", error_description: "The authorization code is invalid." }, { status: 400, headers: challenge }),
      routes: {
        [`GET ${ISSUER}/.well-known/openid-configuration`]: () =>
          Response.json({
            ...discoveryDocument(ISSUER, `${ISSUER}/oauth2`),
            jwks_uri: `${ISSUER}/.well-known/jwks.json`,
          }),
        [`GET ${ISSUER}/.well-known/jwks.json`]: () => Response.json({ keys: [fusionAuthKey.jwk] }),
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

describe("GitHub's issuer in the callback (RFC 9207)", () => {
  function gitHub() {
    const server = fakeProvider({
      routes: {
        "POST https://github.com/login/oauth/access_token": () => Response.json({ access_token: "gho_1", token_type: "bearer", scope: "read:user,user:email" }),
        "GET https://api.github.com/user": () => Response.json({ id: 1, login: "octocat", name: "The Octocat", email: "octocat@github.com", avatar_url: "https://avatars.githubusercontent.com/u/1" }),
        "GET https://api.github.com/user/emails": () => Response.json([{ email: "octocat@github.com", primary: true, verified: true, visibility: "public" }]),
      },
    })
    return GitHub({ clientId: "gh-app", clientSecret: "gh-secret", fetch: server.fetch })
  }

  it("signs in when the callback names GitHub as its issuer, as GitHub now does", async () => {
    const { adapter, location } = await signInWithCode(gitHub(), { callback: { iss: "https://github.com/login/oauth" } })
    expect(location).toBe(DASHBOARD)
    expect(await storedUser(adapter, "github", "1")).toMatchObject({ name: "The Octocat" })
  })

  it("refuses a callback that names another issuer", async () => {
    const { adapter, location } = await signInWithCode(gitHub(), { callback: { iss: "https://github.example/login/oauth" } })
    expect(location).toBe("https://app.test/auth/error?error=Configuration")
    expect(await storedUser(adapter, "github", "1")).toBeNull()
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
    const token = server.last("POST https://api.hubapi.com/oauth/v1/token")
    expect(token.headers.get("authorization")).toBeNull()
    expect(token.form?.get("client_secret")).toBe(CLIENT.clientSecret)
    expect(server.last(`GET ${TOKEN_INFO}/${server.grants[0]!.accessToken}`)).toBeDefined()
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "ada@hubspot.test", email: "ada@hubspot.test" } })
    expect(await adapter.getAccount("123", "hubspot")).toMatchObject({ provider: "hubspot" })
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
    expect(server.last("POST https://api.instagram.com/oauth/access_token").form?.get("client_secret")).toBe(CLIENT.clientSecret)
    expect(server.last("GET https://graph.instagram.com/me").url.searchParams.get("fields")).toBe("id,username,account_type,name")
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "jayposiris" } })
    expect(await adapter.getAccount("17841405793187218", "instagram")).toMatchObject({ token_type: "bearer", access_token: server.grants[0]!.accessToken })
  })
})

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

    const token = server.last("POST https://kauth.kakao.com/oauth/token")
    expect(token.headers.get("authorization")).toBeNull()
    expect(token.form?.get("client_id")).toBe(CLIENT.clientId)
    expect(token.form?.get("client_secret")).toBe(CLIENT.clientSecret)
    // An empty scope: Kakao asks for the consent items set up for the app.
    expect(server.grants[0]!.params.get("scope")).toBe("")
    expect(server.last("GET https://kapi.kakao.com/v2/user/me").headers.get("authorization")).toBe(`Bearer ${server.grants[0]!.accessToken}`)
    expect(await sessionOf(browser)).toMatchObject({
      user: { name: "라이언", email: "ryan@kakao.test", image: "https://k.kakaocdn.net/dn/ryan/img_640x640.jpg" },
    })
    expect(await adapter.getAccount("2134567890", "kakao")).toMatchObject({ type: "oauth", provider: "kakao" })
  })
})

describe("LINE", () => {
  const ISSUER = "https://access.line.me"
  let es256: SigningKey
  beforeAll(async () => {
    es256 = await signingKey("line-es256", "ES256")
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
        "GET https://api.line.me/oauth2/v2.1/certs": () => Response.json({ keys: [es256.jwk] }),
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
    expect(server.last("POST https://api.line.me/oauth2/v2.1/token").form?.has("code_verifier")).toBe(false)
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
    expect(server.last(`GET ${USERINFO}`).url.searchParams.get("access_token")).toBe(server.grants[0]!.accessToken)
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
    expect(server.last(`POST ${SERVER}/oauth/access_token`).form?.get("client_secret")).toBe(CLIENT.clientSecret)
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "ada", email: "ada@chat.test" } })
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
    const restlet = server.last(`GET ${RESTLET}`)
    expect(restlet.url.href).toBe(RESTLET)
    expect(restlet.headers.get("authorization")).toBe(`Bearer ${server.grants[0]!.accessToken}`)
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@netsuite.test" } })
    expect(await adapter.getAccount("42", "netsuite")).toMatchObject({ provider: "netsuite" })
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

    expect(server.last(`GET ${USERS}/frank%20k`).headers.get("authorization")).toBe(`Bearer ${server.grants[0]!.accessToken}`)
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

describe("Threads", () => {
  const TOKEN = "POST https://graph.threads.net/oauth/access_token"
  const ME = "GET https://graph.threads.net/v1.0/me"

  it("takes a token response without token_type, and reads the Graph API's flat user with the fields it names", async () => {
    const server = fakeProvider({
      routes: {
        [TOKEN]: () => Response.json({ access_token: "THQVJ", user_id: 17841405793187218 }),
        [ME]: () => Response.json({ id: "17841405793187218", username: "threadsapitestuser", threads_profile_picture_url: "https://scontent.cdninstagram.com/t51/1.jpg" }),
      },
    })
    const { adapter, authorize, location } = await signInWithCode(Threads({ clientId: "th-app", clientSecret: "th-secret", fetch: server.fetch }))

    expect(`${authorize.origin}${authorize.pathname}`).toBe("https://threads.net/oauth/authorize")
    expect(authorize.searchParams.get("scope")).toBe("threads_basic")
    expect(authorize.searchParams.has("code_challenge")).toBe(false)
    expect(location).toBe(DASHBOARD)
    expect(server.only(TOKEN).form?.get("client_secret")).toBe("th-secret")
    const me = server.only(ME)
    expect(me.url.searchParams.get("fields")).toBe("id,username,threads_profile_picture_url")
    expect(me.headers.get("authorization")).toBe("Bearer THQVJ")

    expect(await storedUser(adapter, "threads", "17841405793187218")).toMatchObject({ name: "threadsapitestuser", image: "https://scontent.cdninstagram.com/t51/1.jpg" })
  })
})

describe("TikTok", () => {
  const TOKEN = "POST https://open.tiktokapis.com/v2/oauth/token/"
  const USERINFO = "GET https://open.tiktokapis.com/v2/user/info/"

  it("sends the client key as client_key to the authorization page and the token endpoint, and reads the user under data.user", async () => {
    const server = fakeProvider({
      routes: {
        [TOKEN]: () => Response.json({ access_token: "act.tt", expires_in: 86400, open_id: "-000OA", refresh_token: "rft.tt", refresh_expires_in: 31536000, scope: "user.info.basic", token_type: "Bearer" }),
        [USERINFO]: () => Response.json({ data: { user: { open_id: "-000OA", avatar_url: "https://p16-sign.tiktokcdn.com/avatar.jpeg", display_name: "Tik Toker" } }, error: { code: "ok", message: "", log_id: "2022" } }),
      },
    })
    // The app's own fetch (a proxy, say) still carries every request.
    const { adapter, authorize, location } = await signInWithCode(TikTok({ clientId: "tt-key", clientSecret: "tt-secret", fetch: server.fetch }))

    expect(authorize.searchParams.get("client_key")).toBe("tt-key")
    expect(authorize.searchParams.get("scope")).toBe("user.info.basic")
    expect(location).toBe(DASHBOARD)

    const token = server.only(TOKEN)
    expect(token.form?.get("client_key")).toBe("tt-key")
    expect(token.form?.get("client_secret")).toBe("tt-secret")
    expect(token.form?.get("code")).toBe("the-code")
    expect(token.url.searchParams.get("client_key")).toBeNull()
    const userinfo = server.only(USERINFO)
    expect(userinfo.url.searchParams.get("fields")).toBe("open_id,avatar_url,display_name")
    expect(userinfo.headers.get("authorization")).toBe("Bearer act.tt")

    expect(await storedUser(adapter, "tiktok", "-000OA")).toMatchObject({ name: "Tik Toker", image: "https://p16-sign.tiktokcdn.com/avatar.jpeg", email: null })
  })
})

describe("Todoist", () => {
  it("posts the client credentials for the token, and reads the user from a sync of the user resource", async () => {
    const SYNC = "POST https://api.todoist.com/api/v1/sync"
    const TOKEN = "POST https://todoist.com/oauth/access_token"
    const server = fakeProvider({
      routes: {
        [TOKEN]: () => Response.json({ access_token: "td-at", token_type: "Bearer" }),
        [SYNC]: () => Response.json({ full_sync: true, sync_token: "TnYUZEpu", user: { id: "2671355", email: "me@example.com", full_name: "Ada Todo", avatar_big: "https://dcff1xvirvpfp.cloudfront.net/big.jpg" } }),
      },
    })
    const { adapter, authorize, location } = await signInWithCode(TodoistProvider({ clientId: "td-app", clientSecret: "td-secret", fetch: server.fetch }))
    expect(authorize.searchParams.get("scope")).toBe("data:read")
    expect(location).toBe(DASHBOARD)
    expect(server.only(TOKEN).form?.get("client_secret")).toBe("td-secret")
    const sync = server.only(SYNC)
    expect(sync.headers.get("authorization")).toBe("Bearer td-at")
    expect(sync.form?.get("sync_token")).toBe("*")
    expect(JSON.parse(sync.form?.get("resource_types") ?? "null")).toEqual(["user"])
    expect(await storedUser(adapter, "todoist", "2671355")).toMatchObject({ name: "Ada Todo", email: "me@example.com", image: "https://dcff1xvirvpfp.cloudfront.net/big.jpg" })
  })
})

describe("Trakt", () => {
  it("names the API version and the app (trakt-api-key: the client id) on the profile request", async () => {
    const ME = "GET https://api.trakt.tv/users/me"
    const server = fakeProvider({
      routes: {
        "POST https://api.trakt.tv/oauth/token": () => Response.json({ access_token: "tr-at", token_type: "bearer", expires_in: 7776000, refresh_token: "tr-rt", scope: "public", created_at: 1487889741 }),
        [ME]: () => Response.json({ username: "sean", private: false, name: "Sean Rudford", vip: true, vip_ep: false, ids: { slug: "sean" }, joined_at: "2010-09-25T17:49:25.000Z", location: "SF", about: null, gender: "male", age: 35, images: { avatar: { full: "https://walter.trakt.tv/images/users/000/000/001/avatars/large/cf4e7a2d8a.jpg" } } }),
      },
    })
    const { adapter, location } = await signInWithCode(Trakt({ clientId: "trakt-app", clientSecret: "trakt-secret", fetch: server.fetch }))
    expect(location).toBe(DASHBOARD)
    const me = server.only(ME)
    expect(me.url.searchParams.get("extended")).toBe("full")
    expect(me.headers.get("trakt-api-version")).toBe("2")
    expect(me.headers.get("trakt-api-key")).toBe("trakt-app")
    expect(me.headers.get("authorization")).toBe("Bearer tr-at")
    expect(await storedUser(adapter, "trakt", "sean")).toMatchObject({ name: "Sean Rudford", email: null })
  })
})

describe("VK", () => {
  const TOKEN = "POST https://oauth.vk.com/access_token"
  const USERS_GET = "GET https://api.vk.com/method/users.get"

  function vk(usersGet?: Route) {
    const server = fakeProvider({
      routes: {
        // The email comes with the token, and there is no token_type.
        [TOKEN]: () => Response.json({ access_token: "vk-at", expires_in: 86400, user_id: 210700286, email: "lindsey@example.ru" }),
        [USERS_GET]: usersGet ?? (() => Response.json({ response: [{ id: 210700286, first_name: "Lindsey", last_name: "Stirling", photo_100: "https://sun1-17.userapi.com/s/v1/100.jpg", can_access_closed: true, is_closed: false }] })),
      },
    })
    return { server, provider: VK({ clientId: "vk-app", clientSecret: "vk-secret", fetch: server.fetch }) }
  }

  it("names the API version, takes no PKCE, posts the client credentials, and adds the token's email to users.get's user", async () => {
    const { server, provider } = vk()
    const { adapter, authorize, location } = await signInWithCode(provider)

    expect(authorize.searchParams.get("v")).toBe("5.131")
    expect(authorize.searchParams.get("scope")).toBe("email")
    expect(authorize.searchParams.has("code_challenge")).toBe(false)
    expect(location).toBe(DASHBOARD)

    const token = server.only(TOKEN)
    expect(token.url.searchParams.get("v")).toBe("5.131")
    expect(token.form?.get("client_id")).toBe("vk-app")
    expect(token.form?.get("client_secret")).toBe("vk-secret")
    expect(token.form?.has("code_verifier")).toBe(false)
    expect(token.headers.has("authorization")).toBe(false)
    const usersGet = server.only(USERS_GET)
    expect(usersGet.url.searchParams.get("fields")).toBe("photo_100")
    expect(usersGet.headers.get("authorization")).toBe("Bearer vk-at")

    expect(await storedUser(adapter, "vk", "210700286")).toMatchObject({ name: "Lindsey Stirling", email: "lindsey@example.ru", image: "https://sun1-17.userapi.com/s/v1/100.jpg" })
  })

  it("fails the sign-in when users.get answers an API error with HTTP 200", async () => {
    const { provider } = vk(() => Response.json({ error: { error_code: 5, error_msg: "User authorization failed" } }))
    const { adapter, location } = await signInWithCode(provider)
    expect(location).toBe("https://app.test/auth/error?error=Configuration")
    expect(await storedUser(adapter, "vk", "210700286")).toBeNull()
  })
})

describe("WeChat", () => {
  const TOKEN = "POST https://api.weixin.qq.com/sns/oauth2/access_token"
  const USERINFO = "GET https://api.weixin.qq.com/sns/userinfo"
  const user = { openid: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M", nickname: "小明", sex: 0, province: "", city: "", country: "", headimgurl: "https://thirdwx.qlogo.cn/mmopen/g3Mon/132", privilege: [] }

  function weChat(options: { unionid?: string; token?: Route; userinfo?: Route; platformType?: "OfficialAccount" | "WebsiteApp" } = {}) {
    const server = fakeProvider({
      routes: {
        // No token_type, the user named by openid: as WeChat answers.
        [TOKEN]: options.token ?? (() => Response.json({ access_token: "wx-at", expires_in: 7200, refresh_token: "wx-rt", openid: user.openid, scope: "snsapi_login", ...(options.unionid && { unionid: options.unionid }) })),
        [USERINFO]: options.userinfo ?? (() => Response.json({ ...user, ...(options.unionid && { unionid: options.unionid }) })),
      },
    })
    const provider = WeChat({ clientId: "wx-app", clientSecret: "wx-secret", fetch: server.fetch, ...(options.platformType && { platformType: options.platformType }) })
    return { server, provider }
  }

  it("sends a website's user to the QR page with appid, and signs them in by their unionid", async () => {
    const { server, provider } = weChat({ unionid: "oUnion-42", platformType: "WebsiteApp" })
    const { adapter, authorize, location } = await signInWithCode(provider)

    expect(`${authorize.origin}${authorize.pathname}${authorize.hash}`).toBe("https://open.weixin.qq.com/connect/qrconnect#wechat_redirect")
    expect(authorize.searchParams.get("appid")).toBe("wx-app")
    expect(authorize.searchParams.get("scope")).toBe("snsapi_login")
    expect(authorize.searchParams.has("code_challenge")).toBe(false)
    expect(location).toBe(DASHBOARD)

    // appid and secret in the query, as WeChat reads them; the code in the form.
    const token = server.only(TOKEN)
    expect(token.url.searchParams.get("appid")).toBe("wx-app")
    expect(token.url.searchParams.get("secret")).toBe("wx-secret")
    expect(token.form?.get("code")).toBe("the-code")
    expect(token.form?.get("grant_type")).toBe("authorization_code")
    // The profile is asked for with the token and openid in the query.
    const userinfo = server.only(USERINFO)
    expect(Object.fromEntries(userinfo.url.searchParams)).toEqual({ access_token: "wx-at", openid: user.openid, lang: "zh_CN" })

    expect(await storedUser(adapter, "wechat", "oUnion-42")).toMatchObject({ name: "小明", image: user.headimgurl, email: null })
    expect(await adapter.getAccount("oUnion-42", "wechat")).toMatchObject({ access_token: "wx-at", refresh_token: "wx-rt", token_type: "bearer" })
  })

  it("asks inside WeChat (Official Account) for snsapi_userinfo, and keys a user without unionid by openid", async () => {
    const { provider } = weChat()
    const { adapter, authorize, location } = await signInWithCode(provider)
    expect(`${authorize.origin}${authorize.pathname}${authorize.hash}`).toBe("https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect")
    expect(authorize.searchParams.get("scope")).toBe("snsapi_userinfo")
    expect(location).toBe(DASHBOARD)
    expect(await storedUser(adapter, "wechat", user.openid)).toMatchObject({ name: "小明" })
  })

  it("shows a code WeChat refuses (errcode 40029 with HTTP 200) on the sign-in page, and creates no one", async () => {
    const { provider } = weChat({ token: () => Response.json({ errcode: 40029, errmsg: "invalid code, rid: 1" }) })
    const { adapter, location, lines } = await signInWithCode(provider)
    expect(location).toBe("https://app.test/auth/signin?error=OAuthCallbackError")
    expect(lines.map((line) => line.code)).toContain("OAuthCallbackError")
    expect(await storedUser(adapter, "wechat", user.openid)).toBeNull()
  })

  it("fails the sign-in when sns/userinfo answers an errcode, and never logs the token in the query", async () => {
    const { provider } = weChat({ userinfo: () => Response.json({ errcode: 40003, errmsg: "invalid openid" }) })
    const { adapter, location, lines } = await signInWithCode(provider)
    expect(location).toBe("https://app.test/auth/error?error=Configuration")
    expect(JSON.stringify(lines.map((line) => line.message.map(String)))).not.toContain("wx-at")
    expect(await storedUser(adapter, "wechat", user.openid)).toBeNull()
  })
})

describe("WorkOS", () => {
  const TOKEN = "POST https://api.workos.com/sso/token"
  const PROFILE = "GET https://api.workos.com/sso/profile"
  const profile = { object: "profile", id: "prof_01DMC79VCBZ0NY2099737PSVF1", organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY", connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5", connection_type: "OktaSAML", idp_id: "00u1a0ufowBJlzPlk357", email: "todd@example.com", first_name: "Todd", last_name: "Rundgren", raw_attributes: { picture: "https://okta.example/todd.png" } }

  it("names the connection, and takes the profile from the token response without asking /sso/profile", async () => {
    const server = fakeProvider({
      routes: {
        [TOKEN]: () => Response.json({ token_type: "Bearer", access_token: "wos-at", expires_in: 600, profile }),
        [PROFILE]: () => Response.json({ ...profile, first_name: "Wrong" }),
      },
    })
    const { adapter, authorize, location } = await signInWithCode(WorkOS({ clientId: "client_01", clientSecret: "sk_test", connection: profile.connection_id, fetch: server.fetch }))
    expect(`${authorize.origin}${authorize.pathname}`).toBe("https://api.workos.com/sso/authorize")
    expect(authorize.searchParams.get("connection")).toBe(profile.connection_id)
    expect(location).toBe(DASHBOARD)
    expect(server.only(TOKEN).form?.get("client_secret")).toBe("sk_test")
    expect(server.requests.filter((request) => request.url.pathname === "/sso/profile")).toEqual([])
    expect(await storedUser(adapter, "workos", profile.id)).toMatchObject({ name: "Todd Rundgren", email: "todd@example.com", image: "https://okta.example/todd.png" })
  })

  it("asks /sso/profile with the access token when the token response has no profile", async () => {
    const server = fakeProvider({
      routes: {
        [TOKEN]: () => Response.json({ token_type: "Bearer", access_token: "wos-at", expires_in: 600 }),
        [PROFILE]: () => Response.json(profile),
      },
    })
    const { adapter, authorize, location } = await signInWithCode(WorkOS({ clientId: "client_01", clientSecret: "sk_test", organization: profile.organization_id, fetch: server.fetch }))
    expect(authorize.searchParams.get("organization")).toBe(profile.organization_id)
    expect(authorize.searchParams.has("connection")).toBe(false)
    expect(location).toBe(DASHBOARD)
    expect(server.only(PROFILE).headers.get("authorization")).toBe("Bearer wos-at")
    expect(await storedUser(adapter, "workos", profile.id)).toMatchObject({ name: "Todd Rundgren" })
  })
})
