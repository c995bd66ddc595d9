/**
 * Request events built the way SolidStart 1 builds them (`createFetchEvent` in
 * `@solidjs/start/server`): the Web request, a response stub whose headers write through to the
 * Node response being built (and throw once it has sent its headers, as a streamed page's do),
 * `clientAddress`, `locals`, `nativeEvent`; and the shallow copy it hands each server function.
 * The workspace does not install SolidStart, so the shape is rebuilt here over a real Node
 * `ServerResponse`.
 */
import { IncomingMessage, ServerResponse } from "node:http"
import { Socket } from "node:net"
import type { SolidRequestEvent } from "../../src/solid-start/index.js"

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
