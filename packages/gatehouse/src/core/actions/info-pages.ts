/**
 * `GET {basePath}/verify-request` and `GET {basePath}/error`: pages that only inform.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { pageContextOf, type PageInputs } from "./page-context.js"

/** "Check your email", or a redirect to `pages.verifyRequest` with the query carried over. */
export async function verifyRequestPage(ctx: PageInputs): Promise<ResponseInternal> {
  const custom = ctx.config.pages.verifyRequest
  if (custom) return { redirect: `${custom}${ctx.request.url.search}` }
  return (await import("../pages/index.js")).renderVerifyRequestPage(pageContextOf(ctx))
}

/** The error page for `?error=` (status by error), or a redirect to `pages.error`. */
export async function errorPage(ctx: PageInputs): Promise<ResponseInternal> {
  const { error } = ctx.request.query
  const custom = ctx.config.pages.error
  if (custom) {
    // Encoded, unlike Auth.js: a raw value could carry a line break into the Location header.
    const query = new URLSearchParams(error === undefined ? {} : { error }).toString()
    return { redirect: query ? `${custom}${custom.includes("?") ? "&" : "?"}${query}` : custom }
  }
  return (await import("../pages/index.js")).renderErrorPage(pageContextOf(ctx), error)
}
