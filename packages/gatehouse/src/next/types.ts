/**
 * The types of `gatehouse-auth/next`. The request is Next's own `NextRequest` (from the app's
 * `next`, as next-auth's is); the rest is structural, so it holds for Next 15 and 16 alike.
 * @module
 */
import type { NextRequest } from "next/server.js"
import type { AuthConfig, Awaitable, Session } from "../index.js"

/**
 * A Next.js request: Next's `NextRequest` (a Web `Request` with the parsed `nextUrl`, `cookies`,
 * …), as the proxy, `authorized` and route handlers get it.
 */
export type NextRequestLike = NextRequest

/** A request as the callback given to `auth(callback)` receives it: with the session on `auth`. */
export type NextAuthRequest = NextRequestLike & {
  /** The session of the request, or `null` when signed out. */
  auth: Session | null
}

/** The Pages Router's request (`NextApiRequest`, `IncomingMessage`): its headers are what is read. */
export interface PagesRequest {
  /** The request's headers; `cookie` carries the session. */
  headers: Record<string, string | string[] | undefined>
}

/** The Pages Router's response (`NextApiResponse`, `ServerResponse`): refreshed cookies are added to it. */
export interface PagesResponse {
  /** Reads a header already set (so `Set-Cookie` values are added to, not replaced). */
  getHeader(name: string): number | string | string[] | undefined
  /** Sets a header (`Set-Cookie`, with the refreshed session cookies). */
  setHeader(name: string, value: number | string | readonly string[]): unknown
  /** Once true, cookies can no longer be set and are skipped. */
  readonly headersSent?: boolean
}

/** `getServerSideProps`'s context, or anything else carrying `req` and `res`. */
export interface PagesContext {
  /** The incoming request. */
  req: PagesRequest
  /** The response, which receives refreshed cookies. */
  res: PagesResponse
}

/** Parameters of the `authorized` callback. */
export interface AuthorizedParams {
  /** The session of the request, or `null` when signed out. */
  auth: Session | null
  /** The request the proxy is deciding on. */
  request: NextRequestLike
}

/**
 * The configuration of {@link NextAuth}: `AuthConfig` (without `raw`) plus the `authorized`
 * callback, which decides in `proxy.ts` (or `middleware.ts`) whether a request may go on.
 */
export interface NextAuthConfig extends Omit<AuthConfig, "raw" | "callbacks"> {
  /** `AuthConfig`'s callbacks, plus `authorized`. */
  callbacks?: AuthConfig["callbacks"] & {
    /**
     * Runs in the proxy for every request it matches (never for the auth routes or the sign-in
     * page): `true` or nothing lets it through, `false` redirects to the sign-in page with
     * `callbackUrl`, a `Response` is sent as it is. A throw, or any failure reading the session,
     * fails closed: the request does not go through. An untrusted host (production without
     * `AUTH_URL` or `AUTH_TRUST_HOST`) reads as signed out here, so public pages still answer.
     */
    authorized?: (params: AuthorizedParams) => Awaitable<boolean | Response | undefined | void>
  }
}

/** A lazy configuration: called per request (with `undefined` where there is none, as in a server component). */
export type NextAuthConfigFunction = (request: NextRequestLike | undefined) => Awaitable<NextAuthConfig>

/** The universal `auth`. */
export interface AuthFunction {
  /**
   * The session, in server components, route handlers and server actions (one read per request).
   * Rejects with `UntrustedHost`, its message naming `AUTH_URL` and `AUTH_TRUST_HOST`, in
   * production without either.
   */
  (): Promise<Session | null>
  /**
   * As the proxy (`export { auth as proxy }`) or middleware: runs `authorized` and passes refreshed
   * cookies on. An untrusted host reads as signed out here, so public pages still answer.
   */
  (request: NextRequestLike, event?: unknown): Promise<Response>
  /** Wraps a route handler or proxy: `request.auth` is the session (`null` for an untrusted host, as in the proxy). */
  <Context>(handler: (request: NextAuthRequest, context: Context) => Awaitable<Response | void | undefined>): (request: NextRequestLike, context: Context) => Promise<Response>
  /** `getServerSideProps` (`auth(context)`): refreshed cookies are set on `context.res`. */
  (context: PagesContext): Promise<Session | null>
  /** Pages Router API routes (`auth(req, res)`): refreshed cookies are set on `res`. */
  (request: PagesRequest, response: PagesResponse): Promise<Session | null>
}

/** Options of the server-side `signIn`: `redirect` (default `true`), `redirectTo`, and fields posted with it. */
export type SignInOptions = FormData | (SignInRedirect & Record<string, unknown>)

/** Where a server-side sign-in goes once done. */
export interface SignInRedirect {
  /** Whether to redirect (default `true`); `false` returns the URL instead. */
  redirect?: boolean
  /** Where to go once signed in; default the current page (`Referer`). */
  redirectTo?: string
}

/** OAuth authorization parameters, in any shape `URLSearchParams` takes. */
export type AuthorizationParams = string | Record<string, string> | URLSearchParams | [string, string][]

/** Options of the server-side `signOut`. */
export interface SignOutOptions {
  /** Whether to redirect once signed out (default `true`); `false` returns the URL instead. */
  redirect?: boolean
  /** Where to go; default the current page (`Referer`). */
  redirectTo?: string
  /**
   * The OIDC provider the session came from, to end the session there too (RP-initiated logout):
   * the redirect goes to its end-session endpoint, which sends the browser back to `redirectTo`
   * (register it there as a post-logout redirect URI). Otherwise a plain sign-out.
   */
  provider?: string
}

/** The auth routes' handlers, for `app/api/auth/[...nextauth]/route.ts`. */
export interface RouteHandlers {
  /** Serves the GET auth routes (session, csrf, providers, pages, OAuth callbacks). */
  GET: (request: Request) => Promise<Response>
  /** Serves the POST auth routes (sign in, sign out, session update, form-post callbacks). */
  POST: (request: Request) => Promise<Response>
}

/** What {@link NextAuth} returns. */
export interface NextAuthResult {
  /** The auth routes' handlers: `export const { GET, POST } = handlers` in `app/api/auth/[...nextauth]/route.ts`. */
  handlers: RouteHandlers
  /** The session anywhere on the server, the proxy, and a wrapper for route handlers: see {@link AuthFunction}. */
  auth: AuthFunction
  /**
   * Signs in from a server action. Without `provider` (or with an unknown one) it goes to the
   * sign-in page. With `redirect` (the default) it redirects and never returns: call it outside
   * `try`, or rethrow with `unstable_rethrow`. With `redirect: false` it returns the URL.
   * @throws {CredentialsSignin} when a credentials sign-in is refused (with its `code`).
   * @throws {AuthError} for any other failure.
   */
  signIn: (provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams) => Promise<string>
  /** Signs out from a server action; like `signIn`, redirects unless `redirect: false`. */
  signOut: (options?: SignOutOptions) => Promise<string>
  /** Runs the `update` trigger with `data` and returns the new session (server actions, route handlers). */
  unstable_update: (data: Partial<Session> | { user: Partial<NonNullable<Session["user"]>> }) => Promise<Session | null>
}
