/**
 * Signing in and out from your own pages, in the browser: any provider, passkeys included.
 * Talks to the auth routes with `fetch`; no framework, no dependencies. An account page's
 * sessions and linked accounts are in `gatehouse-auth/client/account`.
 *
 * @example
 * ```ts
 * import { signIn, signOut } from "gatehouse-auth/client"
 *
 * await signIn("passkey")                                  // sign in with a passkey saved on this device
 * await signIn("passkey", { action: "register" })          // signed in: add a passkey to the account
 * await signIn("passkey", { action: "register", email })   // signed out: a new account with a new passkey
 * await signIn("github", { redirectTo: "/dashboard" })
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
   * Passkeys only: `register` creates one (on the signed-in account; signed out, for a new
   * account without an email, `email` or `name` labelling the passkey), `authenticate` signs in
   * with one. Default `authenticate`.
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
 * Signs in with `provider` (its id). For a passkey provider this runs the whole ceremony:
 * fetches its options, asks the browser's authenticator (`navigator.credentials`), and posts
 * the answer. Resolves once done when `redirect` is `false` (or on failure before navigating);
 * otherwise the page navigates. `authorizationParams` are added to an OAuth provider's
 * authorization request (`{ prompt: "login" }`).
 *
 * @throws when the provider does not exist, or the browser refused the passkey ceremony: a
 *   `DOMException` named as the browser named it, with a message to show. `NotAllowedError`: the
 *   request was cancelled or timed out, or (signing in) this device holds no passkey for the site;
 *   `InvalidStateError` (registering): the device already holds one for the account;
 *   `SecurityError`: among others, the page is on an IP address, where browsers refuse passkeys.
 * @example
 * ```ts
 * const result = await signIn("credentials", { username, password, redirect: false })
 * if (!result?.ok) form.showError(result?.error)
 * ```
 */
export async function signIn(provider: string, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<AuthResult | undefined> {
  const { basePath = "/auth", redirect = true, action, callbackUrl, redirectTo: given, ...rest } = options
  const redirectTo = given ?? callbackUrl ?? location.href
  const providers = (await getJson(`${basePath}/providers`)) as Record<string, ProviderEntry> | null
  const entry = providers?.[provider]
  if (!entry) throw new Error(`No provider with id ${JSON.stringify(provider)} at ${basePath}`)

  const id = encodeURIComponent(provider)
  const fields = stringFields(rest)
  const body: Record<string, string> = { ...fields, callbackUrl: redirectTo }
  if (entry.type === "webauthn") {
    if (action) fields.action = action
    Object.assign(body, await passkeyCeremony(`${basePath}/webauthn-options/${id}?${new URLSearchParams(fields)}`))
  }
  // Paths under basePath, not the absolute URLs /providers lists: those carry AUTH_URL's origin,
  // which may not be this page's (www vs apex), and a cross-origin POST would go without cookies.
  const route = entry.type === "webauthn" || entry.type === "credentials" ? "callback" : "signin"
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

/** Runs the passkey ceremony the server chooses; returns the fields the callback takes. */
async function passkeyCeremony(optionsUrl: string): Promise<Record<string, string>> {
  const credentials = globalThis.PublicKeyCredential as typeof PublicKeyCredential | undefined
  if (typeof credentials?.parseRequestOptionsFromJSON !== "function" || typeof credentials.parseCreationOptionsFromJSON !== "function") {
    throw new Error("This browser cannot use passkeys")
  }
  const response = await fetch(optionsUrl, GET_JSON)
  const answer = (await response.json().catch(() => null)) as { action?: string; options?: object; error?: string } | null
  if (!response.ok || !answer?.options) {
    throw new Error(`Passkey options were refused: ${answer?.error ?? (response.redirected ? new URL(response.url).searchParams.get("error") : null) ?? response.status}`)
  }
  const register = answer.action === "register"
  let credential: Credential | null
  try {
    credential = register
      ? await navigator.credentials.create({ publicKey: credentials.parseCreationOptionsFromJSON(answer.options as PublicKeyCredentialCreationOptionsJSON) })
      : await navigator.credentials.get({ publicKey: credentials.parseRequestOptionsFromJSON(answer.options as PublicKeyCredentialRequestOptionsJSON) })
  } catch (error) {
    throw explained(error, register)
  }
  if (!credential) throw new Error("The browser returned no passkey")
  return { action: register ? "register" : "authenticate", data: JSON.stringify(credential) }
}

/**
 * The browser's refusal of a ceremony as a `DOMException` of the same name, with a message a person
 * can act on. Browsers answer `NotAllowedError` alike for "cancelled", "timed out" and, when
 * signing in, "no passkey on this device" (so that pages cannot learn which passkeys a device
 * holds): the message says everything it may mean. Other errors are returned as they are.
 */
function explained(error: unknown, register: boolean): unknown {
  if (!(error instanceof DOMException)) return error
  const { name } = error
  const host = location.hostname
  let message: string | undefined
  if (name === "SecurityError" && (/^[0-9.]+$/.test(host) || host.startsWith("["))) {
    // Browsers refuse passkeys on an IP address: they belong to a host name.
    const here = new URL(location.href)
    here.hostname = "localhost"
    const instead = /^127\./.test(host) || host === "[::1]" ? `Open ${here.href} instead.` : "Open this page at the site's host name instead."
    message = `Passkeys do not work at an IP address such as ${host}. ${instead}`
  } else if (name === "NotAllowedError" || name === "InvalidStateError") {
    message = !register
      ? "No passkey for this site was found on this device, or the request was cancelled. To make one, sign up with a passkey."
      : name === "InvalidStateError"
        ? "This device already holds a passkey for this account."
        : "No passkey was created: the request was cancelled or timed out."
  }
  return message === undefined ? error : new DOMException(message, name)
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
  return {
    ok: error === null,
    url: vouched ?? location.href,
    error,
    code: params.get("code"),
    status: response.status,
    retryAfter: Number.isFinite(retryAfter) ? retryAfter : null,
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
