/**
 * An in-process imitation of an OAuth 2 provider, answering at the provider's own https URLs, and
 * the two ways a test signs in against it. A catalogue provider is signed in with as shipped, its
 * endpoints and hooks untouched; each quirk of the real provider (how the client must
 * authenticate, what the token response lacks, where and how the profile is served) is imitated by
 * the test's routes, and every request is recorded for the test to look at.
 *
 * - {@link fakeProvider} with an `exchange`: the provider's authorization endpoint approves at once
 *   and its token endpoint redeems the code it issued, checking the client credentials (only in
 *   the way the provider takes them), the code (single use), the redirect URI and PKCE; OAuth
 *   errors are answered 400. A test drives it with the test Browser (`origins`), the whole round
 *   trip included.
 * - {@link fakeProvider} with routes alone, the token endpoint among them, for an exchange that is
 *   not the standard one (an assertion grant, credentials in the query, a token in the path…). A
 *   test drives it with {@link signInWithCode}, which makes up the provider's callback.
 *
 * Either way the provider's `fetch` option (how an app would put a proxy in front of it) is
 * `fake.fetch`, so no request leaves the process.
 */
import { createHash, randomBytes } from "node:crypto"
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { expect } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { AuthConfig, OAuthConfig } from "../../src/types.js"
import type { Handler } from "../support/browser.js"
import { Client, recordingLogger, secret, type RecordedLine } from "../flow/flow-helpers.js"

/** One request the provider received. */
export interface FakeRequest {
  method: string
  url: URL
  headers: Headers
  /** The form body of a POST. */
  form: URLSearchParams | undefined
}

/** A code the authorization endpoint issued, and the access token it was redeemed for. */
export interface Grant {
  /** The authorization request's parameters. */
  params: URLSearchParams
  code: string
  accessToken: string
  /** Whether the token endpoint has redeemed the code. */
  redeemed: boolean
}

/** Answers one request; `grant` is the grant whose access token the request carries as a bearer token, if any. */
export type Route = (request: FakeRequest, grant: Grant | undefined) => Response | Promise<Response>

/** The standard authorization code exchange, answered by the imitation itself. */
export interface FakeExchange {
  clientId: string
  clientSecret: string
  /** The authorization endpoint, as the provider's configuration names it. */
  authorizeUrl: string
  /** The token endpoint. */
  tokenUrl: string
  /** The one way of client authentication the token endpoint takes. */
  clientAuth: "client_secret_basic" | "client_secret_post"
  /** The token endpoint's answer to a good code. Default: `access_token`, `token_type: "bearer"`, `expires_in`, `scope`. */
  tokenResponse?: (grant: Grant) => Response | Promise<Response>
  /** The token endpoint's answer to a refused code. Default: 400 `invalid_grant`. */
  refusedCode?: () => Response
}

export interface FakeProviderOptions {
  /** The authorization and token endpoints, for a test that goes through them in a browser. */
  exchange?: FakeExchange
  /**
   * Every other URL it answers, as `METHOD https://host/path` (matched without the query), or
   * `METHOD https://host/path/*` for every path below.
   */
  routes?: Record<string, Route>
}

export interface FakeProvider {
  /** The origins it answers, for the Browser's `origins`. */
  origins: Record<string, Handler>
  /** For the provider's `fetch` option: every request goes to this imitation (404 for unknown URLs). */
  fetch: typeof fetch
  /** Every request, oldest first. */
  requests: FakeRequest[]
  /** Every code the authorization endpoint issued, oldest first. */
  grants: Grant[]
  /** The requests to `METHOD https://host/path` (the query ignored), oldest first. */
  to(key: string): FakeRequest[]
  /** The one request to `METHOD https://host/path`; fails when there is none, or more than one. */
  only(key: string): FakeRequest
  /** The last request to `METHOD https://host/path`; fails when there is none. */
  last(key: string): FakeRequest
  /** The grant whose access token is `token`. */
  grantOf(token: string | null | undefined): Grant | undefined
}

const oauthError = (error: string, status = 400) => Response.json({ error, error_description: `${error} (fake provider)` }, { status })

export function fakeProvider({ exchange, routes: given = {} }: FakeProviderOptions): FakeProvider {
  const requests: FakeRequest[] = []
  const grants: Grant[] = []
  const routes = new Map<string, Route>()
  for (const [key, route] of Object.entries(given)) routes.set(withoutQuery(key), route)
  if (exchange) {
    routes.set(withoutQuery(`GET ${exchange.authorizeUrl}`), (request) => authorize(exchange, request))
    routes.set(withoutQuery(`POST ${exchange.tokenUrl}`), (request) => token(exchange, request))
  }
  const grantOf = (token: string | null | undefined) => (token ? grants.find((grant) => grant.accessToken === token) : undefined)

  function authorize(options: FakeExchange, request: FakeRequest): Response {
    const params = request.url.searchParams
    const redirectUri = params.get("redirect_uri")
    if (params.get("client_id") !== options.clientId || !redirectUri) return new Response("unknown client or redirect_uri", { status: 400 })
    const grant: Grant = { params, code: randomBytes(12).toString("hex"), accessToken: `at-${randomBytes(12).toString("hex")}`, redeemed: false }
    grants.push(grant)
    const back = new URL(redirectUri)
    back.searchParams.set("code", grant.code)
    const state = params.get("state")
    if (state !== null) back.searchParams.set("state", state)
    return new Response(null, { status: 302, headers: { location: back.href } })
  }

  async function token(options: FakeExchange, request: FakeRequest): Promise<Response> {
    const form = request.form ?? new URLSearchParams()
    const basic = /^basic (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]
    const credentials =
      options.clientAuth === "client_secret_basic"
        ? basic === undefined
          ? undefined
          : Buffer.from(basic, "base64").toString("utf8").split(":").map((part) => decodeURIComponent(part.replace(/\+/g, " ")))
        : basic === undefined
          ? [form.get("client_id"), form.get("client_secret")]
          : undefined
    if (!credentials || credentials[0] !== options.clientId || credentials[1] !== options.clientSecret) return oauthError("invalid_client", 401)
    const grant = grants.find((candidate) => candidate.code === form.get("code"))
    if (form.get("grant_type") !== "authorization_code" || !grant || grant.redeemed) return options.refusedCode?.() ?? oauthError("invalid_grant")
    grant.redeemed = true
    if (form.get("redirect_uri") !== grant.params.get("redirect_uri")) return oauthError("invalid_grant")
    const challenge = grant.params.get("code_challenge")
    if (challenge !== null) {
      const verifier = form.get("code_verifier") ?? ""
      if (createHash("sha256").update(verifier).digest("base64url") !== challenge) return oauthError("invalid_grant")
    }
    if (options.tokenResponse) return options.tokenResponse(grant)
    return Response.json({ access_token: grant.accessToken, token_type: "bearer", expires_in: 3600, scope: grant.params.get("scope") ?? "" })
  }

  async function handle(raw: Request): Promise<Response> {
    const url = new URL(raw.url)
    const form = raw.method === "POST" ? new URLSearchParams(await raw.text()) : undefined
    const request: FakeRequest = { method: raw.method, url, headers: new Headers(raw.headers), form }
    requests.push(request)
    const key = withoutQuery(`${raw.method} ${url.href}`)
    const route = routes.get(key) ?? [...routes].find(([pattern]) => pattern.endsWith("/*") && key.startsWith(pattern.slice(0, -1)))?.[1]
    if (!route) return new Response("not found", { status: 404 })
    return route(request, grantOf(/^bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]))
  }

  const to = (key: string) => requests.filter((request) => withoutQuery(`${request.method} ${request.url.href}`) === withoutQuery(key))
  const origins: Record<string, Handler> = {}
  for (const key of routes.keys()) origins[new URL(key.split(" ")[1]!).origin] = handle

  return {
    origins,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init))) as typeof fetch,
    requests,
    grants,
    to,
    only(key) {
      const matching = to(key)
      if (matching.length !== 1) throw new Error(`the fake provider received ${matching.length} requests to ${key}, not one`)
      return matching[0]!
    },
    last(key) {
      const match = to(key).at(-1)
      if (!match) throw new Error(`the fake provider received no ${key}`)
      return match
    },
    grantOf,
  }
}

/** `METHOD https://host/path?query` without its query (and fragment); the `/*` of a pattern is kept. */
function withoutQuery(key: string): string {
  const [method, href] = key.split(" ")
  const url = new URL(href!)
  return `${method} ${url.origin}${url.pathname}`
}

/** The app the sign-ins run on, and where they ask to land. */
export const APP = "https://app.test"
export const DASHBOARD = `${APP}/dashboard`

/** What {@link signInWithCode} saw. */
export interface CodeSignIn {
  /** The app's database (sessions are database sessions). */
  adapter: ReturnType<typeof MemoryAdapter>
  /** The browser-like client, its cookies included. */
  client: Client
  /** The URL the sign-in sent the user to at the provider. */
  authorize: URL
  /** The callback's response. */
  back: Response
  /** Where the callback sent the user. */
  location: string | null
  lines: RecordedLine[]
}

export interface CodeSignInOptions {
  /** More of the app's configuration. */
  config?: Partial<AuthConfig>
  /** The sign-in request's query (forwarded to the provider). */
  query?: Record<string, string>
  /** What the provider's callback carries besides `code` (`the-code`) and the `state` it was sent. */
  callback?: Record<string, string>
  /** Called with the authorization URL before the callback, as the provider would have seen it. */
  onAuthorize?: (authorize: URL) => void
}

/**
 * Clicks "Sign in with …" on an app with a memory adapter, and comes back from the provider with
 * the code `the-code` and the state it was sent: the provider itself is reached only through its
 * `fetch`, from the token request on.
 */
export async function signInWithCode(provider: OAuthConfig, options: CodeSignInOptions = {}): Promise<CodeSignIn> {
  const adapter = MemoryAdapter()
  const { logger, lines } = recordingLogger()
  const client = new Client({ secret, trustHost: true, logger, adapter, providers: [provider], ...options.config } as AuthConfig)
  const query = options.query ? `?${new URLSearchParams(options.query)}` : ""
  const start = await client.postForm(`signin/${provider.id}${query}`, { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
  expect(start.status, `the sign-in start answered ${start.status}`).toBe(302)
  const authorize = new URL(start.headers.get("location")!)
  const state = authorize.searchParams.get("state")
  expect(state, "the authorization request carries a state").toBeTruthy()
  options.onAuthorize?.(authorize)
  const back = await client.get(`callback/${provider.id}?${new URLSearchParams({ code: "the-code", state: state!, ...options.callback })}`)
  return { adapter, client, authorize, back, location: back.headers.get("location"), lines }
}

/** Asserts the sign-in ended where it asked to, with nothing logged as an error or a warning. */
export function expectSignedIn({ location, lines }: CodeSignIn): void {
  const failures = lines.filter((line) => line.level === "error" || (line.level === "warn" && /^[A-Z]/.test(line.code)))
  expect(failures.map((line) => `${line.code}: ${String(line.message[0])}`)).toEqual([])
  expect(location).toBe(DASHBOARD)
}

/** Asserts the sign-in ended on the error page, with `error`. */
export function expectRefused({ location }: CodeSignIn, error = "Configuration"): void {
  expect(location).toBe(`${APP}/auth/error?error=${error}`)
}

/** An OpenID provider's signing key, made once per test file; `kid` names it in its JWKS. */
export interface SigningKey {
  /** The public key, for a `jwks_uri` answer. */
  jwk: Record<string, unknown>
  /** A JWT as the provider signs it, valid for five minutes. */
  sign(claims: Record<string, unknown>, issuer: string, audience: string): Promise<string>
}

/** A new RS256 (or `alg`) signing key named `kid`. */
export async function signingKey(kid = "k1", alg: "RS256" | "ES256" = "RS256"): Promise<SigningKey> {
  const pair = await generateKeyPair(alg, { extractable: true })
  return {
    jwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: "sig" },
    sign: (claims, issuer, audience) =>
      new SignJWT(claims).setProtectedHeader({ alg, kid }).setIssuer(issuer).setAudience(audience).setIssuedAt().setExpirationTime("5m").sign(pair.privateKey),
  }
}

/** An OpenID provider's discovery document for `issuer`, its endpoints under `base`. */
export function discoveryDocument(issuer: string, base: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    userinfo_endpoint: `${base}/userinfo`,
    jwks_uri: `${base}/keys`,
    response_types_supported: ["code"],
    id_token_signing_alg_values_supported: ["RS256"],
    ...extra,
  }
}
