/**
 * `GET {basePath}/csrf`: the token a client must send back as `csrfToken` in every sign-in,
 * sign-out and session-update POST.
 * @module
 */
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { logWarning } from "../logger.js"
import type { RequestContext } from "../request-context.js"

/**
 * `{ csrfToken }`, never cached. With CSRF checks skipped there is no token: 404, and the
 * cookie of an earlier configuration is cleared.
 */
export function csrf(ctx: Pick<RequestContext, "csrfToken" | "cookies" | "logger">): ResponseInternal<{ csrfToken: string } | undefined> {
  if (ctx.csrfToken === undefined) {
    logWarning(ctx.logger, "csrf-disabled")
    const { name, options } = ctx.cookies.csrfToken
    return { status: 404, cookies: [{ name, value: "", options: { ...options, maxAge: 0 } }] }
  }
  return jsonResponse({ csrfToken: ctx.csrfToken }, { noCache: true })
}
