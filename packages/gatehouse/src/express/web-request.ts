/**
 * An Express request as a Web `Request`: the URL Express would report (its `trust proxy` setting
 * decides whether `X-Forwarded-*` count), every header, and the body exactly as sent, or as a body
 * parser that ran first left it.
 * @module
 */
import { setClientAddress } from "../framework/index.js"
import { createActionURL } from "../index.js"
import { pathAndQuery } from "./mount-path.js"
import type { ExpressRequest } from "./node-types.js"

/**
 * The origin the app answers on: `AUTH_URL`'s when set (so a forged Host header cannot change a
 * link), otherwise the request's protocol and host as Express sees them behind its trusted proxies.
 *
 * @param configured - `AUTH_URL`'s origin, read once when the config was prepared.
 * @throws {AuthError} when the host is not a host.
 */
export function requestOrigin(req: ExpressRequest, configured: string | undefined): string {
  if (configured !== undefined) return configured
  const protocol = req.protocol
  const host = hostOf(req)
  const key = `${protocol}\u0000${host}`
  let origin = origins.get(key)
  if (origin === undefined) {
    // An empty environment: the Host is checked and read, AUTH_URL was already.
    origin = createActionURL("session", protocol, new Headers({ host }), {}).origin
    if (origins.size >= ORIGIN_CACHE_LIMIT) origins.delete(origins.keys().next().value as string)
    origins.set(key, origin)
  }
  return origin
}

// The origin of each (protocol, host) seen, checked once: an app answers on a handful of hosts.
// Bounded, since the Host header is the client's to choose.
const ORIGIN_CACHE_LIMIT = 64
const origins = new Map<string, string>()

/**
 * The host with its port: `X-Forwarded-Host` when the app trusts the peer (Express's own rule for
 * `req.host`, which Express 4 only offers without the port), else the `Host` header.
 */
function hostOf(req: ExpressRequest): string {
  const trusts = req.app.get("trust proxy fn")
  const forwarded = typeof trusts === "function" && trusts(req.socket.remoteAddress, 0) ? header(req, "x-forwarded-host") : ""
  return forwarded.split(",")[0]!.trim() || header(req, "host")
}

function header(req: ExpressRequest, name: string): string {
  const value = req.headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? ""
}

/**
 * The Web `Request` for `req`, on `origin`.
 *
 * @throws {TypeError} for a method a Web `Request` cannot carry (`TRACE`, `CONNECT`).
 */
export function toWebRequest(req: ExpressRequest, origin: string): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  // The client's address as Express sees it behind the proxies it trusts (`trust proxy`), where
  // the prepared config reads it: no header a client sends must pick its own per-IP rate-limit
  // bucket. Before, Express overwrote X-Real-IP; that is left as it came now.
  setClientAddress(headers, req.ip ?? req.socket.remoteAddress)
  const method = req.method ?? "GET"
  const init: RequestInit & { duplex?: "half" } = { method, headers }
  if (method !== "GET" && method !== "HEAD") {
    if (req.readableDidRead || req.readableEnded) {
      // A body parser got here first: the bytes are gone, so send what it made of them.
      init.body = reencoded(req.body, headers)
      headers.delete("content-length")
      headers.delete("transfer-encoding")
    } else {
      init.body = bodyStream(req)
      init.duplex = "half"
    }
  }
  return new Request(new URL(pathAndQuery(req), origin), init)
}

/** The body a parser left in `req.body`, encoded again as its content type says. */
function reencoded(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined || body === null) return undefined
  if (typeof body === "string") return body
  if (body instanceof Uint8Array) return new Uint8Array(body)
  if (typeof body !== "object") return undefined
  if ((headers.get("content-type") ?? "").toLowerCase().includes("application/json")) return JSON.stringify(body)
  const form = new URLSearchParams()
  appendFields(form, "", body)
  return form
}

/** `{ a: { b: "1" }, c: ["2", "3"] }` → `a[b]=1&c=2&c=3`, the shape `express.urlencoded` parsed. */
function appendFields(form: URLSearchParams, prefix: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) appendFields(form, prefix, item)
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) appendFields(form, prefix ? `${prefix}[${key}]` : key, item)
  } else if (prefix && value !== undefined) {
    form.append(prefix, String(value))
  }
}

/**
 * The request body, read only as the handler asks for it. A body the handler never reads is left
 * to Node, which discards it after the response; one it stops reading (too large) is discarded
 * here, so the connection stays usable and the client gets its answer.
 */
function bodyStream(req: ExpressRequest): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) =>
        new Promise<void>((resolve, reject) => {
          if (req.readableEnded) return resolve(controller.close())
          // Gone before the first read (a slow middleware ran first): no event is coming.
          if (req.destroyed || req.readableAborted || req.errored) {
            return reject(new Error("The client closed the connection before sending the whole body"))
          }
          const settle = (action: () => void) => {
            req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose)
            req.pause()
            action()
          }
          const onData = (chunk: Buffer) => settle(() => resolve(controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))))
          const onEnd = () => settle(() => resolve(controller.close()))
          const onError = (error: unknown) => settle(() => reject(error))
          const onClose = () => settle(() => reject(new Error("The client closed the connection before sending the whole body")))
          req.on("data", onData).once("end", onEnd).once("error", onError).once("close", onClose)
          req.resume()
        }),
      cancel: () => {
        req.resume()
      },
    },
    { highWaterMark: 0 },
  )
}
