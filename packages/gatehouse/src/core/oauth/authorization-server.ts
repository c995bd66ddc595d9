/**
 * Where a provider's endpoints are: explicit URLs from its configuration, or its issuer's
 * discovery document (fetched once per provider and kept; a failed fetch is not kept).
 * @module
 */
import * as o from "oauth4webapi"
import { decodeBase64urlLenient } from "../../encoding/base64.js"
import { AuthError } from "../../errors.js"
import type { EndpointConfig, OAuthConfig } from "../../providers/types.js"

/**
 * How long one request to a provider may take, its answer's body included, unless the caller
 * passes a signal of its own. Without a bound, a provider that accepts the connection and never
 * answers holds the sign-in (or the session read refreshing a token) for as long as the runtime's
 * fetch waits: five minutes in Node.
 */
const PROVIDER_REQUEST_TIMEOUT_MS = 10_000

/** The fetch every request to `provider` goes through, bounded by {@link PROVIDER_REQUEST_TIMEOUT_MS}. */
export function providerFetch(provider: OAuthConfig): typeof fetch {
  const custom = provider.fetch
  return (input, init) => {
    const bounded = { ...init, signal: init?.signal ?? AbortSignal.timeout(PROVIDER_REQUEST_TIMEOUT_MS) }
    // The global fetch throws "Illegal invocation" when called as a method of another object.
    return custom ? custom(input, bounded) : fetch(input, bounded)
  }
}

/** Options oauth4webapi takes for every request: the provider's fetch, and http allowed (local IdPs). */
export function requestOptions(provider: OAuthConfig): { [o.customFetch]: typeof fetch; [o.allowInsecureRequests]: true } {
  return { [o.customFetch]: providerFetch(provider), [o.allowInsecureRequests]: true }
}

/**
 * The endpoint's URL with its configured `params` as query parameters (`claims` as JSON).
 * `fallback` (the discovered URL) is used when the configuration gives params but no URL.
 */
export function endpointUrl(endpoint: EndpointConfig | undefined, fallback?: string): URL | undefined {
  const href = (typeof endpoint === "string" ? endpoint : endpoint?.url) ?? fallback
  if (!href) return undefined
  const url = new URL(href)
  if (typeof endpoint === "object" && endpoint.params) {
    for (const [key, value] of Object.entries(endpoint.params)) {
      if (value === undefined || value === null) continue
      url.searchParams.set(key, key === "claims" || typeof value === "object" ? JSON.stringify(value) : String(value))
    }
  }
  return url
}

/**
 * The token endpoint's `response` after the provider's `token.conform` hook, which gets a copy:
 * a hook that reads the body and returns nothing leaves the original readable.
 */
export async function conformed(provider: OAuthConfig, response: Response): Promise<Response> {
  const conform = typeof provider.token === "object" ? provider.token.conform : undefined
  return conform ? ((await conform(response.clone())) ?? response) : response
}

/** Whether the provider answers with `response_mode=form_post`: a cross-site POST to the callback. */
export function usesFormPost(provider: OAuthConfig): boolean {
  const { authorization } = provider
  const mode = typeof authorization === "object" ? authorization.params?.response_mode : undefined
  return mode === "form_post" || endpointUrl(authorization)?.searchParams.get("response_mode") === "form_post"
}

const discovered = new WeakMap<OAuthConfig, Promise<o.AuthorizationServer>>()

/**
 * The authorization server of `provider`. Endpoints configured explicitly win; whatever is
 * missing comes from discovery, which then needs `issuer`.
 */
export async function authorizationServer(provider: OAuthConfig): Promise<o.AuthorizationServer> {
  const authorization = endpointUrl(provider.authorization)
  const token = endpointUrl(provider.token)
  const userinfo = endpointUrl(provider.userinfo)
  if (authorization && token && (userinfo || provider.type === "oidc" || typeof provider.userinfo === "object")) {
    return {
      issuer: provider.issuer ?? authorization.origin,
      authorization_endpoint: authorization.href,
      token_endpoint: token.href,
      ...(userinfo && { userinfo_endpoint: userinfo.href }),
    }
  }
  const fromDiscovery = await discover(provider)
  return {
    ...fromDiscovery,
    ...(authorization && { authorization_endpoint: authorization.href }),
    ...(token && { token_endpoint: token.href }),
    ...(userinfo && { userinfo_endpoint: userinfo.href }),
  }
}

function discover(provider: OAuthConfig): Promise<o.AuthorizationServer> {
  let pending = discovered.get(provider)
  if (!pending) {
    if (!provider.issuer) {
      throw new AuthError(`Provider ${JSON.stringify(provider.id)} needs an issuer or its authorization, token and userinfo endpoints`)
    }
    const issuer = new URL(provider.issuer)
    pending = (async () => {
      const response = await o.discoveryRequest(issuer, { ...requestOptions(provider), algorithm: "oidc" })
      // A provider whose ID tokens name their own issuer (multi-tenant Entra ID) discovers a
      // templated one, `…/{tenantid}/v2.0`; each token's issuer is checked by its hook instead.
      const expected = provider.idTokenIssuer ? await announcedIssuer(response, issuer) : issuer
      return o.processDiscoveryResponse(expected, response)
    })()
    // A provider that was down must be asked again next time.
    pending.catch(() => discovered.delete(provider))
    discovered.set(provider, pending)
  }
  return pending
}

async function announcedIssuer(response: Response, fallback: URL): Promise<URL> {
  try {
    const { issuer } = (await response.clone().json()) as { issuer?: unknown }
    return typeof issuer === "string" ? new URL(issuer) : fallback
  } catch {
    return fallback
  }
}

/**
 * The issuer the ID token in a token endpoint `response` must name: the discovered one, or what
 * the provider's `idTokenIssuer` hook says (the body is read from a clone).
 */
export async function idTokenIssuer(provider: OAuthConfig, response: Response, discovered: string): Promise<string> {
  if (!provider.idTokenIssuer) return discovered
  try {
    const body = (await response.clone().json()) as { id_token?: unknown }
    const payload = typeof body.id_token === "string" ? body.id_token.split(".")[1] : undefined
    const payloadBytes = payload ? decodeBase64urlLenient(payload) : undefined
    if (!payloadBytes) return discovered
    const claims = JSON.parse(new TextDecoder().decode(payloadBytes)) as Record<string, unknown>
    return provider.idTokenIssuer(claims, discovered)
  } catch {
    // oauth4webapi will reject the response with its own, precise error.
    return discovered
  }
}
