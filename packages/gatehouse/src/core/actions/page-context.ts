/**
 * The inputs of a built-in page, taken from the request context.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import type { PageContext } from "../pages/index.js"
import type { RequestContext } from "../request-context.js"

/** The page context for this request. */
export function pageContextOf(ctx: RequestContext): PageContext {
  const { config } = ctx
  return {
    url: ctx.request.url,
    basePath: config.basePath,
    theme: config.theme,
    pages: config.pages,
    csrfToken: ctx.csrfToken,
    callbackUrl: ctx.callbackUrl,
    providers: config.providers,
  }
}

/** A rendered page carrying the cookies every response of this request sets first. */
export function withContextCookies(ctx: RequestContext, page: ResponseInternal): ResponseInternal {
  return { ...page, cookies: [...ctx.cookiesToSet, ...(page.cookies ?? [])] }
}
