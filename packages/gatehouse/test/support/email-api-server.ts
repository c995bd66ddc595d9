/**
 * A stand-in for the HTTP APIs of email services (Resend, SendGrid, Postmark, Mailgun) on
 * 127.0.0.1 and a free port. It answers every request with 200 and `{"id":"test-message"}`
 * unless told to answer otherwise, and records each request for assertions.
 *
 * The providers call the real services' URLs; `fetch` (hand it to a provider's `fetch` option)
 * sends those requests here instead, keeping path and query, and the record keeps the URL the
 * provider asked for.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { listenOnLoopback } from "./free-port.js"

/** One request as the provider made it. */
export interface RecordedApiRequest {
  method: string
  /** The URL the provider asked for, e.g. `https://api.resend.com/emails`. */
  url: string
  /** Path and query as received. */
  path: string
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>
  /** The body as received. */
  rawBody: string
  /** Parsed: JSON bodies as values, form bodies as a plain object, anything else as the raw text. */
  body: unknown
}

/** What the server answers. */
export interface ApiAnswer {
  status: number
  body?: string
  contentType?: string
}

export interface EmailApiServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string
  requests: RecordedApiRequest[]
  /** A fetch that sends every request to this server instead of the host it names. */
  fetch: typeof fetch
  /** Answers every following request with this (until `reset`). */
  answerWith(answer: ApiAnswer): void
  /** Forgets the requests and goes back to answering 200. */
  reset(): void
  stop(): Promise<void>
}

// Kept at load, so a test that stubs the global fetch with this server's fetch does not loop.
const realFetch = globalThis.fetch

const ORIGINAL_URL_HEADER = "x-test-original-url"
const OK: ApiAnswer = { status: 200, body: JSON.stringify({ id: "test-message" }), contentType: "application/json" }

function parseBody(raw: string, contentType: string): unknown {
  if (contentType.startsWith("application/json")) {
    try {
      return JSON.parse(raw) as unknown
    } catch {
      return raw
    }
  }
  if (contentType.startsWith("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw))
  return raw
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * Starts the server.
 *
 * @example
 * ```ts
 * const api = await startEmailApiServer()
 * const provider = Resend({ from: "auth@app.test", apiKey: "re_test", fetch: api.fetch })
 * // … send …
 * expect(api.requests[0]?.url).toBe("https://api.resend.com/emails")
 * ```
 */
export async function startEmailApiServer(): Promise<EmailApiServer> {
  const requests: RecordedApiRequest[] = []
  let answer = OK

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && name !== ORIGINAL_URL_HEADER) headers[name] = Array.isArray(value) ? value.join(", ") : value
    }
    const path = request.url ?? "/"
    const original = request.headers[ORIGINAL_URL_HEADER]
    requests.push({
      method: request.method ?? "GET",
      url: typeof original === "string" ? original : `${origin}${path}`,
      path,
      headers,
      rawBody,
      body: parseBody(rawBody, headers["content-type"] ?? ""),
    })
    response.writeHead(answer.status, { "content-type": answer.contentType ?? "text/plain" })
    response.end(answer.body ?? "")
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      response.writeHead(500)
      response.end()
    })
  })
  await listenOnLoopback(server, "the fake email API")
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const rewrite = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const target = new URL(request.url)
    const headers = new Headers(request.headers)
    headers.set(ORIGINAL_URL_HEADER, request.url)
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text()
    return realFetch(`${origin}${target.pathname}${target.search}`, { method: request.method, headers, body })
  }

  return {
    origin,
    requests,
    fetch: rewrite as typeof fetch,
    answerWith(next) {
      answer = next
    },
    reset() {
      requests.length = 0
      answer = OK
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
