/**
 * Faults at the endpoints of the real OpenID Provider in test/support: discovery, JWKS, token and
 * userinfo answering 500, HTML, JSON that does not parse, JSON of the wrong shape, late, never,
 * or dropping the connection.
 *
 * A small HTTP server on 127.0.0.1 stands in front of the provider and passes every request on,
 * except those to a broken endpoint. The app's server-to-server requests reach it through the
 * provider's `fetch` option (as through an outbound proxy), so the issuer stays the provider's own
 * and its ID tokens stay valid; the browser still talks to the provider directly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"

export type OidcEndpoint = "discovery" | "jwks" | "token" | "userinfo"

export type OidcFault =
  | "server-error"
  | "html"
  | "invalid-json"
  | "wrong-shape"
  | "drop-connection"
  /** Answers correctly, after `SLOW_MS`. */
  | "slow"
  /** Never answers; the connection stays open until the client gives up. */
  | "silent"

/** How late a slow endpoint answers: noticeable, and well within any sensible request bound. */
export const SLOW_MS = 1_500

const PATHS: Record<OidcEndpoint, string> = {
  discovery: "/.well-known/openid-configuration",
  jwks: "/jwks",
  token: "/token",
  userinfo: "/me",
}

/** JSON that parses and is the wrong thing for the endpoint (another endpoint's answer, or half of one). */
function wrongShape(endpoint: OidcEndpoint, issuer: string): unknown {
  switch (endpoint) {
    case "discovery":
      return { keys: [] }
    case "jwks":
      return { issuer }
    case "token":
      return { token_type: "Bearer", expires_in: "soon" }
    case "userinfo":
      return ["sub", "email"]
  }
}

export interface OidcFaultProxy {
  /** The provider's `fetch`: requests to the provider go through the proxy. */
  fetch: typeof fetch
  /** Paths the proxy was asked for, oldest first. */
  paths: string[]
  /** Makes `endpoint` misbehave from the next request on. */
  set(endpoint: OidcEndpoint, fault: OidcFault): void
  /** Every endpoint well again. */
  clear(): void
  stop(): Promise<void>
}

/** A request body as text: what the app sends its provider is a form or nothing. */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) }).end(body)
}

export async function startOidcFaultProxy(server: OidcServer): Promise<OidcFaultProxy> {
  const upstream = new URL(server.issuer)
  const active = new Map<string, { endpoint: OidcEndpoint; fault: OidcFault }>()
  const paths: string[] = []

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && name !== "host" && name !== "connection") headers.set(name, Array.isArray(value) ? value.join(", ") : value)
    }
    const answer = await fetch(new URL(req.url ?? "/", upstream), { method: req.method, headers, body })
    const bytes = Buffer.from(await answer.arrayBuffer())
    const out: Record<string, string> = {}
    answer.headers.forEach((value, name) => {
      if (name !== "content-encoding" && name !== "transfer-encoding" && name !== "connection") out[name] = value
    })
    res.writeHead(answer.status, { ...out, "content-length": bytes.length }).end(bytes)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", upstream).pathname
    paths.push(path)
    const entry = active.get(path)
    if (!entry) return forward(req, res)
    const { endpoint, fault } = entry
    switch (fault) {
      case "server-error":
        return send(res, 500, "text/html", "<html><body><h1>500 Internal Server Error</h1></body></html>")
      case "html":
        return send(res, 200, "text/html", "<!doctype html><title>Maintenance</title><p>We will be back soon.</p>")
      case "invalid-json":
        return send(res, 200, "application/json", '{"issuer": "http://127.0.0.1", "token_endpoint": ')
      case "wrong-shape":
        return send(res, 200, "application/json", JSON.stringify(wrongShape(endpoint, server.issuer)))
      case "drop-connection":
        req.socket.destroy()
        return
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, SLOW_MS))
        return forward(req, res)
      case "silent":
        // Held until the client gives up and closes the connection.
        return
    }
  }

  const proxy = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`

  return {
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      if (url.origin === upstream.origin) url.href = `${origin}${url.pathname}${url.search}`
      return fetch(input instanceof Request ? new Request(url, input) : url, init)
    },
    paths,
    set(endpoint, fault) {
      active.set(PATHS[endpoint], { endpoint, fault })
    },
    clear() {
      active.clear()
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        proxy.close((error) => (error ? reject(error) : resolve()))
        proxy.closeAllConnections()
      }),
  }
}

/**
 * The fault tests' provider: an OpenID provider where Ada (a verified address) signs in to the
 * client `app-client` of the app at `app`, behind a fault proxy. `stop` stops both.
 */
export async function startFaultyOidcProvider(app: string, clientSecret: string): Promise<{ server: OidcServer; faults: OidcFaultProxy; stop(): Promise<void> }> {
  const server = await startOidcServer({
    clients: [{ client_id: "app-client", client_secret: clientSecret, redirect_uris: [`${app}/auth/callback/idp`] }],
    accounts: { ada: { email: "ada@example.com", email_verified: true, name: "Ada Lovelace" } },
  })
  const faults = await startOidcFaultProxy(server)
  return {
    server,
    faults,
    async stop() {
      await faults.stop()
      await server.stop()
    },
  }
}
