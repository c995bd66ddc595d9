/**
 * Everything an action needs about one request, worked out once before it runs: the cookies in
 * force (secure or not), the provider named in the path, the CSRF state and the callback URL.
 * @module
 */
import type { Cookie, CookiesOptions } from "../cookies/defaults.js"
import { InvalidCallbackUrl } from "../errors.js"
import type { ProviderConfig } from "../providers/types.js"
import type { LoggerInstance } from "../types.js"
import { authUrl } from "./auth-url.js"
import { isHttpCallbackUrl } from "./callback-url.js"
import type { ResolvedConfig } from "./config.js"
import { csrfState } from "./csrf.js"
import { requestLogger } from "./logger.js"
import type { InternalRequest } from "./internal-request.js"

/** One request, with the configuration it runs under. */
export interface RequestContext {
  readonly config: ResolvedConfig
  readonly request: InternalRequest
  readonly logger: LoggerInstance
  /** The request URL's origin, the `baseUrl` of the redirect callback. */
  readonly origin: string
  /** The cookies of this request's kind (secure on https or with `useSecureCookies`). */
  readonly cookies: Readonly<CookiesOptions>
  /** The provider named in the path, if the path names one that exists. */
  readonly provider: ProviderConfig | undefined
  /** Where to go after the action: validated by the redirect callback. */
  readonly callbackUrl: string
  /** The CSRF token to put in forms; `undefined` when CSRF checks are skipped. */
  readonly csrfToken: string | undefined
  /** Whether this POST carried the right CSRF token (always true when checks are skipped). */
  readonly csrfVerified: boolean
  /** Cookies the handler sends first on a successful answer: a new CSRF cookie, the callback URL. */
  readonly cookiesToSet: readonly Cookie[]
  /**
   * Cookies the handler sends with whatever answer this request gets, a failure's too (a failed
   * action's own cookies are dropped): deletions that must happen whether the action succeeds,
   * such as the check cookies of an OAuth flow its callback ends. Actions add to it.
   */
  readonly cookiesAlways: Cookie[]
}

/** The cookies of `request`'s kind: secure on https or with `useSecureCookies`. */
export function cookiesOf(config: ResolvedConfig, request: InternalRequest): Readonly<CookiesOptions> {
  return (config.useSecureCookies ?? request.url.protocol === "https:") ? config.cookies.secure : config.cookies.insecure
}

/**
 * The context of `request` under `config`. Runs the redirect callback, which may throw.
 *
 * @param withState - False for routes that use neither the CSRF token nor the callback URL (a
 *   session read): their cookies are then neither checked nor minted, which would cost a digest
 *   and a `Set-Cookie` on every session check. `csrfVerified` is then false and `callbackUrl` the
 *   origin.
 * @param logger - The request's logger when the caller has built it already: a logger's
 *   `forRequest` is called once per request, so a per-call request id stays one id per request.
 */
export function createRequestContext(
  config: ResolvedConfig,
  request: InternalRequest,
  withState = true,
  logger: LoggerInstance = requestLogger(config.logger, request),
): RequestContext | Promise<RequestContext> {
  const cookies = cookiesOf(config, request)
  const origin = request.url.origin
  const provider = request.providerId === undefined ? undefined : config.providers.find((p) => p.id === request.providerId)
  // Ready at once: a session read waits for nothing before it starts.
  if (!withState) {
    return { config, request, logger, origin, cookies, provider, callbackUrl: origin, csrfToken: undefined, csrfVerified: false, cookiesToSet: NO_COOKIES, cookiesAlways: [] }
  }
  return statefulContext(config, request, { origin, cookies, provider, logger })
}

const NO_COOKIES: readonly Cookie[] = Object.freeze([])

/** The context of a route that reads or mints the CSRF token and the callback URL. */
async function statefulContext(
  config: ResolvedConfig,
  request: InternalRequest,
  { origin, cookies, provider, logger }: Pick<RequestContext, "origin" | "cookies" | "provider" | "logger">,
): Promise<RequestContext> {
  const cookiesToSet: Cookie[] = []

  let csrfToken: string | undefined
  let csrfVerified = true
  if (!config.skipCSRFCheck) {
    const csrf = await csrfState(
      request.cookies.get(cookies.csrfToken.name),
      request.body?.csrfToken,
      request.method === "POST",
      config.secret,
    )
    csrfToken = csrf.token
    csrfVerified = csrf.verified
    if (csrf.cookieValue) cookiesToSet.push({ ...cookies.csrfToken, value: csrf.cookieValue })
  }

  const cookieCallbackUrl = request.cookies.get(cookies.callbackUrl.name)
  const callbackUrl = await resolveCallbackUrl(config, request, origin, cookieCallbackUrl)
  if (callbackUrl !== cookieCallbackUrl) cookiesToSet.push({ ...cookies.callbackUrl, value: callbackUrl })

  return {
    config,
    request,
    logger,
    origin,
    cookies,
    provider,
    callbackUrl,
    csrfToken,
    csrfVerified,
    cookiesToSet,
    cookiesAlways: [],
  }
}

/**
 * The callback URL: the body's or query's `callbackUrl`, else the callback-url cookie, else the
 * origin; a given value always through the redirect callback. A value that is not an http(s) URL
 * or path is client input gone wrong, not a server fault: it is skipped (Auth.js answers 500).
 */
async function resolveCallbackUrl(
  config: ResolvedConfig,
  request: InternalRequest,
  origin: string,
  cookieValue: string | undefined,
): Promise<string> {
  const fromBody = request.body?.callbackUrl
  const candidates = [typeof fromBody === "string" ? fromBody : undefined, request.query.callbackUrl, cookieValue]
  for (const candidate of candidates) {
    if (!candidate) continue
    const url = await redirectThroughCallback(config, candidate, origin)
    if (url !== undefined) return url
    config.logger.debug("InvalidCallbackUrl", "Ignored a callback URL that is not an http(s) URL or path")
  }
  return origin
}

/**
 * `candidate` as the redirect callback decides it, or `undefined` when it is not an http(s) URL
 * or path at all (then the callback is not asked).
 *
 * @throws {InvalidCallbackUrl} when the redirect callback returns anything but a non-empty string.
 */
export async function redirectThroughCallback(config: ResolvedConfig, candidate: string, origin: string): Promise<string | undefined> {
  if (!isHttpCallbackUrl(candidate, origin)) return undefined
  const url: unknown = await config.callbacks.redirect({ url: candidate, baseUrl: origin })
  if (typeof url !== "string" || url === "") {
    throw new InvalidCallbackUrl("The redirect callback must return a non-empty string")
  }
  return url
}

/** The absolute URL of an auth route: `{origin}{basePath}/{path}`. */
export function routeUrl(ctx: Pick<RequestContext, "origin" | "config">, path: string): string {
  return authUrl(ctx.origin, ctx.config.basePath, path)
}

/**
 * A configured custom page with a query appended, or the built-in page's absolute URL. Custom
 * pages stay as configured (usually a path), as Auth.js sends them.
 */
export function pageUrl(ctx: Pick<RequestContext, "origin" | "config">, page: "signIn" | "signOut" | "error" | "verifyRequest" | "twoFactor", builtIn: string, query?: URLSearchParams): string {
  const custom = ctx.config.pages[page]
  const base = custom ?? routeUrl(ctx, builtIn)
  const search = query?.toString()
  return search ? `${base}${base.includes("?") ? "&" : "?"}${search}` : base
}
