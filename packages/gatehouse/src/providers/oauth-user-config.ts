/**
 * What the OAuth and OpenID Connect provider factories share: the type of the options they
 * accept, and the one place where a factory's defaults and the user's options are merged.
 * @module gatehouse-auth/providers/oauth-user-config
 */
import type { Awaitable, TokenSet, User } from "../resources.js"
import type { EndpointConfig, EndpointRequestContext, OAuthConfig } from "./types.js"

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
  return merge(defaults, options) as unknown as OAuthConfig
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function merge(base: object, override: object): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base }
  // Symbol keys too: Auth.js's `[customFetch]` option is one.
  for (const key of Reflect.ownKeys(override) as (keyof typeof override & string)[]) {
    const value: unknown = (override as Record<string, unknown>)[key]
    if (value === undefined || key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(override, key)) continue
    const current = result[key]
    result[key] = isPlainObject(current) && isPlainObject(value) ? merge(current, value) : value
  }
  return result
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

/**
 * Calls a provider API with the access token, through the provider's `fetch`, and returns the
 * parsed JSON. Throws on a non-2xx answer, so a failed lookup never turns into an empty profile.
 */
export async function fetchJson(
  context: EndpointRequestContext,
  url: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<unknown> {
  const headers = new Headers(init.headers)
  headers.set("authorization", `Bearer ${context.tokens.access_token ?? ""}`)
  if (!headers.has("accept")) headers.set("accept", "application/json")
  const response = await context.fetch(url, { method: init.method ?? "GET", headers })
  if (!response.ok) throw new Error(`${context.provider.id}: ${new URL(url).pathname} answered HTTP ${response.status}`)
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

/** The standard OIDC claims a self-hosted identity server sends, as Gatehouse's user. */
export function standardClaimsProfile(profile: {
  sub: string
  name?: string | null
  preferred_username?: string | null
  email?: string | null
  picture?: string | null
}): User {
  return {
    id: profile.sub,
    name: profile.name ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }
}
