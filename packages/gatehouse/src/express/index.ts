/**
 * Gatehouse for Express 4 and 5: the auth routes as one middleware, the session of any request,
 * and the two middlewares apps otherwise write by hand.
 *
 * @example
 * ```ts
 * import express from "express"
 * import { ServerAuth, authSession, requireAuth } from "gatehouse-auth/express"
 * import GitHub from "gatehouse-auth/providers/github"
 *
 * const config = { providers: [GitHub] }
 * const app = express()
 * app.set("trust proxy", 1)                          // behind one proxy: https is seen as https
 * app.use("/auth", ServerAuth(config))               // GET /auth/signin, /auth/callback/github, …
 * app.use(authSession(config))                       // res.locals.session on every request
 * app.get("/dashboard", requireAuth(config), (req, res) => res.json(res.locals.session?.user))
 * ```
 * @module gatehouse-auth/express
 */
import { getSession as sessionOf, isAuthRoute, privateCacheControl } from "../framework/index.js"
import { UntrustedHost } from "../errors.js"
import { Auth, AuthError, type Session } from "../index.js"
import { mountPath, pathAndQuery, returnPath } from "./mount-path.js"
import type { ExpressRequest, ExpressResponse, Middleware, NextFunction } from "./node-types.js"
import { prepareConfig, type ServerAuthConfig } from "./prepared-config.js"
import { requestOrigin, toWebRequest } from "./web-request.js"
import { replaceSetCookies, sendJson, writeWebResponse } from "./web-response.js"

export type { ExpressRequest, ExpressResponse, Middleware, NextFunction } from "./node-types.js"
export type { ServerAuthConfig } from "./prepared-config.js"

// What every Auth.js integration package exports beside its own API: the resources (re-exported,
// not copied, so `declare module "<this module>" { interface Session { … } }` extends the one
// interface everything reads), the errors a server action may catch, and `customFetch`.
export { AuthError, CredentialsSignin, customFetch } from "../index.js"
export type { Account, DefaultSession, Profile, Session, User } from "../index.js"

/** @auth/express's name for {@link ServerAuthConfig}. */
export type ExpressAuthConfig = ServerAuthConfig
/** What {@link getSession} resolves to: the session, or `null` when signed out (@auth/express's name). */
export type GetSessionResult = Promise<Session | null>

/**
 * The auth routes (`signin`, `callback`, `session`, `signout`, …) as an Express middleware. Mount it
 * on the path the routes live under; the base path is taken from the mount point. Requests below
 * it that name no auth action (your own `/auth/login` page, say) go on to the next handler.
 *
 * The environment is applied once (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`,
 * `AUTH_<PROVIDER>_ID`, …) to a copy of `config`. Body parsers may run before it or not.
 * Errors go to `next(error)`; malformed requests get a 400 from the core.
 *
 * @param config - The auth configuration. Pass the same object to {@link getSession}.
 * @example
 * ```ts
 * app.use("/auth", ServerAuth({ providers: [GitHub] }))
 * // or, as in Auth.js with Express 4: app.use("/auth/*", ServerAuth(config))
 * ```
 */
export function ServerAuth(config: ServerAuthConfig): Middleware {
  // One derived config per mount point, so the core's per-object cache keeps working.
  const byBasePath = new Map<string, ServerAuthConfig>()
  const mountedAt = (basePath: string): ServerAuthConfig => {
    let mounted = byBasePath.get(basePath)
    if (!mounted) {
      if (byBasePath.size >= 100) byBasePath.delete(byBasePath.keys().next().value!)
      const prepared = prepareConfig(config).config
      // The same object as getSession's when mounted where the config says: resolved once, warned once.
      mounted = prepared.basePath === basePath ? prepared : { ...prepared, basePath }
      byBasePath.set(basePath, mounted)
    }
    return mounted
  }

  return async (req, res, next) => {
    try {
      const { config: prepared, origin } = prepareConfig(config)
      const basePath = mountPath(req) ?? prepared.basePath
      if (!isAuthRoute(pathAndQuery(req), basePath, prepared)) return next()
      let request: Request
      try {
        request = toWebRequest(req, requestOrigin(req, origin))
      } catch {
        // A Host header that is not a host, or a method no Request can carry (TRACE): answered
        // as the core answers unreadable requests.
        return sendJson(res, 400, "Bad request.")
      }
      const response = await Auth(request, mountedAt(basePath))
      if (res.headersSent) return
      await writeWebResponse(response, res)
    } catch (error) {
      // A client that went away is not an error of the app's.
      if (req.destroyed && res.destroyed) return
      next(error)
    }
  }
}

/** {@link ServerAuth} under its Auth.js name, so code coming from `@auth/express` changes one import. */
export const ExpressAuth = ServerAuth

/**
 * The session of `req`, read in-process (no HTTP request to the app itself), or `null` when
 * signed out. With `res`, cookies the read changes (a database session extended, a stale or
 * invalid session cookie cleared) are sent with the response.
 *
 * @param req - The Express request.
 * @param config - The same config object given to {@link ServerAuth}.
 * @param res - The response, to pass refreshed session cookies on; it must not have been sent.
 * @throws {AuthError} when the session cannot be read because of the configuration (a missing
 *   secret, an unusable `AUTH_URL`); {@link UntrustedHost} itself, its message naming the fix, in
 *   production without `AUTH_URL` or `AUTH_TRUST_HOST`. A database that cannot be reached reads as `null` (and is
 *   logged), so `requireAuth` sends the user to sign in rather than failing.
 * @example
 * ```ts
 * app.get("/api/me", async (req, res) => {
 *   const session = await getSession(req, config, res)
 *   if (!session?.user) return res.status(401).json({ message: "Unauthorized" })
 *   res.json(session.user)
 * })
 * ```
 */
export async function getSession(req: ExpressRequest, config: ServerAuthConfig, res?: ExpressResponse): Promise<Session | null> {
  const { config: prepared, origin: configured } = prepareConfig(config)
  // The host only decides where links would point, and a session read makes none.
  let origin: string
  try {
    origin = requestOrigin(req, configured)
  } catch {
    origin = `${req.protocol === "https" ? "https" : "http"}://localhost`
  }
  const headers = new Headers()
  const cookie = req.headers.cookie
  if (cookie) headers.set("cookie", cookie)
  let read: Awaited<ReturnType<typeof sessionOf>>
  try {
    read = await sessionOf({ url: `${origin}${pathAndQuery(req)}`, headers }, prepared)
  } catch (error) {
    // The typed error as it is, so an app can tell the deployment's fault from others.
    if (error instanceof UntrustedHost) throw error
    throw new AuthError(`Cannot read the session: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  if (res && !res.headersSent && read.setCookies.length > 0) {
    replaceSetCookies(read.setCookies, res)
    // A response carrying someone's session cookie must never be served to others from a
    // shared cache (a CDN), whatever the app later says about caching the page itself.
    keepOutOfSharedCaches(res)
  }
  return read.session
}

/**
 * A middleware that puts the session (or `null`) on `res.locals.session` for every later handler
 * and view. An untrusted host reads as `null` here (and is logged once), so public pages keep
 * answering; a configuration error of any other kind goes to `next(error)`.
 *
 * @example
 * ```ts
 * app.use(authSession(config))
 * app.get("/", (req, res) => res.render("home", { user: res.locals.session?.user }))
 * ```
 */
export function authSession(config: ServerAuthConfig): Middleware {
  return async (req, res, next) => {
    try {
      res.locals.session = await pageSession(req, config, res)
    } catch (error) {
      return next(error)
    }
    next()
  }
}

/**
 * The session as the middlewares read it for a page: an untrusted host (logged once, with its
 * fix) reads as signed out, so public pages still answer and guarded ones send the browser to
 * sign in, where the auth routes answer with the error. Other configuration errors are thrown.
 */
async function pageSession(req: ExpressRequest, config: ServerAuthConfig, res: ExpressResponse): Promise<Session | null> {
  try {
    return await getSession(req, config, res)
  } catch (error) {
    if (error instanceof UntrustedHost) return null
    throw error
  }
}

/** Options of {@link requireAuth}. */
export interface RequireAuthOptions {
  /**
   * Where a browser without a session is sent; `callbackUrl` (the page asked for) is added.
   * Default: the built-in sign-in page, `{basePath}/signin`. `false` never redirects: every
   * request without a session gets 401 JSON, as an API should even when a browser opens it.
   */
  redirectTo?: string | false
}

/**
 * A middleware that lets a request through only with a signed-in user. Without one, a browser
 * asking for a page is redirected (302) to sign in and comes back afterwards; anything else (an
 * API call, `fetch`, `curl`) gets 401 with a JSON body. Apply it to one route or to a router. The
 * session is left on `res.locals.session`.
 *
 * The sign-in page is at the config's `basePath` (default `/auth`, or `AUTH_URL`'s path): when
 * `ServerAuth` is mounted elsewhere (inside a router at `/api`, say), set `basePath` to match or
 * give `redirectTo`, since this middleware cannot see where `ServerAuth` is mounted.
 *
 * @example
 * ```ts
 * app.get("/account", requireAuth(config), showAccount)
 * app.use("/api", requireAuth(config, { redirectTo: false }), apiRouter)   // always 401 JSON
 * app.use("/admin", requireAuth(config, { redirectTo: "/login" }), adminRouter)
 * ```
 */
export function requireAuth(config: ServerAuthConfig, options: RequireAuthOptions = {}): Middleware {
  return async (req, res, next) => {
    try {
      let session = res.locals.session as Session | null | undefined
      if (session === undefined) res.locals.session = session = await pageSession(req, config, res)
      if (session?.user) return next()
      if (res.headersSent) return next(new AuthError("requireAuth found no session, but the response had already been sent"))
      if (options.redirectTo !== false && wantsPage(req)) {
        const target = options.redirectTo ?? `${prepareConfig(config).config.basePath.replace(/\/+$/, "")}/signin`
        const separator = target.includes("?") ? "&" : "?"
        // The path alone (returnPath): a login page that trusts its callbackUrl must not be
        // handed another host.
        res.statusCode = 302
        res.setHeader("location", `${target}${separator}callbackUrl=${encodeURIComponent(returnPath(req))}`)
        res.end()
        return
      }
      sendJson(res, 401, { message: "Unauthorized" })
    } catch (error) {
      next(error)
    }
  }
}

/**
 * Marks the response `private` (dropping `public`) unless it already is, or is `no-store`, so only
 * the browser keeps it. An app that sets `Cache-Control` later in the request decides for itself.
 */
function keepOutOfSharedCaches(res: ExpressResponse): void {
  const cacheControl = privateCacheControl(res.getHeader("cache-control")?.toString())
  if (cacheControl) res.setHeader("cache-control", cacheControl)
}

/** A browser navigating (it prefers HTML); `fetch` and `curl` send `*\/*`, which means an API call. */
function wantsPage(req: ExpressRequest): boolean {
  return (req.method === "GET" || req.method === "HEAD") && req.accepts(["json", "html"]) === "html"
}
