import type { EmailConfig, EndpointConfig, EndpointRequestContext, OAuthConfig, Theme, TokenSet, User, VerificationRequestParams } from "../../src/types.js"

/**
 * Runs a provider's `profile` on a raw fixture. The hook is typed for the generic `Profile`
 * while fixtures have the provider's own shape (numeric ids included), hence the cast.
 */
export async function mapProfile(config: OAuthConfig, raw: object, tokens: TokenSet = {}): Promise<User> {
  if (!config.profile) throw new Error(`${config.id} has no profile()`)
  return config.profile(raw as Parameters<NonNullable<OAuthConfig["profile"]>>[0], tokens)
}

/** An endpoint as the core sees it: its URL with `params` set as query parameters (objects as JSON). */
export function endpointURL(endpoint: EndpointConfig | undefined): URL {
  if (endpoint === undefined) throw new Error("no endpoint")
  if (typeof endpoint === "string") return new URL(endpoint)
  if (!endpoint.url) throw new Error("endpoint without url")
  const url = new URL(endpoint.url)
  for (const [key, value] of Object.entries(endpoint.params ?? {})) {
    url.searchParams.set(key, typeof value === "object" && value !== null ? JSON.stringify(value) : String(value))
  }
  return url
}

/** The `params` of an endpoint given as an object; `{}` for a string or none. */
export function endpointParams(endpoint: EndpointConfig | undefined): Record<string, unknown> {
  return typeof endpoint === "object" ? (endpoint.params ?? {}) : {}
}

/** The `request` hook of an endpoint; fails the test when there is none. */
export function requestHook(endpoint: EndpointConfig | undefined): (context: EndpointRequestContext) => unknown {
  if (typeof endpoint !== "object" || !endpoint.request) throw new Error("endpoint has no request hook")
  return endpoint.request
}

/** The `conform` hook of an endpoint; fails the test when there is none. */
export function conformHook(endpoint: EndpointConfig | undefined): (response: Response) => unknown {
  if (typeof endpoint !== "object" || !endpoint.conform) throw new Error("endpoint has no conform hook")
  return endpoint.conform
}

export interface RecordedCall {
  url: string
  method: string
  headers: Headers
  body: unknown
}

/**
 * A fetch answering from a table of `METHOD url` (or bare `url` for GET) to a JSON body, or to a
 * Response for anything else; unknown URLs answer 404. Records every call.
 */
export function fakeFetch(routes: Record<string, unknown>): { fetch: typeof fetch; calls: RecordedCall[] } {
  const calls: RecordedCall[] = []
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input)
    const method = (init?.method ?? "GET").toUpperCase()
    calls.push({ url, method, headers: new Headers(init?.headers), body: init?.body })
    const answer = routes[`${method} ${url}`] ?? (method === "GET" ? routes[url] : undefined)
    if (answer === undefined) return new Response("not found", { status: 404 })
    return answer instanceof Response ? answer : Response.json(answer)
  }
  return { fetch: fetchImpl as typeof fetch, calls }
}

/** What the core hands an endpoint's `request` hook. */
export function requestContext(provider: OAuthConfig, fetchImpl: typeof fetch, tokens: TokenSet = { access_token: "at-123", token_type: "bearer" }): EndpointRequestContext {
  return { tokens, provider, fetch: fetchImpl }
}

/**
 * What the core hands an email provider's `sendVerificationRequest`: the sign-in link `url` for
 * `identifier` (default ada@example.test), with the token `tok`, valid for a day.
 */
export function verificationRequest(provider: EmailConfig, url: string, { theme = {}, identifier = "ada@example.test" }: { theme?: Theme; identifier?: string } = {}): VerificationRequestParams {
  return {
    identifier,
    url,
    expires: new Date(Date.now() + 86_400_000),
    provider,
    token: "tok",
    theme,
    request: new Request(`https://app.test/auth/signin/${provider.id}`, { method: "POST" }),
  }
}
