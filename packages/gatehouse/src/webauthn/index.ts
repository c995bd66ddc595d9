/**
 * Passkeys in the browser: a `signIn` that, for a passkey (WebAuthn) provider, runs the whole
 * ceremony — fetches the options, asks the browser's authenticator (`navigator.credentials`),
 * posts the answer — and signs in with any other provider as `gatehouse-auth/client`'s does.
 * Apart from `gatehouse-auth/client` so that a sign-in page without passkeys does not carry the
 * ceremony; Auth.js's `next-auth/webauthn` and `@auth/sveltekit/webauthn` become this module.
 *
 * The auth routes are where `basePath` says; without it, where the page's framework client put
 * them (`gatehouse-auth/react`: its `SessionProvider`'s base path, `/api/auth` by default;
 * `gatehouse-auth/solid-start/client`: `/api/auth`), else `/auth`.
 *
 * @example
 * ```ts
 * import { signIn } from "gatehouse-auth/webauthn"
 *
 * await signIn("passkey")                                  // sign in with a passkey saved on this device
 * await signIn("passkey", { action: "register" })          // signed in: add a passkey to the account
 * await signIn("passkey", { action: "register", email })   // signed out: a new account with a new passkey
 * ```
 * @module gatehouse-auth/webauthn
 */
import type { AuthorizationParams, AuthResult, ProviderEntry, SignInOptions } from "../client/index.js"

export type { AuthorizationParams, AuthResult, SignInOptions }

/** next-auth's name for the authorization parameters {@link signIn} takes third. */
export type SignInAuthorizationParams = AuthorizationParams
/** next-auth's name for what {@link signIn} resolves to when it does not navigate away. */
export type SignInResponse = AuthResult

/**
 * What a framework's browser client on the page tells this module: where its auth routes are,
 * and whom to tell of a sign-in (`gatehouse-auth/react` sets it). A global under a registered
 * symbol rather than an import, because each browser client module is bundled and served alone.
 */
interface PageClient {
  basePath?: string
  signedIn?: () => void
}

/**
 * Signs in with `provider` (its id). For a passkey provider this runs the whole ceremony, the
 * server choosing it (`action`, default `authenticate`; `register` to add a passkey to the
 * signed-in account, or signed out, to make an account with `email`, not yet proven, and `name`).
 * Resolves once done when `redirect` is `false` (or on failure before navigating); otherwise the
 * page navigates. Without a provider (next-auth's `signIn()`), goes to the sign-in page.
 *
 * @throws when the provider does not exist, or the browser refused the passkey ceremony: a
 *   `DOMException` named as the browser named it, with a message to show. `NotAllowedError`: the
 *   request was cancelled or timed out, or (signing in) this device holds no passkey for the site;
 *   `InvalidStateError` (registering): the device already holds one for the account;
 *   `SecurityError`: among others, the page is on an IP address, where browsers refuse passkeys.
 * @example
 * ```ts
 * import { signIn } from "gatehouse-auth/webauthn"
 *
 * try {
 *   const result = await signIn("passkey", { action: "register", name: "Ada's laptop", redirect: false })
 *   if (!result?.ok) showError(result?.error)
 * } catch (error) {
 *   showError((error as Error).message) // "No passkey was created: the request was cancelled or timed out."
 * }
 * ```
 */
export async function signIn(provider?: string, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<AuthResult | undefined> {
  const page = ((globalThis as Record<symbol, PageClient | undefined>)[Symbol.for("gatehouse-auth.page-client")] ?? {}) as PageClient
  const { basePath = page.basePath ?? "/auth", redirect = true, action, callbackUrl, redirectTo: given, ...rest } = options
  const redirectTo = given ?? callbackUrl ?? location.href
  if (provider === undefined) {
    location.assign(`${basePath}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`)
    return undefined
  }
  const providers = (await getJson(`${basePath}/providers`)) as Record<string, ProviderEntry> | null
  const entry = providers?.[provider]
  if (!entry) throw new Error(`No provider with id ${JSON.stringify(provider)} at ${basePath}`)

  const id = encodeURIComponent(provider)
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(rest)) if (value !== undefined && value !== null) fields[name] = String(value)
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
  if (redirect || entry.type === "oauth" || entry.type === "oidc") location.assign(result.url)
  // Other tabs and the page's provider refetch only when something changed.
  if (result.ok) page.signedIn?.()
  return redirect || entry.type === "oauth" || entry.type === "oidc" ? undefined : result
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

// What follows is gatehouse-auth/client's, kept in step with it by hand: a browser client module
// imports nothing at run time, so that each is served alone (test/package/dependency-direction).

/** Posts `body` as a form with the CSRF token, asking for the redirect as JSON. */
async function post(basePath: string, url: string, body: Record<string, string>): Promise<AuthResult> {
  const token = (await getJson(`${basePath}/csrf`)) as { csrfToken?: unknown } | null
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    // "" when the route gave no token: the POST is then refused.
    body: new URLSearchParams({ ...body, csrfToken: typeof token?.csrfToken === "string" ? token.csrfToken : "" }),
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

/** How every GET of a route asks: with the site's cookies, for JSON. */
const GET_JSON: RequestInit = { credentials: "same-origin", headers: { Accept: "application/json" } }

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, GET_JSON)
  return response.ok ? response.json().catch(() => null) : null
}
