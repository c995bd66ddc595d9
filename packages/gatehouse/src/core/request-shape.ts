/**
 * Who is asking, as far as the answer's shape goes: a script's JSON call (answered JSON, refusals
 * as `{ error }` with a status) or a browser's form post or navigation (answered with a page or a
 * redirect), and whether the request named where to go afterwards. One rule for every route that
 * answers both, so the two-factor, step-up, email-code and account routes cannot disagree.
 * @module
 */
import type { InternalRequest } from "./internal-request.js"
import type { RequestContext } from "./request-context.js"

/**
 * A script's call: a JSON body, or an `Accept` that names JSON and not HTML (a `fetch` of a form
 * body asking for JSON, as the account helpers send). A browser's form post or navigation
 * accepts HTML and posts `application/x-www-form-urlencoded`, or nothing.
 */
export function isJsonRequest(request: Pick<InternalRequest, "headers">): boolean {
  const type = (request.headers.get("content-type") ?? "").toLowerCase()
  if (type.includes("application/json")) return true
  const accept = (request.headers.get("accept") ?? "").toLowerCase()
  return accept.includes("application/json") && !accept.includes("text/html")
}

/**
 * The callback URL when the form (or the page's query) named one: `ctx.callbackUrl`, which the
 * redirect callback has already checked; `undefined` when the request named none, so the route
 * answers as it does without one (JSON, or its own default place).
 */
export function postedCallbackUrl(ctx: Pick<RequestContext, "request" | "callbackUrl">): string | undefined {
  const posted = ctx.request.body?.callbackUrl
  const asked = ctx.request.query.callbackUrl
  return (typeof posted === "string" && posted !== "") || (typeof asked === "string" && asked !== "") ? ctx.callbackUrl : undefined
}
