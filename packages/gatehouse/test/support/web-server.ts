/**
 * Serves a Web `(Request) => Response` handler over real HTTP on 127.0.0.1, so a browser can use
 * it: the minimum a test needs until an integration does it for real.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { listenOnLoopback } from "./free-port.js"

export interface WebServer {
  /** `http://localhost:<port>`: WebAuthn needs a domain, and `localhost` is a secure context. */
  origin: string
  port: number
  stop(): Promise<void>
}

/** Starts serving `handler` on 127.0.0.1 at a free port. */
export async function serveWeb(handler: (request: Request) => Promise<Response> | Response): Promise<WebServer> {
  const server = createServer((req, res) => {
    void respond(handler, req, res)
  })
  await listenOnLoopback(server, "the test web server")
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://localhost:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function respond(handler: (request: Request) => Promise<Response> | Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) value.forEach((item) => headers.append(name, item))
      else if (value !== undefined) headers.set(name, value)
    }
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks)
    const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }))
    const setCookies = response.headers.getSetCookie()
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") res.setHeader(name, value)
    })
    if (setCookies.length > 0) res.setHeader("set-cookie", setCookies)
    res.statusCode = response.status
    // Headers first, then the body as it comes, so a test can hold a body without holding its headers.
    res.flushHeaders()
    const reader = response.body?.getReader()
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) res.write(read.value)
    res.end()
  } catch (error) {
    res.statusCode = 500
    res.end(String(error))
  }
}
