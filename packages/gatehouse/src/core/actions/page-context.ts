/**
 * The inputs of a built-in page, taken from the request context.
 * @module
 */
import type { PageContext } from "../pages/index.js"
import type { RequestContext } from "../request-context.js"

/** What a built-in page reads of the request context. */
export type PageInputs = Pick<RequestContext, "config" | "request" | "csrfToken" | "callbackUrl">

/** The page context for this request. */
export function pageContextOf(ctx: PageInputs): PageContext {
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

