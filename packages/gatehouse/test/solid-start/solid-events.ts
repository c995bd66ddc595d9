/**
 * Request events built the way SolidStart builds them. SolidStart 1 (`createFetchEvent` in
 * `@solidjs/start/server`) (`createFetchEvent` in
 * `@solidjs/start/server`): the Web request, a response stub whose headers write through to the
 * Node response being built (and throw once it has sent its headers, as a streamed page's do),
 * `clientAddress`, `locals`, `nativeEvent`; and the shallow copy it hands each server function.
 * SolidStart 2 (H3 v2): the H3 event its array-form middleware receives (`req`, `url`, `res`
 * whose Web `Headers` are merged into the response sent) and the request event built over it
 * (`getFetchEvent`: `request` is `req`, `response` is `res`). The workspace does not install
 * SolidStart, so the shapes are rebuilt here: SolidStart 1's over a real Node `ServerResponse`.
 */
import { IncomingMessage, ServerResponse } from "node:http"
import { Socket } from "node:net"
import type { H3RequestEvent, SolidRequestEvent } from "../../src/solid-start/index.js"

/** A SolidStart-shaped event and the Node response its headers go to. */
export interface SolidEvent extends SolidRequestEvent {
  readonly response: { readonly headers: HeaderProxy; status: number }
  readonly clientAddress: string
  readonly locals: Record<string, unknown>
  readonly nativeEvent: { node: { res: ServerResponse } }
  /** The Node response: what the browser would get. */
  readonly node: ServerResponse
}

/** The header proxy SolidStart puts on `event.response.headers`: every call goes to the Node response. */
class HeaderProxy {
  constructor(private readonly res: ServerResponse) {}
  get(name: string): string | null {
    const value = this.res.getHeader(name)
    return Array.isArray(value) ? value.join(", ") : value === undefined ? null : String(value)
  }
  set(name: string, value: string): void {
    this.res.setHeader(name, value)
  }
  append(name: string, value: string): void {
    this.res.appendHeader(name, value)
  }
}

/** A request event for `url`, as SolidStart gives an API route or the middleware. */
export function solidEvent(url: string, init: RequestInit = {}): SolidEvent {
  const node = new ServerResponse(new IncomingMessage(new Socket()))
  return {
    request: new Request(url, init),
    response: { headers: new HeaderProxy(node), status: 200 },
    clientAddress: "127.0.0.1",
    locals: {},
    nativeEvent: { node: { res: node } },
    node,
  }
}

/** The copy of the event a server function's `getRequestEvent()` returns (SolidStart's `cloneEvent`). */
export function serverFunctionEvent(event: SolidEvent): SolidEvent {
  return { ...event }
}

/** The `Set-Cookie` lines the Node response carries. */
export function setCookiesOf(event: SolidEvent): string[] {
  const value = event.node.getHeader("set-cookie")
  return value === undefined ? [] : Array.isArray(value) ? value : [String(value)]
}

/** SolidStart 2's H3 event: the request, its parsed URL, the response being prepared, the context. */
export interface H3Event extends H3RequestEvent {
  readonly url: URL
  readonly res: { status?: number; readonly headers: Headers }
  readonly context: Record<string, unknown>
}

/** The H3 v2 event of a request to `url`, as SolidStart 2's array-form middleware receives it. */
export function h3Event(url: string, init: RequestInit = {}): H3Event {
  const req = new Request(url, init)
  return { req, url: new URL(req.url), res: { headers: new Headers() }, context: {} }
}

/** SolidStart 2's request event over `event` (the middleware's `onRequest` form, API routes, `getRequestEvent()`). */
export function solid2Event(event: H3Event): SolidRequestEvent & { readonly response: H3Event["res"]; readonly locals: Record<string, unknown>; readonly nativeEvent: H3Event } {
  return { request: event.req, response: event.res, locals: {}, nativeEvent: event }
}
