/**
 * The request a provider hook is handed (`authorize`, `sendVerificationRequest`): the incoming
 * request's URL and headers with the parsed form as a JSON body, as Auth.js rebuilds it.
 * @module
 */
import type { RequestContext } from "./request-context.js"

/** A `POST` of `body` as JSON to the request's URL, with its headers. */
export function jsonRequest(ctx: RequestContext, body: Record<string, unknown>): Request {
  const headers = new Headers(ctx.request.headers)
  headers.set("content-type", "application/json")
  headers.delete("content-length")
  return new Request(ctx.request.url, { method: "POST", headers, body: JSON.stringify(body) })
}
