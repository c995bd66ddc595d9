/**
 * `Auth(request, config)`: the one entry point every integration calls. It reads the request,
 * checks the configuration, runs the action the path names, and turns every failure into a
 * response here and nowhere else, so no action builds an error redirect and no error, stack trace
 * or internal message reaches the client.
 * @module
 */
import {
  AuthError,
  CredentialsSignin,
  ErrorPageLoop,
  InvalidRequest,
  MissingCSRF,
  RateLimited,
  RecentAuthRequired,
  ServerBusy,
  TwoFactorNotEnrolled,
  UnknownAction,
  UntrustedHost,
  isClientError,
} from "../errors.js"
import type { Cookie } from "../cookies/defaults.js"
import { raw } from "../markers.js"
import type { AuthConfig, RawMarker } from "../types.js"
import type { AuthAction } from "./auth-action.js"
import { assertConfig, passkeyLibraryRefusal } from "./assert-config.js"
import { resolveConfig, type ResolvedConfig } from "./config.js"
import { toInternalRequest, type InternalRequest } from "./internal-request.js"
import { appendCookies, NO_CACHE_HEADERS, toResponse, type ResponseInternal } from "./internal-response.js"
import { keptFields, keptFieldsCookie } from "./credentials/kept-fields.js"
import { createLogger, logError, reportConfigError, reportConfigWarnings, requestLogger } from "./logger.js"
import { checkAdapterSchema } from "./schema-check.js"
import { postingPage } from "./posting-page.js"
import { cookiesOf, createRequestContext, pageUrl, type RequestContext } from "./request-context.js"
import { isJsonRequest } from "./request-shape.js"
import { csrf } from "./actions/csrf.js"
import { providers } from "./actions/providers.js"
import { getSession, updateSession } from "./actions/session.js"
import { refusalStatus, type RefusalStatuses } from "./json-refusal.js"

type Action = (ctx: RequestContext) => ResponseInternal | Promise<ResponseInternal>

const routes: Record<"GET" | "POST", Partial<Record<AuthAction, Action>>> = {
  GET: {
    providers,
    csrf,
    session: getSession,
    // Everything but the session, CSRF and provider routes is imported on first use: a process
    // that only checks sessions never loads sign-in, sign-out, callbacks, pages or passkeys.
    signin: async (ctx) => (await import("./actions/signin.js")).signInPage(ctx),
    signout: async (ctx) => (await import("./actions/signout.js")).signOutPage(ctx),
    callback: async (ctx) => (await import("./actions/callback.js")).callback(ctx),
    "verify-request": async (ctx) => (await import("./actions/info-pages.js")).verifyRequestPage(ctx),
    error: async (ctx) => (await import("./actions/info-pages.js")).errorPage(ctx),
    "webauthn-options": async (ctx) => (await import("./webauthn/options.js")).webAuthnOptions(ctx),
    // The opt-in routes (the router serves them only when configured), imported on first use too.
    sessions: async (ctx) => (await import("./account/account-routes.js")).sessionsList(ctx),
    accounts: async (ctx) => (await import("./account/account-routes.js")).accountsList(ctx),
    "two-factor": async (ctx) => {
      const { subPath } = ctx.request
      if (subPath === undefined) return (await import("./two-factor/challenge-route.js")).twoFactorPage(ctx)
      if (subPath === "status") return (await import("./two-factor/management-routes.js")).twoFactorStatusRoute(ctx)
      throw new UnknownAction(`Cannot handle action: GET two-factor/${subPath}`)
    },
    organizations: async (ctx) => (await import("./organizations/routes.js")).organizationRoutes(ctx),
    admin: async (ctx) => (await import("./admin/routes.js")).adminRoutes(ctx),
  },
  POST: {
    session: updateSession,
    signin: async (ctx) => (await import("./actions/signin.js")).signIn(ctx),
    signout: async (ctx) => (await import("./actions/signout.js")).signOut(ctx),
    callback: async (ctx) => (await import("./actions/callback.js")).callback(ctx),
    sessions: async (ctx) => (await import("./account/account-routes.js")).sessionsChange(ctx),
    accounts: async (ctx) => (await import("./account/account-routes.js")).accountsChange(ctx),
    link: async (ctx) => (await import("./account/account-routes.js")).linkAccount(ctx),
    "backchannel-logout": async (ctx) => (await import("./oauth/backchannel-logout.js")).backchannelLogout(ctx),
    "two-factor": async (ctx) => {
      const { subPath } = ctx.request
      // Every form and call below two-factor changes something (a sign-in, a factor): checked
      // here, once, so no module of them can be reached without it.
      if (!ctx.csrfVerified) throw new MissingCSRF(`CSRF token was missing during an action two-factor${subPath ? `/${subPath}` : ""}`)
      if (subPath === undefined) return (await import("./two-factor/challenge-route.js")).twoFactorChallenge(ctx)
      if (subPath === "status") throw new UnknownAction("Cannot handle action: POST two-factor/status")
      return (await import("./two-factor/management-routes.js")).twoFactorManagement(ctx)
    },
    // Every organization and admin POST changes something: checked here, once, as for two-factor.
    organizations: async (ctx) => {
      if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action organizations")
      return (await import("./organizations/routes.js")).organizationRoutes(ctx)
    },
    admin: async (ctx) => {
      if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action admin")
      return (await import("./admin/routes.js")).adminRoutes(ctx)
    },
  },
}

/**
 * Routes that use neither the CSRF token nor the callback URL, so their cookies are neither read
 * nor minted. Auth.js mints both on a session read too; that costs every session check a digest and
 * two `Set-Cookie`s, and the client fetches `csrf` before any POST anyway.
 */
const STATELESS: Record<"GET" | "POST", ReadonlySet<AuthAction>> = {
  GET: new Set<AuthAction>(["providers", "session", "sessions", "accounts"]),
  // Posted by the identity provider's server, which has no browser cookies to check or give.
  POST: new Set<AuthAction>(["backchannel-logout"]),
}

/** Whether `request` reads and mints neither the CSRF token nor the callback URL (see {@link STATELESS}). */
function isStateless(request: InternalRequest): boolean {
  // The two-factor status is a JSON read, like the account routes' lists; its siblings are forms.
  if (request.action === "two-factor") return request.method === "GET" && request.subPath === "status"
  // Their GETs are JSON reads, but for the invitation page, which carries a form.
  if (request.action === "organizations" || request.action === "admin") return request.method === "GET" && request.segments?.[0] !== "invitation"
  return STATELESS[request.method].has(request.action)
}

/** The routes that render an HTML page on GET, which also show configuration errors as a page. */
const PAGE_ACTIONS: ReadonlySet<AuthAction> = new Set<AuthAction>(["signin", "signout", "error", "verify-request", "two-factor"])

const CONFIGURATION_MESSAGE = "There was a problem with the server configuration. Check the server logs for more information."

/**
 * Serves one auth request: every route under `basePath` (`signin`, `signout`, `callback`,
 * `session`, `csrf`, `providers`, `error`, `verify-request`, `webauthn-options`, and the opt-in
 * account, back-channel logout and `two-factor` routes).
 *
 * Pass the same `config` object on every request: it is resolved once and cached. The
 * environment is not read here; integrations apply it first with `setEnvDefaults`.
 *
 * With `raw` in the config the internal response object is returned instead, and `AuthError`s
 * are thrown to the caller (for framework authors who set cookies and redirect themselves).
 *
 * @example
 * ```ts
 * import { Auth } from "gatehouse-auth"
 * import Credentials from "gatehouse-auth/providers/credentials"
 *
 * const config = { providers: [Credentials({ authorize })], secret: env.AUTH_SECRET, trustHost: true }
 * export default { fetch: (request: Request) => Auth(request, config) }
 * ```
 */
export async function Auth(request: Request, config: AuthConfig & { raw: RawMarker }): Promise<ResponseInternal>
export async function Auth(request: Request, config: Omit<AuthConfig, "raw"> & { raw?: undefined }): Promise<Response>
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal>
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
  try {
    return await handle(request, config)
  } catch (error) {
    if (error instanceof AuthError && isRawConfig(config)) throw error
    // Reached when building an error response failed too (e.g. a custom page path that cannot go
    // into a Location header), or when rendering the configuration error page did.
    safeLogger(config).error("Error", error)
    return Response.json({ message: CONFIGURATION_MESSAGE }, { status: 500 })
  }
}

async function handle(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
  let resolved: ResolvedConfig
  try {
    resolved = resolveConfig(config)
  } catch (error) {
    logError(safeLogger(config), error)
    if (error instanceof AuthError && isRawConfig(config)) throw error
    return Response.json({ message: CONFIGURATION_MESSAGE }, { status: 500 })
  }
  // Configuration warnings are not this request's; what goes wrong with the request is.
  const logger = requestLogger(resolved.logger, request)

  let internal: InternalRequest
  try {
    internal = await toInternalRequest(request, resolved.basePath, resolved)
  } catch (error) {
    const reported = error instanceof AuthError ? error : new InvalidRequest("The request could not be read", { cause: error })
    logError(logger, reported)
    if (resolved.raw) throw reported
    return Response.json("Bad request.", { status: 400 })
  }

  const { error, warnings } = assertConfig(resolved, { url: internal.url })
  reportConfigWarnings(resolved.logger, resolved, warnings)
  checkAdapterSchema(resolved.adapter, resolved.logger)
  let configError = error
  if (!configError) {
    const refusal = passkeyLibraryRefusal(resolved)
    configError = refusal instanceof Promise ? await refusal : refusal
  }
  if (configError) {
    reportConfigError(resolved.logger, resolved, configError)
    if (resolved.raw) throw configError
    return configurationErrorResponse(resolved, internal, configError)
  }

  const returnRedirect = internal.headers.has("X-Auth-Return-Redirect")
  let ctx: RequestContext | undefined
  try {
    ctx = await createRequestContext(resolved, internal, !isStateless(internal), logger)
    const action = routes[internal.method][internal.action]
    if (!action) throw new UnknownAction(`Cannot handle action: ${internal.method} ${internal.action}`)
    const actionResult = await action(ctx)
    // A new CSRF cookie and a changed callback URL go out first on every successful answer, then
    // what goes out with any answer; the action's own come last, so they win over both.
    const { cookiesToSet, cookiesAlways } = ctx
    const result =
      cookiesToSet.length === 0 && cookiesAlways.length === 0
        ? actionResult
        : { ...actionResult, cookies: [...cookiesToSet, ...cookiesAlways, ...(actionResult.cookies ?? [])] }
    if (resolved.raw) return result
    const response = toResponse(result)
    // Clients that cannot follow a redirect themselves (fetch from a form handler) ask for the URL.
    if (returnRedirect && result.redirect !== undefined) return Response.json({ url: result.redirect }, { headers: response.headers })
    return response
  } catch (error) {
    logError(logger, error)
    if (resolved.raw && error instanceof AuthError && !returnRedirect) throw error
    return withCookies(await errorResponse(resolved, internal, error, returnRedirect), ctx?.cookiesAlways ?? [])
  }
}

/** `answer` with `cookies` added before its own: what goes out with a failure too. */
function withCookies(answer: Response | ResponseInternal, cookies: readonly Cookie[]): Response | ResponseInternal {
  if (cookies.length === 0) return answer
  if (!(answer instanceof Response)) return { ...answer, cookies: [...cookies, ...(answer.cookies ?? [])] }
  appendCookies(answer.headers, cookies)
  return answer
}

/**
 * Refusals of something the client may not do yet, answered to a script's JSON call (see
 * {@link isJsonRequest}) as JSON with a status rather than a redirect (it must learn it was
 * refused, and why): a sensitive change without a recent second factor, a second-factor action
 * for a user who has none. A browser's form post or navigation goes to the two-factor page
 * instead, which asks for the check (step-up) or sets a factor up.
 */
const JSON_REFUSALS: RefusalStatuses = [
  [RecentAuthRequired, 403],
  [TwoFactorNotEnrolled, 409],
]

/** Routes only scripts call (the passkey page's `fetch`): JSON whoever asks. */
const JSON_ROUTES: ReadonlySet<AuthAction> = new Set<AuthAction>(["webauthn-options"])

/**
 * The answer to a failed action. Only client-safe error types are named (everything else is
 * `Configuration`), on the page of the error's kind; cookies computed before the failure are
 * dropped, as in Auth.js, except the context's `cookiesAlways` (added by the caller). A refusal
 * for now (throttled, busy) is not a redirect: see {@link retryLaterResponse}. A `raw` caller
 * that gets the error thrown gets no `cookiesAlways` with it: no integration sends a callback
 * (the one route that adds them) through `raw`.
 */
async function errorResponse(config: ResolvedConfig, request: InternalRequest, error: unknown, returnRedirect: boolean): Promise<Response | ResponseInternal> {
  if (request.method === "POST" && request.action === "session") {
    return config.raw ? { status: 400, headers: { "Content-Type": "application/json" }, body: null } : Response.json(null, { status: 400 })
  }
  const status = refusalStatus(JSON_REFUSALS, error)
  if (status !== undefined && error instanceof AuthError && (isJsonRequest(request) || JSON_ROUTES.has(request.action))) {
    // The type only: an application's callback may have thrown it with an internal message.
    const body = { error: error.type }
    const headers = { ...NO_CACHE_HEADERS, "Content-Type": "application/json" }
    return config.raw ? { status, headers, body } : Response.json(body, { status, headers })
  }
  const params = new URLSearchParams({ error: isClientError(error) ? error.type : "Configuration" })
  if (error instanceof CredentialsSignin) params.set("code", String(error.code))
  const origin = request.url.origin
  const place = { origin, config }
  let page: string
  let kept: Cookie | undefined
  if (error instanceof AuthError && error.kind === "signIn") {
    const own = ownSignInPage(config, request, params)
    // Only the built-in page is known to read it; a custom page gets Auth.js's query. Kept in a
    // cookie, not the URL, which access logs and `Referer` would carry.
    if (!own && !config.pages.signIn && error instanceof CredentialsSignin) kept = keptFieldsCookie(cookiesOf(config, request).signInIdentifier, typedIdentifiers(config, request))
    page = own ?? pageUrl(place, "signIn", "signin", params)
  } else if (error instanceof AuthError && (error.kind === "twoFactor" || status !== undefined) && config.twoFactor) {
    // A wrong code: asked again on the second-factor page while the pending sign-in lasts; a
    // browser refused for want of a (recent) second factor goes there too, to give it. Without
    // twoFactor that page is not served, and the error page says it instead.
    // Where a step-up was headed, asked again on the page (which checks it again).
    const posted = request.body?.callbackUrl
    const back = typeof posted === "string" && posted !== "" ? posted : request.query.callbackUrl
    if (typeof back === "string" && back !== "" && back.length <= 2048) params.set("callbackUrl", back)
    page = pageUrl(place, "twoFactor", "two-factor", params)
  } else {
    page = pageUrl(place, "error", "error", params)
  }
  const url = absolute(page, origin)
  if (error instanceof RateLimited || error instanceof ServerBusy) return retryLaterResponse(config, error, url, returnRedirect)
  const cookies = kept ? [kept] : []
  if (config.raw) return { redirect: url, cookies }
  return withCookies(returnRedirect ? Response.json({ url }) : new Response(null, { status: 302, headers: { Location: url } }), cookies)
}

/**
 * Without `pages.signIn`, a sign-in form the app posted from a page of its own (its `Referer`)
 * gets the failure back on that page, with Auth.js's query for a custom page; the built-in
 * page, and forms on it, are left as they are (see {@link postingPage}).
 */
function ownSignInPage(config: ResolvedConfig, request: InternalRequest, params: URLSearchParams): string | undefined {
  if (config.pages.signIn || request.method !== "POST" || (request.action !== "callback" && request.action !== "signin")) return undefined
  return postingPage(request.headers.get("referer"), request.url.origin, config.basePath, params, config)
}

/** What the person typed as their address or user name on the credentials form that failed. */
function typedIdentifiers(config: ResolvedConfig, request: InternalRequest): [string, string][] {
  if (request.action !== "callback") return []
  const provider = config.providers.find((candidate) => candidate.id === request.providerId)
  return provider?.type === "credentials" ? keptFields(provider, request.body) : []
}

/**
 * `429` for a throttled attempt, `503` when the server is too busy, both with `Retry-After`, so
 * clients and proxies know to wait rather than retry at once (a redirect would hide both). A form
 * post gets a page linking to the sign-in page (`url`, which names the error); a client asking
 * with `X-Auth-Return-Redirect` gets `{ url }` as JSON, as for any other answer. `raw` callers get
 * here only with `X-Auth-Return-Redirect` (otherwise the error is thrown to them).
 */
async function retryLaterResponse(config: ResolvedConfig, error: RateLimited | ServerBusy, url: string, returnRedirect: boolean): Promise<Response | ResponseInternal> {
  const status = error instanceof RateLimited ? 429 : 503
  const headers = { ...NO_CACHE_HEADERS, "Retry-After": String(error.retryAfter) }
  if (config.raw) return { status, headers: { ...headers, "Content-Type": "application/json" }, body: { url } }
  if (returnRedirect) return Response.json({ url }, { status, headers })
  const page = (await import("./pages/index.js")).renderRetryLaterPage({ theme: config.theme, status, retryAfter: error.retryAfter, signInUrl: url })
  return toResponse({ ...page, headers: { ...page.headers, ...headers } })
}

/**
 * The answer when the configuration is unusable: the error page (or `pages.error`) for GET on a
 * page route, otherwise a 500 JSON message. Neither says what is wrong; the log does.
 */
async function configurationErrorResponse(config: ResolvedConfig, request: InternalRequest, error: AuthError): Promise<Response> {
  if (request.method === "GET" && PAGE_ACTIONS.has(request.action) && request.subPath === undefined) {
    const custom = config.pages.error
    if (custom && !(request.query.callbackUrl ?? "").startsWith(custom)) {
      const target = `${custom}${custom.includes("?") ? "&" : "?"}error=Configuration`
      // An untrusted host must not name the origin: the page goes out as configured (a path
      // stays relative, and the browser resolves it against the host it really asked).
      const location = error instanceof UntrustedHost ? target : absolute(target, request.url.origin)
      return new Response(null, { status: 302, headers: { Location: location } })
    }
    if (custom) logError(config.logger, new ErrorPageLoop("The custom error page is itself failing; showing the built-in one"))
    const page = (await import("./pages/index.js")).renderErrorPage(
      {
        url: request.url,
        basePath: config.basePath,
        theme: config.theme,
        pages: {},
        csrfToken: undefined,
        callbackUrl: request.url.origin,
        providers: [],
      },
      "Configuration",
    )
    return toResponse(page)
  }
  return Response.json({ message: CONFIGURATION_MESSAGE }, { status: 500 })
}

/** A configured page path made absolute on the request's origin; absolute URLs stay as they are. */
function absolute(url: string, origin: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? `${origin}${url}` : url
}

function isRawConfig(config: unknown): boolean {
  return typeof config === "object" && config !== null && (config as AuthConfig).raw === raw
}

/** The application's logger when the configuration is readable enough to have one. */
function safeLogger(config: unknown) {
  try {
    return createLogger(typeof config === "object" && config !== null ? (config as AuthConfig) : {})
  } catch {
    return createLogger({})
  }
}
