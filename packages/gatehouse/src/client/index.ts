/**
 * Signing in and out from your own pages, in the browser: any provider, passkeys included.
 * Talks to the auth routes with `fetch`; no framework, no dependencies.
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

/** Where the auth routes are mounted: every function of this module takes it. */
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
  [field: string]: unknown
}

/** Options of {@link signIn}: the {@link SignInFields} and where the auth routes are mounted. */
export interface SignInOptions extends SignInFields, BasePathOption {}

/** What a sign-out takes wherever the auth routes are mounted. */
export interface SignOutFields {
  /**
   * Where to go once signed out. Default: the current page. With `provider`, also the
   * `post_logout_redirect_uri` the provider sends the browser back to: register it there.
   */
  redirectTo?: string
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
 * otherwise the page navigates.
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
export async function signIn(provider: string, options: SignInOptions = {}): Promise<AuthResult | undefined> {
  const { basePath = "/auth", redirectTo = location.href, redirect = true, action, ...fields } = options
  const providers = (await getJson(`${basePath}/providers`)) as Record<string, ProviderEntry> | null
  const entry = providers?.[provider]
  if (!entry) throw new Error(`No provider with id ${JSON.stringify(provider)} at ${basePath}`)

  const id = encodeURIComponent(provider)
  const body: Record<string, string> = { ...stringFields(fields), callbackUrl: redirectTo }
  // Paths under basePath, not the absolute URLs /providers lists: those carry AUTH_URL's origin,
  // which may not be this page's (www vs apex), and a cross-origin POST would go without cookies.
  let url = `${basePath}/signin/${id}`
  if (entry.type === "webauthn") {
    const query = new URLSearchParams(stringFields(fields))
    if (action) query.set("action", action)
    Object.assign(body, await passkeyCeremony(`${basePath}/webauthn-options/${id}?${query}`))
    url = `${basePath}/callback/${id}`
  } else if (entry.type === "credentials") {
    url = `${basePath}/callback/${id}`
  }
  const result = await post(basePath, url, body)
  if (redirect || entry.type === "oauth" || entry.type === "oidc") return navigate(result)
  return result
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
  const { basePath = "/auth", redirectTo = location.href, redirect = true, provider } = options
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
  const csrf = (await getJson(`${basePath}/csrf`)) as { csrfToken?: string } | null
  const response = await fetch(`${basePath}/session`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ csrfToken: csrf?.csrfToken ?? "", data }),
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

/**
 * One of the signed-in user's sessions, as `GET {basePath}/sessions` lists it (opt-in
 * `account.routes`): never its token.
 */
export interface SessionListing {
  /** The session's id, what {@link revokeSession} takes (`"current"` for a JWT session). */
  id: string
  /** Whether it is this browser's session. */
  current: boolean
  /** When it was signed in (ISO), `null` when unknown. */
  createdAt: string | null
  /** When it was last used (ISO, to the precision of `session.updateAge`), `null` when unknown. */
  lastSeenAt: string | null
  /** When it ends unless used again (ISO). */
  expiresAt: string
  /** The browser's `User-Agent` at sign-in, `null` when unknown. */
  userAgent: string | null
}

/** One of the signed-in user's linked accounts, as `GET {basePath}/accounts` lists it: never its tokens. */
export interface AccountListing {
  /** The provider's id. */
  provider: string
  /** The user's id at that provider. */
  providerAccountId: string
  /** `oauth`, `oidc`, `email` or `webauthn`. */
  type: string
  /** The provider's display name, `null` when it is no longer configured. */
  providerName: string | null
}

/**
 * An account route refused: `name` is the error type the server named (`SessionRequired`,
 * `UnknownSession`, `UnknownAccount`, `LastSignInMethod`, `MissingCSRF`, or `HTTP <status>`).
 *
 * @example
 * ```ts
 * try { await unlinkAccount(account) } catch (error) {
 *   if (error instanceof AccountRouteError && error.name === "LastSignInMethod") showMessage("Add another way to sign in first")
 * }
 * ```
 */
export class AccountRouteError extends Error {
  /** The HTTP status of the refusal. */
  readonly status: number
  constructor(type: string, message: string, status: number) {
    super(message)
    this.name = type
    this.status = status
  }
}

/**
 * The signed-in user's sessions, this browser's first (needs `account.routes` on the server).
 *
 * @throws {AccountRouteError} when signed out (`SessionRequired`) or refused.
 * @example
 * ```ts
 * for (const session of await listSessions()) render(session.userAgent, session.current)
 * ```
 */
export async function listSessions(options: BasePathOption = {}): Promise<SessionListing[]> {
  return ((await accountRoute(options, "sessions")) as { sessions: SessionListing[] }).sessions
}

/**
 * Ends one of the signed-in user's other sessions, by its `id` from {@link listSessions}; returns
 * the sessions left.
 *
 * @throws {AccountRouteError} `UnknownSession` for an id that is not one of the user's other sessions.
 * @example
 * ```ts
 * await revokeSession(session.id)
 * ```
 */
export async function revokeSession(id: string, options: BasePathOption = {}): Promise<SessionListing[]> {
  return ((await accountRoute(options, "sessions", { revoke: id })) as { sessions: SessionListing[] }).sessions
}

/**
 * Ends every session of the signed-in user but this browser's ("sign out other devices"); returns
 * the sessions left. Under JWT sessions the others end within `session.revocationCheckAge`.
 *
 * @example
 * ```ts
 * await revokeOtherSessions()
 * ```
 */
export async function revokeOtherSessions(options: BasePathOption = {}): Promise<SessionListing[]> {
  return ((await accountRoute(options, "sessions", { revokeOthers: "true" })) as { sessions: SessionListing[] }).sessions
}

/**
 * The signed-in user's linked accounts.
 *
 * @example
 * ```ts
 * const linked = new Set((await listAccounts()).map((account) => account.provider))
 * ```
 */
export async function listAccounts(options: BasePathOption = {}): Promise<AccountListing[]> {
  return ((await accountRoute(options, "accounts")) as { accounts: AccountListing[] }).accounts
}

/**
 * Unlinks one of the signed-in user's accounts; returns the accounts left.
 *
 * @throws {AccountRouteError} `LastSignInMethod` when it is the user's last way to sign in,
 *   `UnknownAccount` when it is not theirs.
 * @example
 * ```ts
 * await unlinkAccount({ provider: "github", providerAccountId: "12345" })
 * ```
 */
export async function unlinkAccount(
  account: Pick<AccountListing, "provider" | "providerAccountId">,
  options: BasePathOption = {},
): Promise<AccountListing[]> {
  const fields = { unlink: account.provider, providerAccountId: account.providerAccountId }
  return ((await accountRoute(options, "accounts", fields)) as { accounts: AccountListing[] }).accounts
}

/**
 * Links another OAuth/OIDC provider's account to the signed-in user: the browser goes to the
 * provider and comes back to `redirectTo` (default: this page). An account another user already
 * has is refused there (`OAuthAccountNotLinked` on the error page).
 *
 * @example
 * ```ts
 * await linkAccount("github", { redirectTo: "/account" })
 * ```
 */
export async function linkAccount(provider: string, options: BasePathOption & { redirectTo?: string } = {}): Promise<undefined> {
  const { basePath = "/auth", redirectTo = location.href } = options
  return navigate(await post(basePath, `${basePath}/link/${encodeURIComponent(provider)}`, { callbackUrl: redirectTo }))
}

/** GET (no `fields`) or POST an account route; its JSON, or an {@link AccountRouteError}. */
async function accountRoute(options: BasePathOption, route: string, fields?: Record<string, string>): Promise<unknown> {
  const basePath = options.basePath ?? "/auth"
  const init: RequestInit = { credentials: "same-origin", headers: { Accept: "application/json" } }
  if (fields) {
    init.method = "POST"
    init.headers = { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" }
    init.body = new URLSearchParams({ ...fields, csrfToken: (await getCsrfToken({ basePath })) ?? "" })
  }
  const response = await fetch(`${basePath}/${route}`, init)
  const answer = (await response.json().catch(() => null)) as { error?: unknown; message?: unknown } | null
  if (!response.ok || answer === null || typeof answer !== "object") {
    const type = typeof answer?.error === "string" ? answer.error : `HTTP ${response.status}`
    throw new AccountRouteError(type, typeof answer?.message === "string" ? answer.message : type, response.status)
  }
  return answer
}

/** A session answer, or `null` for an empty one. */
function sessionOf(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && Object.keys(value).length > 0 ? (value as Record<string, unknown>) : null
}

/** Runs the passkey ceremony the server chooses; returns the fields the callback takes. */
async function passkeyCeremony(optionsUrl: string): Promise<Record<string, string>> {
  if (
    typeof PublicKeyCredential !== "function" ||
    typeof PublicKeyCredential.parseRequestOptionsFromJSON !== "function" ||
    typeof PublicKeyCredential.parseCreationOptionsFromJSON !== "function"
  ) {
    throw new Error("This browser cannot use passkeys")
  }
  const response = await fetch(optionsUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
  const answer = (await response.json().catch(() => null)) as { action?: string; options?: object; error?: string } | null
  if (!response.ok || !answer?.options) {
    throw new Error(`Passkey options were refused: ${answer?.error ?? (response.redirected ? new URL(response.url).searchParams.get("error") : null) ?? response.status}`)
  }
  const action = answer.action === "register" ? "register" : "authenticate"
  let credential: Credential | null
  try {
    credential =
      action === "register"
        ? await navigator.credentials.create({
            publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(answer.options as PublicKeyCredentialCreationOptionsJSON),
          })
        : await navigator.credentials.get({
            publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(answer.options as PublicKeyCredentialRequestOptionsJSON),
          })
  } catch (error) {
    throw explained(error, action)
  }
  if (!credential) throw new Error("The browser returned no passkey")
  return { action, data: JSON.stringify(credential) }
}

/**
 * The browser's refusal of a ceremony as a `DOMException` of the same name, with a message a person
 * can act on. Browsers answer `NotAllowedError` alike for "cancelled", "timed out" and, when
 * signing in, "no passkey on this device" (so that pages cannot learn which passkeys a device
 * holds): the message says everything it may mean. Other errors are returned as they are.
 */
function explained(error: unknown, action: "register" | "authenticate"): unknown {
  if (!(error instanceof DOMException)) return error
  const message = refusalMessage(error.name, action)
  return message === undefined ? error : new DOMException(message, error.name)
}

function refusalMessage(name: string, action: "register" | "authenticate"): string | undefined {
  const host = location.hostname
  // Browsers refuse passkeys on an IP address: they belong to a host name.
  if (name === "SecurityError" && (/^[0-9.]+$/.test(host) || host.startsWith("["))) {
    if (!/^127\./.test(host) && host !== "[::1]") return `Passkeys do not work at an IP address such as ${host}. Open this page at the site's host name instead.`
    const here = new URL(location.href)
    here.hostname = "localhost"
    return `Passkeys do not work at an IP address such as ${host}. Open ${here.href} instead.`
  }
  if (action === "register") {
    if (name === "InvalidStateError") return "This device already holds a passkey for this account."
    if (name === "NotAllowedError") return "No passkey was created: the request was cancelled or timed out."
    return undefined
  }
  if (name === "NotAllowedError" || name === "InvalidStateError") {
    return "No passkey for this site was found on this device, or the request was cancelled. To make one, sign up with a passkey."
  }
  return undefined
}

/** Posts `body` as a form with the CSRF token, asking for the redirect as JSON. */
async function post(basePath: string, url: string, body: Record<string, string>): Promise<AuthResult> {
  const csrf = (await getJson(`${basePath}/csrf`)) as { csrfToken?: string } | null
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body: new URLSearchParams({ ...body, csrfToken: csrf?.csrfToken ?? "" }),
  })
  const answer = (await response.json().catch(() => null)) as { url?: string } | null
  // Only a URL the server vouched for: the caller's redirectTo is unchecked input.
  const vouched = typeof answer?.url === "string" ? answer.url : undefined
  const target = vouched ?? location.href
  // A refusal with a URL (429, 503) names its error there; the current page's query names nothing.
  const params = vouched === undefined ? new URLSearchParams() : new URL(vouched, location.href).searchParams
  const error = params.get("error") ?? (response.ok ? null : `HTTP ${response.status}`)
  const retryAfter = Number(response.headers.get("Retry-After"))
  return {
    ok: error === null,
    url: target,
    error,
    code: params.get("code"),
    status: response.status,
    retryAfter: response.headers.has("Retry-After") && Number.isFinite(retryAfter) ? retryAfter : null,
  }
}

function navigate(result: AuthResult): undefined {
  location.assign(result.url)
  return undefined
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
  return response.ok ? response.json().catch(() => null) : null
}

function stringFields(fields: Record<string, unknown>): Record<string, string> {
  const strings: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) strings[name] = String(value)
  }
  return strings
}
