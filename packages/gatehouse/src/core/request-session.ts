/**
 * The session a request's cookies carry, read in-process: what `GET {basePath}/session` answers,
 * without building a request to that route, a `Response`, or JSON. For integrations, which need
 * the session of any page request (`auth()`, `locals.auth()`, `getSession`).
 * @module
 */
import type { Cookie } from "../cookies/defaults.js"
import { parseCookieHeader } from "../cookies/header.js"
import type { AuthConfig, Session } from "../types.js"
import { assertConfig } from "./assert-config.js"
import { resolveConfig } from "./config.js"
import type { InternalRequest } from "./internal-request.js"
import { logError, reportConfigError, reportConfigWarnings } from "./logger.js"
import { checkAdapterSchema } from "./schema-check.js"
import { createRequestContext, type RequestContext } from "./request-context.js"
import { readSession } from "./sessions/index.js"

/** A request as far as reading its session goes: where it was sent (for the origin) and its headers. */
export interface SessionRequest {
  /** The request's URL: its origin decides `__Secure-` cookie names where `useSecureCookies` is unset. */
  readonly url: string | URL
  /** The request's headers: `Cookie` carries the session, forwarded headers the origin when trusted. */
  readonly headers: Headers
}

/**
 * The session `request` carries under `config`, and the cookies the read changes (a session slid
 * or extended, a stale or unreadable one cleared): what the session route would answer, with
 * the same callbacks and events.
 *
 * @throws {AuthError} when the configuration cannot serve requests (a missing secret, an untrusted
 *   host, a configuration error), and whatever a `session` or `jwt` callback throws. A store that
 *   cannot be reached reads as no session (logged), as on the session route.
 */
export async function readRequestSession(request: SessionRequest, config: AuthConfig): Promise<{ session: Session | null; cookies: Cookie[] }> {
  const ctx = await sessionRequestContext(request, config)
  try {
    return await readSession(ctx)
  } catch (failure) {
    logError(ctx.logger, failure)
    throw failure
  }
}

/**
 * The context of a server-side call acting for `request`'s session (a session read, the account
 * functions): its cookies and origin, no CSRF state (the caller is the server itself).
 *
 * @throws {AuthError} when the configuration cannot serve requests.
 */
export async function sessionRequestContext(request: SessionRequest, config: AuthConfig): Promise<RequestContext> {
  const resolved = resolveConfig(config)
  const url = new URL(request.url)
  const { error, warnings } = assertConfig(resolved, { url })
  reportConfigWarnings(resolved.logger, resolved, warnings)
  checkAdapterSchema(resolved.adapter, resolved.logger)
  if (error) {
    reportConfigError(resolved.logger, resolved, error)
    throw error
  }
  const internal: InternalRequest = {
    url,
    method: "GET",
    action: "session",
    providerId: undefined,
    headers: request.headers,
    cookies: parseCookieHeader(request.headers.get("cookie")),
    query: {},
    body: undefined,
  }
  return createRequestContext(resolved, internal, false)
}
