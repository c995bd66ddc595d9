/**
 * `auth` as the proxy (`proxy.ts`, or `middleware.ts`) and as a wrapper of route handlers: the
 * session read once, the `authorized` callback asked, the user's handler run with `request.auth`,
 * and refreshed session cookies put on whatever response goes out. Every failure fails closed.
 * @module
 */
import { NextResponse } from "next/server.js"
import { appLogger, getSession, isAuthRoute, requestAtOrigin, type PreparedConfig } from "../framework/index.js"
import { UntrustedHost } from "../errors.js"
import type { Session } from "../index.js"
import type { NextAuthConfig, NextAuthRequest, NextRequestLike } from "./types.js"

type Handler<Context> = (request: NextAuthRequest, context: Context) => unknown

/**
 * The proxy's answer for `request`: the user's response, or a redirect to sign in, or
 * `NextResponse.next()`, each with the refreshed session cookies.
 */
export async function proxyResponse<Context>(
  prepared: PreparedConfig<NextAuthConfig>,
  request: NextRequestLike,
  handler?: Handler<Context>,
  context?: Context,
): Promise<Response> {
  const { config } = prepared
  let session: Session | null
  let setCookies: string[]
  try {
    ;({ session, setCookies } = await getSession(requestAtOrigin(prepared, request), config))
  } catch (error) {
    // Logged where it failed (an untrusted host once, with its fix). An untrusted host reads as
    // signed out: the proxy runs on public pages too, which must not fail for want of a
    // configuration they never use; `authorized` still keeps protected ones closed, and the
    // auth routes (and `auth()` where a page reads the session) answer with the error.
    if (!(error instanceof UntrustedHost)) return closed(prepared, request)
    session = null
    setCookies = []
  }
  let response: Response | undefined
  try {
    const authorized = config.callbacks?.authorized
    if (authorized && !exempt(prepared, request)) {
      const verdict = await authorized({ auth: session, request })
      if (verdict instanceof Response) response = verdict
      else if (verdict === false) response = toSignIn(prepared, request)
    }
    if (!response && handler) {
      const withAuth = Object.assign(request, { auth: session }) as NextAuthRequest
      const answered = await handler(withAuth, context as Context)
      if (answered instanceof Response) response = answered
    }
  } catch (error) {
    appLogger(config, request).error("authorized", error)
    return closed(prepared, request)
  }
  return withCookies(response ?? NextResponse.next(), setCookies)
}

/**
 * Requests `authorized` never gates: the auth routes and the sign-in page (gating them would loop
 * a signed-out user between the page and the redirect to it).
 */
function exempt(prepared: PreparedConfig<NextAuthConfig>, request: NextRequestLike): boolean {
  const { basePath, pages } = prepared.config
  const pathname = request.nextUrl?.pathname ?? new URL(request.url).pathname
  if (isAuthRoute(pathname, basePath, prepared.config)) return true
  const signIn = pages?.signIn
  return typeof signIn === "string" && signIn.startsWith("/") && pathname === new URL(signIn, "http://localhost").pathname
}

/** The sign-in page, coming back to `request`'s URL afterwards. */
function toSignIn(prepared: PreparedConfig<NextAuthConfig>, request: NextRequestLike): Response {
  const { basePath, pages } = prepared.config
  const url = new URL(request.url)
  const page = new URL(typeof pages?.signIn === "string" ? pages.signIn : `${basePath.replace(/\/+$/, "")}/signin`, url.origin)
  page.searchParams.set("callbackUrl", url.href)
  return NextResponse.redirect(page)
}

/** Fail closed: the request goes nowhere but the error page (which does not itself depend on a session). */
function closed(prepared: PreparedConfig<NextAuthConfig>, request: NextRequestLike): Response {
  const url = new URL(request.url)
  const page = new URL(`${prepared.config.basePath.replace(/\/+$/, "")}/error`, url.origin)
  page.searchParams.set("error", "Configuration")
  return NextResponse.redirect(page)
}

/** `response` with `setCookies` appended; a response with immutable headers (`Response.redirect`) is copied first. */
function withCookies(response: Response, setCookies: readonly string[]): Response {
  if (setCookies.length === 0) return response
  try {
    for (const line of setCookies) response.headers.append("set-cookie", line)
    return response
  } catch {
    const copy = new Response(response.body, response)
    for (const line of setCookies) copy.headers.append("set-cookie", line)
    return copy
  }
}
