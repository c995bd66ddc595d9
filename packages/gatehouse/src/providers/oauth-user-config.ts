/**
 * What the OAuth and OpenID Connect provider factories share: the type of the options they
 * accept, and the one place where a factory's defaults and the user's options are merged.
 * @module gatehouse-auth/providers/oauth-user-config
 */
import type { Awaitable, TokenSet, User } from "../resources.js"
import type { EndpointConfig, EndpointRequestContext, OAuthConfig } from "./types.js"
import { customFetch } from "../markers.js"
import { mergeOptions } from "../options-merge.js"

/**
 * The options of an OAuth or OIDC provider factory: any field of {@link OAuthConfig}, each one
 * replacing the factory's default. `P` is the provider's own profile shape, which the `profile`
 * and `profileFromCallback` hooks receive.
 *
 * The two hooks are redeclared rather than taken from `OAuthConfig<P>`: `OAuthConfig` requires
 * `P extends Profile`, which rules out profiles whose `id` is a number (GitHub, GitLab, Strava).
 *
 * @example
 * ```ts
 * const options: OAuthUserConfig<GitHubProfile> = {
 *   authorization: { params: { scope: "read:user user:email repo" } },
 *   profile: (profile) => ({ id: String(profile.id), name: profile.login }),
 * }
 * ```
 */
export type OAuthUserConfig<P> = Partial<Omit<OAuthConfig, "profile" | "profileFromCallback">> & {
  /** Maps the provider's profile to the user, in place of the factory's mapping. */
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User>
  /** Adds to the profile what the authorization response carries besides the code (see {@link OAuthConfig.profileFromCallback}). */
  profileFromCallback?: (profile: P, params: URLSearchParams) => Awaitable<P>
}

/** What a factory itself supplies: the options plus the three fields every provider needs. */
export type OAuthDefaults<P> = OAuthUserConfig<P> & Pick<OAuthConfig, "id" | "name" | "type">

/**
 * The provider a factory returns: its defaults with the user's options laid over them.
 *
 * Plain objects merge key by key, so `authorization: { params: { scope } }` keeps the default
 * URL (as in Auth.js); anything else, arrays included, is replaced whole. Options that are
 * `undefined` are skipped: Gatehouse calls factories with `{ issuer: undefined }` when
 * `AUTH_<ID>_ISSUER` is unset, and that must not erase a built-in issuer such as Google's.
 *
 * @example
 * ```ts
 * const github = oauthProvider({ id: "github", name: "GitHub", type: "oauth" }, { name: "Work GitHub" })
 * github.name // "Work GitHub"
 * ```
 */
export function oauthProvider<P>(defaults: OAuthDefaults<P>, options: OAuthUserConfig<P> = {}): OAuthConfig {
  // The core hands each provider's hooks the profile that provider returned, so narrowing `P` to
  // `Profile` is sound at run time; TypeScript cannot see that, as the hooks' parameters are
  // contravariant. Returning `OAuthConfig` is what lets `providers: [GitHub]` compile.
  return mergeOptions(defaults, options) as unknown as OAuthConfig
}

/** The two ways a provider's options can carry the app's `fetch`. */
export interface AppFetchOptions {
  /** Gatehouse's name for the app's `fetch`. */
  fetch?: typeof fetch
  /** Auth.js's name for the app's `fetch`, kept so switched apps work unchanged. */
  [customFetch]?: typeof fetch
}

/** Provider options split into the app's `fetch` and everything else. */
export interface WithoutFetch<O> {
  /** The app's `fetch`, from either name; `undefined` when the app gave none. */
  fetch: typeof fetch | undefined
  /** The options without either `fetch` name. */
  rest: Omit<O, "fetch" | typeof customFetch>
}

/**
 * A factory's options apart from the fetch every request to the provider goes through: its
 * `fetch` option, or Auth.js's `[customFetch]`. For the factories that wrap that fetch (a
 * provider that wants its requests sent its own way): the wrapper then calls the app's fetch,
 * whichever name the app gave it, and the merge cannot lay the unwrapped one over the wrapper.
 *
 * @example
 * ```ts
 * const { fetch: appFetch, rest } = withoutFetch(options)
 * return oauthProvider({ id: "acme", name: "Acme", type: "oauth", fetch: signed(appFetch) }, rest)
 * ```
 */
export function withoutFetch<O extends AppFetchOptions>(options: O): WithoutFetch<O> {
  const { fetch: given, [customFetch]: named, ...rest } = options
  return { fetch: given ?? named, rest }
}

/**
 * The URL of an endpoint as the provider now has it, so a hook follows a user's override of the
 * URL; `fallback` when the endpoint names none. The core may have turned the URL into a `URL`.
 */
export function endpointUrl(endpoint: EndpointConfig | undefined, fallback: string): string {
  if (typeof endpoint === "string") return endpoint
  const url: unknown = endpoint?.url
  return typeof url === "string" || url instanceof URL ? String(url) : fallback
}

/** How {@link fetchJson} calls a provider API. */
export interface FetchJsonInit {
  /** Default `GET`, or `POST` with a `body`. */
  method?: string
  /** More request headers; `accept` defaults to JSON. */
  headers?: Record<string, string>
  /** A form body. */
  body?: URLSearchParams
  /**
   * The query parameter that carries the access token, for an API that takes it there (Foursquare,
   * Mail.ru, WeChat) rather than as a bearer token.
   */
  tokenInQuery?: string
}

/**
 * Calls a provider API with the access token, through the provider's `fetch`, and returns the
 * parsed JSON. Throws on a non-2xx answer, so a failed lookup never turns into an empty profile;
 * the error names the URL's path only, as the query may hold the token.
 *
 * @example
 * ```ts
 * userinfo: {
 *   url: "https://api.foursquare.com/v2/users/self?v=20230131",
 *   request: (context) => fetchJson(context, endpointUrl(context.provider.userinfo, ""), { tokenInQuery: "oauth_token" }),
 * }
 * ```
 */
export async function fetchJson(context: EndpointRequestContext, url: string, init: FetchJsonInit = {}): Promise<unknown> {
  const target = new URL(url)
  const headers = new Headers(init.headers)
  const token = context.tokens.access_token ?? ""
  if (init.tokenInQuery) target.searchParams.set(init.tokenInQuery, token)
  else headers.set("authorization", `Bearer ${token}`)
  if (!headers.has("accept")) headers.set("accept", "application/json")
  const response = await context.fetch(target.href, { method: init.method ?? (init.body ? "POST" : "GET"), headers, ...(init.body && { body: init.body }) })
  if (!response.ok) throw new Error(`${context.provider.id}: ${target.pathname} answered HTTP ${response.status}`)
  return response.json()
}

/**
 * For `token.conform`: rewrites a successful JSON response with `fix`, which returns the new body
 * or `undefined` to leave the response as it is. Reads a clone, so the original stays readable.
 */
export async function conformJson(
  response: Response,
  fix: (body: Record<string, unknown>) => Record<string, unknown> | undefined,
): Promise<Response | undefined> {
  if (!response.ok) return undefined
  const body: unknown = await response.clone().json().catch(() => undefined)
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined
  const fixed = fix(body as Record<string, unknown>)
  if (fixed === undefined) return undefined
  const headers = new Headers(response.headers)
  // The new body has another length and is not compressed.
  headers.delete("content-length")
  headers.delete("content-encoding")
  return new Response(JSON.stringify(fixed), { status: response.status, statusText: response.statusText, headers })
}

/**
 * For `token.conform`: adds `token_type: "bearer"` to a successful token response that has an
 * access token and no type, as VK, WeChat and Threads answer. RFC 6749 requires the field and
 * oauth4webapi refuses a response without it; these providers' tokens are bearer tokens.
 *
 * @example
 * ```ts
 * token: { url: "https://oauth.vk.com/access_token", conform: withBearerTokenType }
 * ```
 */
export function withBearerTokenType(response: Response): Promise<Response | undefined> {
  return conformJson(response, (body) =>
    body.token_type === undefined && typeof body.access_token === "string" ? { ...body, token_type: "bearer" } : undefined,
  )
}

/**
 * The standard OIDC claims a self-hosted identity server sends, as Gatehouse's user: Auth.js's
 * mapping for providers without one of their own (the name is `name`, else `nickname`, else
 * `preferred_username`).
 */
export function standardClaimsProfile(profile: {
  sub: string
  name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  email?: string | null
  picture?: string | null
}): User {
  return {
    id: profile.sub,
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }
}
