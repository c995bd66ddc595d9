/**
 * An in-process imitation of an OAuth 2 provider, answering at the provider's own https URLs: the
 * test Browser reaches its authorization endpoint (through `origins`), the provider's `fetch`
 * its token endpoint and APIs. A catalogue provider is then signed in with as shipped, its
 * endpoints and hooks untouched, and each quirk of the real provider (how the client must
 * authenticate, what the token response lacks, where the profile is) is imitated by the test.
 *
 * The authorization endpoint approves at once. The token endpoint checks the client credentials
 * (only in the way the provider takes them), the code (single use), the redirect URI and PKCE
 * (when the authorization request had a challenge); OAuth errors are answered 400.
 */
import { createHash, randomBytes } from "node:crypto"
import type { Handler } from "../support/browser.js"

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

/** Answers one request; `grant` is the grant whose access token the request carries, if any. */
export type Route = (request: FakeRequest, grant: Grant | undefined) => Response | Promise<Response>

export interface FakeProviderOptions {
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
  /**
   * Every other URL it answers, as `GET https://host/path` (matched without the query), or
   * `GET https://host/path/*` for every path below.
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
  /** Every code issued, oldest first. */
  grants: Grant[]
  /** The last request to `url` (without the query), failing the test when there is none. */
  last(method: string, url: string): FakeRequest
  /** The access token a request carries as a bearer header, and its grant. */
  bearerGrant(request: FakeRequest): Grant | undefined
  /** The grant whose access token is `token`. */
  grantOf(token: string | null | undefined): Grant | undefined
}

const oauthError = (error: string, status = 400) => Response.json({ error, error_description: `${error} (fake provider)` }, { status })

export function fakeProvider(options: FakeProviderOptions): FakeProvider {
  const requests: FakeRequest[] = []
  const grants: Grant[] = []
  const routes = new Map<string, Route>()
  for (const [key, route] of Object.entries(options.routes ?? {})) {
    const [method, url] = key.split(" ")
    routes.set(`${method} ${withoutQuery(url!)}`, route)
  }
  const grantOf = (token: string | null | undefined) => (token ? grants.find((grant) => grant.accessToken === token) : undefined)
  const bearerGrant = (request: FakeRequest) => grantOf(/^bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1])

  function authorize(request: FakeRequest): Response {
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

  async function token(request: FakeRequest): Promise<Response> {
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
    const key = `${raw.method} ${withoutQuery(url.href)}`
    if (key === `GET ${withoutQuery(options.authorizeUrl)}`) return authorize(request)
    if (key === `POST ${withoutQuery(options.tokenUrl)}`) return token(request)
    const route = routes.get(key) ?? [...routes].find(([pattern]) => pattern.endsWith("/*") && key.startsWith(pattern.slice(0, -1)))?.[1]
    if (route) return route(request, bearerGrant(request))
    return new Response("not found", { status: 404 })
  }

  const origins: Record<string, Handler> = {}
  for (const url of [options.authorizeUrl, options.tokenUrl, ...[...routes.keys()].map((key) => key.split(" ")[1]!)]) {
    origins[new URL(url).origin] = handle
  }

  return {
    origins,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init))) as typeof fetch,
    requests,
    grants,
    last(method, url) {
      const match = requests.filter((request) => request.method === method && withoutQuery(request.url.href) === withoutQuery(url)).at(-1)
      if (!match) throw new Error(`the fake provider received no ${method} ${url}`)
      return match
    },
    bearerGrant,
    grantOf,
  }
}

function withoutQuery(url: string): string {
  const parsed = new URL(url)
  return `${parsed.origin}${parsed.pathname}`
}
