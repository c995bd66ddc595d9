/**
 * Signing in and out from your own pages, in the browser: OAuth, email and credentials providers.
 * Talks to the auth routes with `fetch`; no framework, no dependencies. Passkeys sign in through
 * `gatehouse-auth/webauthn`, an account page's sessions and linked accounts are in
 * `gatehouse-auth/client/account`, and second-factor codes in `gatehouse-auth/client/two-factor`,
 * so that a sign-in page carries none of them unless it uses them.
 *
 * @example
 * ```ts
 * import { signIn, signOut } from "gatehouse-auth/client"
 *
 * await signIn("github", { redirectTo: "/dashboard" })
 * await signIn("credentials", { email, password })
 * await signOut()
 * ```
 * @module gatehouse-auth/client
 */

/** Where the auth routes are mounted: every function of the browser client takes it. */
export interface BasePathOption {
  /** Where the auth routes are mounted. Default `/auth`. */
  basePath?: string
}

/**
 * What a sign-in takes wherever the auth routes are mounted (an integration's client adds its own
 * way of naming that place). Other fields are posted with the sign-in (`email`, credentials fields).
 */
export interface SignInFields {
  /** Where to go once signed in. Default: the current page. */
  redirectTo?: string
  /**
   * Whether to navigate once done (default `true`). With `false`, the result says where the
   * sign-in would have gone (OAuth providers always navigate: the sign-in continues at the provider).
   */
  redirect?: boolean
  /**
   * Passkeys only (`signIn` of `gatehouse-auth/webauthn`): `register` creates one (on the
   * signed-in account; signed out, for a new account without an email, `email` or `name`
   * labelling the passkey), `authenticate` signs in with one. Default `authenticate`.
   */
  action?: "register" | "authenticate"
  /** Auth.js's older name for `redirectTo`, read when `redirectTo` is not given. */
  callbackUrl?: string
  [field: string]: unknown
}

/**
 * Parameters added to an OAuth provider's authorization request (`prompt`, `login_hint`, `scope`,
 * …), in any shape `URLSearchParams` takes; `state` and PKCE's are always Gatehouse's own.
 *
 * @example
 * ```ts
 * await signIn("google", { redirectTo: "/" }, { prompt: "select_account", login_hint: email })
 * ```
 */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** Options of {@link signIn}: the {@link SignInFields} and where the auth routes are mounted. */
export interface SignInOptions extends SignInFields, BasePathOption {}

/** What a sign-out takes wherever the auth routes are mounted. */
export interface SignOutFields {
  /**
   * Where to go once signed out. Default: the current page. With `provider`, also the
   * `post_logout_redirect_uri` the provider sends the browser back to: register it there.
   */
  redirectTo?: string
  /** Auth.js's older name for `redirectTo`, read when `redirectTo` is not given. */
  callbackUrl?: string
  /** Whether to navigate once done. Default `true`. */
  redirect?: boolean
  /**
   * The OIDC provider the session came from, to end the session there too (RP-initiated logout):
   * the browser goes to its end-session endpoint and comes back to `redirectTo`. Without an
   * end-session endpoint, or for a provider the session did not come from, a plain sign-out.
   */
  provider?: string
}

/** Options of {@link signOut}: the {@link SignOutFields} and where the auth routes are mounted. */
export interface SignOutOptions extends SignOutFields, BasePathOption {}

/**
 * How a sign-in (or sign-out) ended, when it did not navigate away.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (result?.status === 429) form.showError(`Too many attempts; try again in ${result.retryAfter} s`)
 * ```
 */
export interface AuthResult {
  /** Whether it succeeded. */
  ok: boolean
  /** Where it ends: the page to go to, or the error or sign-in page. */
  url: string
  /**
   * The error type (`CredentialsSignin`, `CredentialsRateLimited`, `WebAuthnVerificationError` …),
   * `HTTP <status>` for a refusal that names none, or `null`.
   */
  error: string | null
  /** The error code a `CredentialsSignin` subclass set, or `null`. */
  code: string | null
  /** The HTTP status of the answer: `200` for success and ordinary failures, `429` when throttled, `503` when busy. */
  status: number
  /** Seconds to wait before trying again (the answer's `Retry-After`), or `null`. */
  retryAfter: number | null
  /**
   * Present, `true`, when the first factor passed and the sign-in now waits for a second one: `url`
   * is the built-in two-factor page (`{basePath}/two-factor`). No session exists yet; send the code
   * with `verifyTwoFactor` of `gatehouse-auth/client/two-factor`, or go to `url`. (With
   * `pages.twoFactor`, `url` is your page, which this cannot recognise: compare it yourself.)
   */
  twoFactor?: true
}

/** Auth.js's name (`@auth/sveltekit/client`) for the authorization parameters {@link signIn} takes third. */
export type SignInAuthorizationParams = AuthorizationParams
/** Auth.js's name for what {@link signIn} resolves to when it does not navigate away. */
export type SignInResponse = AuthResult
/** Auth.js's name for what {@link signOut} resolves to when it does not navigate away. */
export type SignOutResponse = AuthResult
/** Auth.js's name for the options of {@link signOut}. */
export type SignOutParams = SignOutOptions

/** A provider as the providers route lists it. */
export interface ProviderEntry {
  /** The provider's id, what {@link signIn} takes. */
  id: string
  /** `oauth`, `oidc`, `email`, `credentials` or `webauthn`. */
  type: string
}

/** A provider as `GET {basePath}/providers` lists it. */
export interface ProviderListing extends ProviderEntry {
  /** The name sign-in buttons show. */
  name: string
}

/**
 * Signs in with `provider` (its id). Resolves once done when `redirect` is `false` (or on failure
 * before navigating); otherwise the page navigates. `authorizationParams` are added to an OAuth
 * provider's authorization request (`{ prompt: "login" }`). Passkey providers sign in through
 * `signIn` of `gatehouse-auth/webauthn`, which runs the browser's ceremony.
 *
 * @throws when the provider does not exist, or is a passkey provider (the error names
 *   `gatehouse-auth/webauthn`).
 * @example
 * ```ts
 * const result = await signIn("credentials", { username, password, redirect: false })
 * if (!result?.ok) form.showError(result?.error)
 * ```
 */
export async function signIn(provider: string, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<AuthResult | undefined> {
  // `action` is a passkey field: never posted for another provider.
  const { basePath = "/auth", redirect = true, action: _action, callbackUrl, redirectTo: given, ...rest } = options
  const redirectTo = given ?? callbackUrl ?? location.href
  const providers = (await getJson(`${basePath}/providers`)) as Record<string, ProviderEntry> | null
  const entry = providers?.[provider]
  if (!entry) throw new Error(`No provider with id ${JSON.stringify(provider)} at ${basePath}`)
  if (entry.type === "webauthn") throw new Error(`${provider} is a passkey provider: sign in with signIn from "gatehouse-auth/webauthn"`)

  const id = encodeURIComponent(provider)
  const body: Record<string, string> = { ...stringFields(rest), callbackUrl: redirectTo }
  // Paths under basePath, not the absolute URLs /providers lists: those carry AUTH_URL's origin,
  // which may not be this page's (www vs apex), and a cross-origin POST would go without cookies.
  const route = entry.type === "credentials" ? "callback" : "signin"
  const query = authorizationParams === undefined ? "" : new URLSearchParams(authorizationParams).toString()
  const result = await post(basePath, `${basePath}/${route}/${id}${query && `?${query}`}`, body)
  return redirect || entry.type === "oauth" || entry.type === "oidc" ? navigate(result) : result
}

/**
 * Signs out (ends the session), then navigates to `redirectTo` unless `redirect` is `false`. With
 * `provider`, the session at that OIDC provider ends too: the navigation goes there first.
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * await signOut({ provider: "keycloak", redirectTo: `${location.origin}/` }) // and at Keycloak
 * ```
 */
export async function signOut(options: SignOutOptions = {}): Promise<AuthResult | undefined> {
  const { basePath = "/auth", redirect = true, provider } = options
  const redirectTo = options.redirectTo ?? options.callbackUrl ?? location.href
  const result = await post(basePath, `${basePath}/signout`, { callbackUrl: redirectTo, ...(provider && { provider }) })
  return redirect ? navigate(result) : result
}

/**
 * The current session, or `null` when signed out.
 *
 * @example
 * ```ts
 * const session = await getSession()
 * if (session) greet(session.user?.name)
 * ```
 */
export async function getSession(options: BasePathOption = {}): Promise<Record<string, unknown> | null> {
  return sessionOf(await getJson(`${options.basePath ?? "/auth"}/session`))
}

/**
 * Sends `data` to the session route as an update (the `jwt` and `session` callbacks get it with
 * `trigger: "update"`; validate it there) and returns the new session, or `null` when signed out.
 *
 * @example
 * ```ts
 * const session = await updateSession({ name: "Ada" })
 * ```
 */
export async function updateSession(data?: unknown, options: BasePathOption = {}): Promise<Record<string, unknown> | null> {
  const basePath = options.basePath ?? "/auth"
  const response = await fetch(`${basePath}/session`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ csrfToken: await csrfToken(basePath), data }),
  })
  return response.ok ? sessionOf(await response.json().catch(() => null)) : null
}

/**
 * The CSRF token to post with a sign-in or sign-out form of your own (`csrfToken` field); it also
 * sets the CSRF cookie it is checked against.
 *
 * @example
 * ```ts
 * form.elements.csrfToken.value = await getCsrfToken()
 * ```
 */
export async function getCsrfToken(options: BasePathOption = {}): Promise<string | undefined> {
  const answer = (await getJson(`${options.basePath ?? "/auth"}/csrf`)) as { csrfToken?: unknown } | null
  return typeof answer?.csrfToken === "string" ? answer.csrfToken : undefined
}

/**
 * The configured providers by id (`id`, `name`, `type`, `signinUrl`, `callbackUrl`), or `null`
 * when the routes cannot be reached.
 *
 * @example
 * ```ts
 * const providers = await getProviders()
 * for (const { id, name } of Object.values(providers ?? {})) renderButton(id, name)
 * ```
 */
export async function getProviders(options: BasePathOption = {}): Promise<Record<string, ProviderListing> | null> {
  return (await getJson(`${options.basePath ?? "/auth"}/providers`)) as Record<string, ProviderListing> | null
}

/** A session answer, or `null` for an empty one. */
function sessionOf(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && Object.keys(value).length > 0 ? (value as Record<string, unknown>) : null
}

/** Posts `body` as a form with the CSRF token, asking for the redirect as JSON. */
async function post(basePath: string, url: string, body: Record<string, string>): Promise<AuthResult> {
  const token = await csrfToken(basePath)
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body: new URLSearchParams({ ...body, csrfToken: token }),
  })
  const answer = (await response.json().catch(() => null)) as { url?: unknown } | null
  // Only a URL the server vouched for: the caller's redirectTo is unchecked input.
  const vouched = typeof answer?.url === "string" ? answer.url : undefined
  // A refusal with a URL (429, 503) names its error there; the current page's query names nothing.
  const params = vouched === undefined ? new URLSearchParams() : new URL(vouched, location.href).searchParams
  const error = params.get("error") ?? (response.ok ? null : `HTTP ${response.status}`)
  // No header reads as NaN, hence null.
  const retryAfter = Number(response.headers.get("Retry-After") ?? Number.NaN)
  // Where a sign-in waits for its second factor. The path alone: the server's origin (AUTH_URL's)
  // may not be this page's.
  const twoFactor = error === null && vouched !== undefined && new URL(vouched, location.href).pathname === new URL(`${basePath}/two-factor`, location.href).pathname
  return {
    ok: error === null,
    url: vouched ?? location.href,
    error,
    code: params.get("code"),
    status: response.status,
    retryAfter: Number.isFinite(retryAfter) ? retryAfter : null,
    ...(twoFactor && { twoFactor }),
  }
}

function navigate(result: AuthResult): undefined {
  location.assign(result.url)
  return undefined
}

/** How every GET of a route asks: with the site's cookies, for JSON. */
const GET_JSON: RequestInit = { credentials: "same-origin", headers: { Accept: "application/json" } }

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, GET_JSON)
  return response.ok ? response.json().catch(() => null) : null
}

/** The CSRF token a POST carries (`""` when the route gave none: the POST is then refused). */
async function csrfToken(basePath: string): Promise<string> {
  return (await getCsrfToken({ basePath })) ?? ""
}

function stringFields(fields: Record<string, unknown>): Record<string, string> {
  const strings: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) strings[name] = String(value)
  }
  return strings
}
