/**
 * The types of `gatehouse-auth/solid-start`: structural, so they hold for SolidStart 1 and 2
 * without this package depending on `@solidjs/start`.
 * @module
 */
import type { AuthConfig } from "../index.js"

/**
 * The response headers of a SolidStart request event (`event.response.headers`): refreshed session
 * cookies are appended to them. In SolidStart they write through to the response being built.
 *
 * @example
 * ```ts
 * // what getSession does with the cookies a read renewed
 * getRequestEvent()!.response.headers.append("set-cookie", line)
 * ```
 */
export interface ResponseHeadersLike {
  /** Reads a header already set (`Cache-Control`). */
  get(name: string): string | null
  /** Sets a header (`Cache-Control`). */
  set(name: string, value: string): unknown
  /** Adds a header value (each `Set-Cookie`). */
  append(name: string, value: string): unknown
}

/**
 * A SolidStart request event (1 or 2) as far as Gatehouse reads it: an API route's `APIEvent`, a
 * middleware's `FetchEvent` (the `onRequest` form), or what `getRequestEvent()` returns in a
 * server function.
 *
 * @example
 * ```ts
 * // src/middleware.ts: the middleware's event is one
 * export default createMiddleware({
 *   onRequest: async (event) => {
 *     if (event.request.url.includes("/account") && !(await getSession(event, authConfig))?.user) {
 *       return new Response(null, { status: 302, headers: { location: "/" } })
 *     }
 *   },
 * })
 * ```
 */
export interface SolidRequestEvent {
  /** The incoming Web request. */
  readonly request: Request
  /** The response being built, where there is one: refreshed session cookies go on its headers. */
  readonly response?: {
    /** Its headers, written through to the response (SolidStart 1: the Node response; 2: the H3 event's). */
    readonly headers: ResponseHeadersLike
  }
}

/**
 * The H3 v2 event SolidStart 2 gives the middleware functions of its array form
 * (`createMiddleware([async (event, next) => …])`), as far as Gatehouse reads it: the Web request
 * as `req`, the response being built as `res`. `getSession` takes it as it takes SolidStart's own
 * event, whose `request` and `response` are these same objects.
 *
 * @example
 * ```ts
 * // src/middleware.ts, SolidStart 2's array form
 * export default createMiddleware([
 *   async (event) => {
 *     if (event.url.pathname.startsWith("/account") && !(await getSession(event, authConfig))?.user) {
 *       return new Response(null, { status: 302, headers: { location: "/" } })
 *     }
 *   },
 * ])
 * ```
 */
export interface H3RequestEvent {
  /** The incoming Web request. */
  readonly req: Request
  /** The response being built: refreshed session cookies go on its headers. */
  readonly res?: {
    /** Its headers, merged into the response SolidStart sends. */
    readonly headers: ResponseHeadersLike
  }
}

/**
 * The configuration of {@link SignalAuth}: `AuthConfig` (without `raw`, which the route handlers
 * could not answer with) and `prefix`. `secret` and `trustHost` default to `AUTH_SECRET` and
 * `AUTH_TRUST_HOST`, provider credentials to `AUTH_<PROVIDER>_ID` / `_SECRET`.
 *
 * @example
 * ```ts
 * // src/lib/auth.ts: a module of its own, shared by the route file and getSession
 * import type { SignalAuthConfig } from "gatehouse-auth/solid-start"
 * import GitHub from "gatehouse-auth/providers/github"
 * export const authConfig: SignalAuthConfig = { providers: [GitHub] }
 * ```
 */
export interface SignalAuthConfig extends Omit<AuthConfig, "raw"> {
  /**
   * Where the route file serves the auth routes, which is also the core's `basePath`: the folder of
   * `src/routes/api/auth/[...auth].ts` gives `/api/auth`. Default: `basePath` when set, else
   * `AUTH_URL`'s path when it has one, else `/api/auth`. When given, it wins over `basePath`.
   */
  prefix?: string
}

/**
 * A handler of the route file: SolidStart calls it with the request event.
 *
 * @example
 * ```ts
 * const { GET: authGET } = SignalAuth(authConfig)
 * export const GET: SignalAuthHandler = async (event) => (await authGET(event)) ?? new Response(null, { status: 404 })
 * ```
 */
export type SignalAuthHandler = (event: SolidRequestEvent) => Promise<Response | undefined>

/**
 * What {@link SignalAuth} returns: the route file's `GET` and `POST`.
 *
 * @example
 * ```ts
 * // src/routes/api/auth/[...auth].ts: this one line (SolidStart 1 drops a route file's other exports)
 * export const { GET, POST } = SignalAuth(authConfig)
 * ```
 */
export interface SignalAuthHandlers {
  /**
   * Serves the GET auth routes (session, csrf, providers, pages, OAuth callbacks). Answers
   * `undefined` for a path outside the prefix, which SolidStart answers with its 404.
   */
  GET: SignalAuthHandler
  /** Serves the POST auth routes (sign in, sign out, session update, form-post callbacks). */
  POST: SignalAuthHandler
}
