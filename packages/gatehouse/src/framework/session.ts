/**
 * Reading the session of a framework's request in-process, with the cookies to send back.
 * @module
 */
import { serializeCookie } from "../cookies/serialize.js"
import type { Cookie } from "../cookies/defaults.js"
import { readRequestSession, type SessionRequest } from "../core/request-session.js"
import type { AuthConfig, Session } from "../types.js"

export type { SessionRequest }

/** The session of a request, and the cookies the read changed. */
export interface SessionResult {
  /** The session the `session` callback returned, or `null` when signed out. */
  session: Session | null
  /**
   * `Set-Cookie` header values to send with the response when the framework lets the caller
   * write cookies (a route handler, a middleware): a session slid or extended, a stale one
   * cleared. Nothing is lost when they cannot be written (a server component render): the next
   * request that can write them does.
   */
  setCookies: string[]
  /** The same cookies as name, value and attributes, for frameworks with a cookie API of their own. */
  cookies: Cookie[]
}

/**
 * The session `request`'s cookies carry, read in-process: the same answer as
 * `GET {basePath}/session`, the same callbacks and events, with no request to that route and no
 * JSON. Only the request's URL (its origin) and headers (its `Cookie`) are read.
 *
 * @param config - A prepared configuration (see `prepareConfig`); pass the same object every time.
 * @throws {AuthError} when the configuration cannot serve requests (a missing secret, an
 *   untrusted host), and whatever a `session` or `jwt` callback throws. A store that cannot be
 *   reached reads as `null`.
 * @example
 * ```ts
 * import { getSession, prepareConfig } from "gatehouse-auth/framework"
 *
 * const { config: ready } = prepareConfig(config, env) // Node's environment, or the platform's bindings
 * const { session, setCookies } = await getSession(request, ready)
 * for (const line of setCookies) response.headers.append("set-cookie", line)
 * ```
 */
export async function getSession(request: SessionRequest, config: AuthConfig): Promise<SessionResult> {
  const { session, cookies } = await readRequestSession(request, config)
  return { session, cookies, setCookies: setCookieHeaders(cookies) }
}

/** `Set-Cookie` header values of `cookies`, attributes in Auth.js's order. */
export function setCookieHeaders(cookies: readonly Cookie[]): string[] {
  return cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options))
}
