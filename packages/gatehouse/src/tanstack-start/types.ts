/**
 * The types of `gatehouse-auth/tanstack-start`: structural, so the package does not depend on
 * `@tanstack/react-start`; they fit its server routes and server functions.
 * @module
 */
import type { AuthConfig, Session, User } from "../index.js"

/**
 * The configuration of {@link TanStackAuth}: `AuthConfig` without `raw` (the server route could
 * not answer with it). `secret` and `trustHost` default to `AUTH_SECRET` and `AUTH_TRUST_HOST`,
 * provider credentials to `AUTH_<PROVIDER>_ID` / `_SECRET`, `basePath` to `AUTH_URL`'s path or
 * `/api/auth` (where `src/routes/api/auth/$.ts` serves the routes, and where `gatehouse-auth/react`
 * looks by default).
 *
 * @example
 * ```ts
 * import type { TanStackAuthConfig } from "gatehouse-auth/tanstack-start"
 * import GitHub from "gatehouse-auth/providers/github"
 * export const authConfig: TanStackAuthConfig = { providers: [GitHub], pages: { signIn: "/signin" } }
 * ```
 */
export interface TanStackAuthConfig extends Omit<AuthConfig, "raw"> {}

/**
 * What a server route's method handler is given, as far as Gatehouse reads it.
 *
 * @example
 * ```ts
 * const { handlers } = TanStackAuth(authConfig)
 * const answer = await handlers.GET({ request: new Request("http://localhost/api/auth/session") })
 * ```
 */
export interface ServerRouteContext {
  /** The incoming Web request. */
  request: Request
}

/**
 * A method handler of the auth server route.
 *
 * @example
 * ```ts
 * export const Route = createFileRoute("/api/auth/$")({ server: { handlers: { GET: handlers.GET } } })
 * ```
 */
export type AuthRouteHandler = (context: ServerRouteContext) => Promise<Response>

/**
 * A session with its user: what {@link TanStackAuthResult.requireSession} resolves to.
 *
 * @example
 * ```ts
 * const session: SignedInSession = await requireSession()
 * session.user.email
 * ```
 */
export interface SignedInSession extends Session {
  /** The signed-in user. */
  user: User
}

/**
 * What {@link TanStackAuth} returns.
 *
 * @example
 * ```ts
 * // src/lib/auth.ts
 * export const { handlers, getSession, requireSession } = TanStackAuth(authConfig)
 * ```
 */
export interface TanStackAuthResult {
  /**
   * The auth routes: `GET` and `POST` of the server route `src/routes/api/auth/$.ts`, which
   * matches every path under the base path.
   */
  handlers: {
    /** Serves the GET auth routes (session, csrf, providers, pages, OAuth callbacks). */
    GET: AuthRouteHandler
    /** Serves the POST auth routes (sign in, sign out, session update, form-post callbacks). */
    POST: AuthRouteHandler
  }
  /**
   * The session of the request being served, read in-process, or `null` when signed out: call it
   * on the server, in a server function, a function middleware's `.server()`, or a server route.
   * Read once per request; cookies the read refreshes are added to the response.
   */
  getSession(): Promise<Session | null>
  /**
   * The session of the request being served when it has a user; otherwise it throws a `401`
   * `Response` (JSON `{ "error": "Unauthorized" }`), which TanStack Start answers the server
   * function call with. Made for a function middleware's `.server()`.
   */
  requireSession(): Promise<SignedInSession>
}
