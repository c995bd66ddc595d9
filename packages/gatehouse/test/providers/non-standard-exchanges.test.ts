/**
 * Whole sign-ins through `Auth()` with the providers whose token or userinfo exchange is not the
 * standard one. Each provider's endpoints are answered by a fake of that provider, reached
 * through the provider's own `fetch` option (which is also how an app would put a proxy in
 * front of it): the fake checks what the provider wants to receive and answers the way the
 * provider does, and the test looks at the requests and at the session that results.
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { beforeAll, describe, expect, it } from "vitest"
import { providerWithEnv } from "../../src/env.js"
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
import type { AuthConfig, OAuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret, type RecordedLine } from "../flow/flow-helpers.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`

/** One request the fake provider received. */
interface Seen {
  url: URL
  method: string
  headers: Headers
  /** The form body of a POST. */
  form: URLSearchParams | undefined
}

/** What the fake answers a request with; `undefined` is a 404. */
type Route = (request: Seen) => Response | undefined | Promise<Response | undefined>

/** A fetch that answers like the provider and records every request. */
function fakeProvider(route: Route): { fetch: typeof fetch; seen: Seen[]; at: (path: string) => Seen[] } {
  const seen: Seen[] = []
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const body = init?.body
    const form = body instanceof URLSearchParams ? new URLSearchParams(body) : typeof body === "string" ? new URLSearchParams(body) : undefined
    const request = { url, method: (init?.method ?? "GET").toUpperCase(), headers: new Headers(init?.headers), form }
    seen.push(request)
    return (await route(request)) ?? new Response("not found", { status: 404 })
  }
  return { fetch: fetchImpl as typeof fetch, seen, at: (path) => seen.filter((request) => request.url.pathname === path) }
}

interface SignIn {
  client: Client
  /** The URL the browser was sent to at the provider. */
  authorize: URL
  /** The callback's response. */
  back: Response
  lines: RecordedLine[]
}

/** Clicks "Sign in with …", comes back from the provider with `code` and the state it was given. */
async function signIn(provider: OAuthConfig, config: Partial<AuthConfig> = {}, query = ""): Promise<SignIn> {
  const { logger, lines } = recordingLogger()
  const client = new Client({ secret, trustHost: true, logger, providers: [provider], ...config } as AuthConfig)
  const start = await client.postForm(`signin/${provider.id}${query}`, { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
  expect(start.status, `the sign-in start answered ${start.status}`).toBe(302)
  const authorize = new URL(start.headers.get("location")!)
  const state = authorize.searchParams.get("state")
  const back = await client.get(`callback/${provider.id}?${new URLSearchParams({ code: "the-code", ...(state && { state }) })}`)
  return { client, authorize, back, lines }
}

function expectSignedIn({ back, lines }: SignIn): void {
  const failures = lines.filter((line) => line.level === "error" || (line.level === "warn" && /^[A-Z]/.test(line.code)))
  expect(failures.map((line) => `${line.code}: ${String(line.message[0])}`)).toEqual([])
  expect(back.headers.get("location")).toBe(DASHBOARD)
}

function expectRefused({ back }: SignIn, error = "Configuration"): void {
  expect(back.headers.get("location")).toBe(`${APP}/auth/error?error=${error}`)
}

let privateKey: CryptoKey
let jwk: Record<string, unknown>

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true })
  privateKey = pair.privateKey as CryptoKey
  jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" }
})

/** A JWT as an OpenID provider signs it (RS256, kid `k1`), valid for five minutes. */
function signed(claims: Record<string, unknown>, issuer: string, audience: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer(issuer).setAudience(audience).setIssuedAt().setExpirationTime("5m").sign(privateKey)
}

/** An OpenID provider's discovery document for `issuer`, its endpoints under `base`. */
function discovery(issuer: string, base: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    userinfo_endpoint: `${base}/userinfo`,
    jwks_uri: `${base}/keys`,
    id_token_signing_alg_values_supported: ["RS256"],
  }
}

describe("Azure DevOps: the code is redeemed as a JWT-bearer assertion, with the secret as the client assertion", () => {
  const PROFILE = "/_apis/profile/profiles/me"
  function azureDevOps() {
    const fake = fakeProvider(({ url }) => {
      if (url.pathname === "/oauth2/token") {
        // Azure DevOps's answer: its own token type, and expires_in as a string.
        return Response.json({ access_token: "ado-at", token_type: "jwt-bearer", expires_in: "3599", refresh_token: "ado-rt", scope: "vso.profile" })
      }
      if (url.pathname === PROFILE) {
        return Response.json({ id: "8d3a8e36-5c6b", displayName: "Ada Lovelace", emailAddress: "ada@example.com", coreAttributes: { Avatar: { value: { value: "iVBORw0KGgo=" } } } })
      }
      return undefined
    })
    const provider = AzureDevOpsProvider({ clientId: "ado-app", clientSecret: "eyJ0eXAi.app-secret.sig", fetch: fake.fetch })
    return { fake, provider }
  }

  it("signs in, sending the assertion grant Azure DevOps takes and reading its jwt-bearer token", async () => {
    const { fake, provider } = azureDevOps()
    const result = await signIn(provider)
    expectSignedIn(result)

    expect(result.authorize.origin + result.authorize.pathname).toBe("https://app.vssps.visualstudio.com/oauth2/authorize")
    expect(Object.fromEntries(result.authorize.searchParams)).toMatchObject({ response_type: "Assertion", client_id: "ado-app", scope: "vso.profile" })
    expect(result.authorize.searchParams.has("code_challenge")).toBe(false)

    const [token, ...more] = fake.at("/oauth2/token")
    expect(more).toEqual([])
    expect(token!.url.origin).toBe("https://app.vssps.visualstudio.com")
    expect(Object.fromEntries(token!.form!)).toEqual({
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "eyJ0eXAi.app-secret.sig",
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: "the-code",
      redirect_uri: `${APP}/auth/callback/azure-devops`,
    })
    expect(token!.headers.get("authorization")).toBeNull()
    expect(fake.at(PROFILE)[0]!.headers.get("authorization")).toBe("Bearer ado-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com", image: "data:image/jpeg;base64,iVBORw0KGgo=" } })
  })

  it("sends a refresh grant the same way, and leaves other requests alone", async () => {
    const { fake, provider } = azureDevOps()
    await provider.fetch!("https://app.vssps.visualstudio.com/oauth2/token", {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "ado-rt", client_id: "ado-app", client_secret: "eyJ0eXAi.app-secret.sig" }),
    })
    expect(Object.fromEntries(fake.seen[0]!.form!)).toEqual({
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "eyJ0eXAi.app-secret.sig",
      grant_type: "refresh_token",
      assertion: "ado-rt",
    })
    await provider.fetch!("https://app.vssps.visualstudio.com/other", { method: "POST", body: new URLSearchParams({ a: "b" }) })
    expect(Object.fromEntries(fake.seen[1]!.form!)).toEqual({ a: "b" })
  })
})

describe("Bungie: the memberships call carries the API key, and Bungie's failures in a 200 fail the sign-in", () => {
  const MEMBERSHIPS = "/Platform/User/GetMembershipsForCurrentUser/"
  function bungie(options: Parameters<typeof Bungie>[0], memberships: Record<string, unknown>) {
    const fake = fakeProvider(({ url }) => {
      if (url.pathname === "/platform/app/oauth/token/") {
        return Response.json({ access_token: "bng-at", token_type: "Bearer", expires_in: 3600, refresh_token: "bng-rt", refresh_expires_in: 7776000, membership_id: "20315338" })
      }
      return url.pathname === MEMBERSHIPS ? Response.json(memberships) : undefined
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
    const result = await signIn(provider)
    expectSignedIn(result)
    const [call] = fake.at(MEMBERSHIPS)
    expect(call!.headers.get("x-api-key")).toBe("bng-key")
    expect(call!.headers.get("authorization")).toBe("Bearer bng-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada", image: "https://www.bungie.net/img/profile/avatars/a.gif" } })
  })

  it("takes the key from AUTH_BUNGIE_KEY for a bare factory, or from Auth.js's headers option", async () => {
    const { fake } = bungie({}, ok)
    const fromEnv = providerWithEnv((options) => Bungie({ ...options, fetch: fake.fetch }), {
      AUTH_BUNGIE_KEY: "env-key",
      AUTH_BUNGIE_ID: "bng-client",
      AUTH_BUNGIE_SECRET: "bng-secret",
    }) as OAuthConfig
    expectSignedIn(await signIn(fromEnv))
    expect(fake.at(MEMBERSHIPS)[0]!.headers.get("x-api-key")).toBe("env-key")
    const headers = bungie({ headers: { "X-API-Key": "header-key" } }, ok)
    expectSignedIn(await signIn(headers.provider))
    expect(headers.fake.at(MEMBERSHIPS)[0]!.headers.get("x-api-key")).toBe("header-key")
  })

  it("refuses the sign-in when Bungie answers 200 with an error, and signs no one in", async () => {
    const { provider } = bungie({ apiKey: "bng-key" }, { ErrorCode: 2101, ErrorStatus: "ApiInvalidOrExpiredKey", Message: "Invalid API key", Response: {} })
    const result = await signIn(provider)
    expectRefused(result)
    expect(result.lines.some((line) => /ApiInvalidOrExpiredKey/.test(String(line.message[0])))).toBe(true)
    expect(await result.client.session()).toBeNull()
  })

  it("names the missing API key instead of calling Bungie without it", async () => {
    const { fake, provider } = bungie({}, ok)
    const result = await signIn(provider)
    expectRefused(result)
    expect(fake.at(MEMBERSHIPS)).toEqual([])
    expect(result.lines.some((line) => /needs the application's API key/.test(String(line.message[0])))).toBe(true)
  })
})

describe("Foursquare: the token answer has no type, and the profile call takes the token in the query", () => {
  it("signs in, with the secret in the form and a versioned users/self call without an Authorization header", async () => {
    const fake = fakeProvider(({ url }) => {
      if (url.pathname === "/oauth2/access_token") return Response.json({ access_token: "4sq-at" })
      if (url.pathname === "/v2/users/self") {
        return Response.json({ meta: { code: 200 }, response: { user: { id: "1234567", firstName: "Ada", lastName: "Lovelace", contact: { email: "ada@example.com" }, photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/ada.jpg" } } } })
      }
      return undefined
    })
    const result = await signIn(Foursquare({ clientId: "4sq-client", clientSecret: "4sq-secret", fetch: fake.fetch }))
    expectSignedIn(result)
    const [token] = fake.at("/oauth2/access_token")
    expect(token!.form?.get("client_id")).toBe("4sq-client")
    expect(token!.form?.get("client_secret")).toBe("4sq-secret")
    const [self] = fake.at("/v2/users/self")
    expect(self!.url.origin).toBe("https://api.foursquare.com")
    expect(Object.fromEntries(self!.url.searchParams)).toEqual({ v: "20230131", oauth_token: "4sq-at" })
    expect(self!.headers.get("authorization")).toBeNull()
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com", image: "https://fastly.4sqi.net/img/user/original/ada.jpg" } })
  })
})

describe.each([
  ["ClickUp", ClickUp, "/api/v2/oauth/token", "/api/v2/user", { user: { id: 183, username: "John Doe", email: "john@example.com", color: "#7b68ee", profilePicture: null } }, "John Doe"],
  ["Figma", Figma, "/v1/oauth/token", "/v1/me", { id: "1234", email: "ada@example.com", handle: "Ada", img_url: "https://s3-alpha.figma.com/profile/1234" }, "Ada"],
] as const)("%s: a token answer without token_type", (_name, factory, tokenPath, userPath, profile, name) => {
  it("is read as a bearer token, and the sign-in completes", async () => {
    const fake = fakeProvider(({ url }) => {
      if (url.pathname === tokenPath) return Response.json({ access_token: "untyped-at", expires_in: 7776000, refresh_token: "rt" })
      return url.pathname === userPath ? Response.json(profile) : undefined
    })
    const result = await signIn(factory({ clientId: "c", clientSecret: "s", fetch: fake.fetch }))
    expectSignedIn(result)
    expect(fake.at(userPath)[0]!.headers.get("authorization")).toBe("Bearer untyped-at")
    expect(await result.client.session()).toMatchObject({ user: { name } })
  })
})

describe("Battle.net: a regional issuer", () => {
  const ISSUER = "https://eu.battle.net/oauth"
  function battleNet(issuerInToken = ISSUER) {
    const fake = fakeProvider(async ({ url }) => {
      if (url.href === `${ISSUER}/.well-known/openid-configuration`) return Response.json(discovery(ISSUER, ISSUER))
      if (url.href === `${ISSUER}/keys`) return Response.json({ keys: [jwk] })
      if (url.href === `${ISSUER}/token`) {
        const idToken = await signed({ sub: "100000001", battle_tag: "Ada#1815" }, issuerInToken, "bnet-client")
        return Response.json({ access_token: "bnet-at", token_type: "bearer", expires_in: 86399, id_token: idToken })
      }
      return undefined
    })
    return { fake, provider: BattleNet({ clientId: "bnet-client", clientSecret: "bnet-secret", issuer: ISSUER, fetch: fake.fetch }) }
  }

  it("is discovered under the region, with state and PKCE as in Auth.js, and the BattleTag is the name", async () => {
    const { fake, provider } = battleNet()
    const result = await signIn(provider)
    expectSignedIn(result)
    expect(fake.seen[0]!.url.href).toBe(`${ISSUER}/.well-known/openid-configuration`)
    expect(result.authorize.origin + result.authorize.pathname).toBe(`${ISSUER}/authorize`)
    expect(result.authorize.searchParams.get("state")).toBeTruthy()
    expect(result.authorize.searchParams.get("code_challenge_method")).toBe("S256")
    expect(result.authorize.searchParams.has("nonce")).toBe(false)
    expect(fake.at("/oauth/token")[0]!.form?.get("code_verifier")).toBeTruthy()
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada#1815" } })
  })

  it("refuses an ID token naming another region's issuer", async () => {
    const result = await signIn(battleNet("https://us.battle.net/oauth").provider)
    expectRefused(result)
    expect(await result.client.session()).toBeNull()
  })
})

describe("Azure AD B2C: a user flow's metadata names the tenant's issuer, not the flow's authority", () => {
  const HOST = "https://contoso.b2clogin.com"
  const AUTHORITY = `${HOST}/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0`
  const TENANT_ISSUER = `${HOST}/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/`
  function b2c(issuerInToken: string) {
    const fake = fakeProvider(async ({ url }) => {
      const flow = `${HOST}/contoso.onmicrosoft.com/B2C_1_signupsignin`
      if (url.href === `${AUTHORITY}/.well-known/openid-configuration`) {
        return Response.json({ ...discovery(TENANT_ISSUER, `${flow}/oauth2/v2.0`), jwks_uri: `${flow}/discovery/v2.0/keys` })
      }
      if (url.href === `${flow}/discovery/v2.0/keys`) return Response.json({ keys: [jwk] })
      if (url.href === `${flow}/oauth2/v2.0/token`) {
        const idToken = await signed({ sub: "8d3a8e36", name: "Ada Lovelace", emails: ["ada@example.com"], tfp: "B2C_1_signupsignin" }, issuerInToken, "b2c-client")
        return Response.json({ id_token: idToken, access_token: "b2c-at", token_type: "Bearer", expires_in: 3600 })
      }
      return undefined
    })
    return { fake, provider: AzureADB2C({ clientId: "b2c-client", clientSecret: "b2c-secret", tenantId: "contoso", primaryUserFlow: "B2C_1_signupsignin", fetch: fake.fetch }) }
  }

  it("signs in with an ID token from the tenant's issuer, discovered under the user flow", async () => {
    const { fake, provider } = b2c(TENANT_ISSUER)
    const result = await signIn(provider)
    expectSignedIn(result)
    expect(fake.seen[0]!.url.href).toBe(`${AUTHORITY}/.well-known/openid-configuration`)
    expect(result.authorize.pathname).toBe("/contoso.onmicrosoft.com/B2C_1_signupsignin/oauth2/v2.0/authorize")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
  })

  it("refuses an ID token naming any other issuer", async () => {
    const result = await signIn(b2c(`${HOST}/00000000-0000-0000-0000-000000000000/v2.0/`).provider)
    expectRefused(result)
    expect(await result.client.session()).toBeNull()
  })
})

describe("BankID Norway: the profile is a signed userinfo JWT", () => {
  const ISSUER = "https://auth.bankid.no/auth/realms/prod"
  const BASE = `${ISSUER}/protocol/openid-connect`
  /** The userinfo answer: a JWT about `subject`, or plain JSON when `asJson`. */
  function bankId(userinfo: { subject?: string; asJson?: boolean } = {}) {
    let sentNonce = ""
    const fake = fakeProvider(async ({ url }) => {
      if (url.href === `${ISSUER}/.well-known/openid-configuration`) return Response.json(discovery(ISSUER, BASE))
      if (url.href === `${BASE}/keys`) return Response.json({ keys: [jwk] })
      if (url.href === `${BASE}/token`) {
        const idToken = await signed({ sub: "9578-6000-4-365161", nonce: sentNonce, amr: "BIS" }, ISSUER, "bankid-client")
        return Response.json({ access_token: "bid-at", token_type: "Bearer", expires_in: 300, id_token: idToken })
      }
      if (url.href === `${BASE}/userinfo`) {
        const claims = { sub: userinfo.subject ?? "9578-6000-4-365161", name: "Ada Lovelace", email: "ada@example.no" }
        if (userinfo.asJson) return Response.json(claims)
        return new Response(await signed(claims, ISSUER, "bankid-client"), { headers: { "content-type": "application/jwt" } })
      }
      return undefined
    })
    const provider = BankIDNorway({ clientId: "bankid-client", clientSecret: "bankid-secret", fetch: fake.fetch })
    return { fake, provider, remember: (nonce: string) => void (sentNonce = nonce) }
  }

  async function run(setup: ReturnType<typeof bankId>): Promise<SignIn> {
    const { logger, lines } = recordingLogger()
    const client = new Client({ secret, trustHost: true, logger, providers: [setup.provider] } as AuthConfig)
    const start = await client.postForm("signin/bankid-no", { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
    const authorize = new URL(start.headers.get("location")!)
    setup.remember(authorize.searchParams.get("nonce") ?? "")
    const back = await client.get(`callback/bankid-no?${new URLSearchParams({ code: "c", state: authorize.searchParams.get("state")! })}`)
    return { client, authorize, back, lines }
  }

  it("signs in with the userinfo JWT's claims, the secret in the form, and PKCE, state and nonce", async () => {
    const setup = bankId()
    const result = await run(setup)
    expectSignedIn(result)
    expect(Object.fromEntries(result.authorize.searchParams)).toMatchObject({ ui_locales: "no", login_hint: "BIS", code_challenge_method: "S256" })
    expect(result.authorize.searchParams.get("nonce")).toBeTruthy()
    const [token] = setup.fake.at("/auth/realms/prod/protocol/openid-connect/token")
    expect(token!.form?.get("client_secret")).toBe("bankid-secret")
    expect(token!.headers.get("authorization")).toBeNull()
    expect(setup.fake.at("/auth/realms/prod/protocol/openid-connect/userinfo")[0]!.headers.get("authorization")).toBe("Bearer bid-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.no" } })
  })

  it("refuses a userinfo answer that is not a JWT, or that is about someone else", async () => {
    for (const userinfo of [{ asJson: true }, { subject: "9578-6000-4-000000" }]) {
      const result = await run(bankId(userinfo))
      expectRefused(result)
      expect(await result.client.session()).toBeNull()
    }
  })
})

describe("BoxyHQ SAML: Jackson's endpoints are under the issuer", () => {
  it("signs in through the endpoints built from AUTH_BOXYHQ_SAML_ISSUER, passing tenant and product on", async () => {
    const fake = fakeProvider(({ url }) => {
      if (url.href === "https://jackson.acme.example/api/oauth/token") return Response.json({ access_token: "jk-at", token_type: "bearer", expires_in: 300 })
      if (url.href === "https://jackson.acme.example/api/oauth/userinfo") {
        return Response.json({ id: "ada@acme.example", email: "ada@acme.example", firstName: "Ada", lastName: "Lovelace", requested: { tenant: "acme.example", product: "crm" } })
      }
      return undefined
    })
    const provider = providerWithEnv((options) => SAMLJackson({ ...options, fetch: fake.fetch }), {
      AUTH_BOXYHQ_SAML_ID: "dummy",
      AUTH_BOXYHQ_SAML_SECRET: "dummy",
      AUTH_BOXYHQ_SAML_ISSUER: "https://jackson.acme.example/",
    }) as OAuthConfig
    const result = await signIn(provider, {}, "?tenant=acme.example&product=crm")
    expectSignedIn(result)
    expect(result.authorize.origin + result.authorize.pathname).toBe("https://jackson.acme.example/api/oauth/authorize")
    expect(Object.fromEntries(result.authorize.searchParams)).toMatchObject({ provider: "saml", tenant: "acme.example", product: "crm", client_id: "dummy" })
    expect(fake.at("/api/oauth/userinfo")[0]!.headers.get("authorization")).toBe("Bearer jk-at")
    expect(await result.client.session()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@acme.example" } })
  })
})

describe("EVE Online: the character comes from the SSO v2 access token", () => {
  function eve(accessToken: string) {
    const fake = fakeProvider(({ url }) => {
      if (url.href === "https://login.eveonline.com/v2/oauth/token") return Response.json({ access_token: accessToken, token_type: "Bearer", expires_in: 1199, refresh_token: "eve-rt" })
      if (url.href === "https://login.eveonline.com/oauth/verify") {
        return Response.json({ CharacterID: 95465499, CharacterName: "Verified Pilot", ExpiresOn: "2024-01-01T00:00:00", Scopes: "publicData", TokenType: "Character", CharacterOwnerHash: "h", IntellectualProperty: "EVE" })
      }
      return undefined
    })
    return { fake, provider: EVEOnline({ clientId: "eve-client", clientSecret: "eve-secret", fetch: fake.fetch }) }
  }

  it("reads the character from the JWT the token endpoint returned, without calling /oauth/verify", async () => {
    const jwt = await signed({ sub: "CHARACTER:EVE:2112625428", name: "CCP Zoetrope", owner: "lTh3CSNBIRa1fXAZ8V6P7aQnSI8=", scp: ["publicData"], azp: "eve-client" }, "https://login.eveonline.com", "EVE Online")
    const { fake, provider } = eve(jwt)
    let profile: unknown
    const result = await signIn(provider, { callbacks: { signIn: (params) => ((profile = params.profile), true) } })
    expectSignedIn(result)
    expect(fake.at("/oauth/verify")).toEqual([])
    expect(profile).toMatchObject({ CharacterID: 2112625428, CharacterName: "CCP Zoetrope", CharacterOwnerHash: "lTh3CSNBIRa1fXAZ8V6P7aQnSI8=", Scopes: "publicData", TokenType: "Character" })
    expect(await result.client.session()).toMatchObject({ user: { name: "CCP Zoetrope", image: "https://images.evetech.net/characters/2112625428/portrait?size=128" } })
  })

  it("asks /oauth/verify when the access token is not such a JWT", async () => {
    const { fake, provider } = eve("opaque-token")
    const result = await signIn(provider)
    expectSignedIn(result)
    expect(fake.at("/oauth/verify")[0]!.headers.get("authorization")).toBe("Bearer opaque-token")
    expect(await result.client.session()).toMatchObject({ user: { name: "Verified Pilot" } })
  })
})

describe("FACEIT: the profile is the userinfo's, whatever ID token the token answer carries", () => {
  it("signs in with the guid and nickname, though the ID token names an issuer the provider does not know", async () => {
    const idToken = await signed({ sub: "5ea07280", guid: "5ea07280" }, "https://api.faceit.com/auth", "faceitclient")
    const fake = fakeProvider(({ url }) => {
      if (url.pathname === "/auth/v1/oauth/token") return Response.json({ access_token: "fc-at", token_type: "bearer", expires_in: 3600, id_token: idToken })
      if (url.pathname === "/auth/v1/resources/userinfo") return Response.json({ guid: "5ea07280-2399", nickname: "s1mple", email: "s1mple@example.com", picture: "https://assets.faceit-cdn.net/a.jpg" })
      return undefined
    })
    const result = await signIn(FACEIT({ clientId: "faceitclient", clientSecret: "faceitsecret", fetch: fake.fetch }))
    expectSignedIn(result)
    expect(fake.at("/auth/v1/oauth/token")[0]!.headers.get("authorization")).toBe(`Basic ${btoa("faceitclient:faceitsecret")}`)
    expect(await result.client.session()).toMatchObject({ user: { name: "s1mple", email: "s1mple@example.com" } })
  })
})
