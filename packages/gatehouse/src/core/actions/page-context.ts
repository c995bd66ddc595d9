/**
 * The inputs of a built-in page, taken from the request context.
 * @module
 */
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

