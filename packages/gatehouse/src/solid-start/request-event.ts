/**
 * What `getSession` is given, read the same way whatever SolidStart version made it: SolidStart's
 * request event (`request`, `response`), the H3 v2 event SolidStart 2's array-form middleware
 * receives (`req`, `res`), or a bare `Request`.
 * @module
 */
import { InvalidConfig } from "../errors.js"
import type { H3RequestEvent, ResponseHeadersLike, SolidRequestEvent } from "./types.js"

/** The request to read the session of, and where refreshed session cookies go (none for a bare `Request`). */
export interface EventParts {
  readonly request: Request
  readonly responseHeaders?: ResponseHeadersLike
}

/**
 * The parts of `source`. SolidStart 2's request event is built over the H3 event (its `request`
 * is the H3 event's `req`, its `response` the H3 event's `res`), so both name the same request
 * and the per-request read is shared between them.
 * @throws {InvalidConfig} for anything else, naming what is accepted: a wrong argument is a
 *   mistake in the app's code, raised on every call rather than read as "signed out".
 */
export function eventParts(source: Request | SolidRequestEvent | H3RequestEvent): EventParts {
  const value = source as Partial<SolidRequestEvent & H3RequestEvent> | null | undefined
  if (value && typeof value === "object") {
    if (isRequest(value.request)) return { request: value.request, responseHeaders: value.response?.headers }
    if (isRequest(value.req)) return { request: value.req, responseHeaders: value.res?.headers }
    if (isRequest(value)) return { request: value }
  }
  throw new InvalidConfig(
    "getSession needs the request event (getRequestEvent(), the middleware's or an API route's event), SolidStart 2's H3 event (event.req), or a Request",
  )
}

/**
 * A Web request by shape, not `instanceof`: SolidStart 2 on Node hands over srvx's request class,
 * and a bundled app may carry another realm's `Request`.
 */
function isRequest(value: unknown): value is Request {
  const candidate = value as Partial<Request> | null | undefined
  return !!candidate && typeof candidate === "object" && typeof candidate.url === "string" && typeof candidate.headers?.get === "function"
}
