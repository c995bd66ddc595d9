/**
 * Shared by the Express tests: both Express majors, apps listening on 127.0.0.1 at a free port,
 * a client that keeps cookies per origin and never follows a redirect on its own, a raw HTTP
 * request for what `fetch` refuses to send (a forged Host, TRACE, an absolute-form target), and
 * an environment with no auth variables unless a test sets them.
 */
import express5, { type ErrorRequestHandler, type Express } from "express"
import express4 from "express4"
import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { ServerAuthConfig } from "../../src/express/index.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import type { FlowAdapter, StoredAdapter } from "../flow/stored-adapters.js"
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.js"

export interface ExpressVersion {
  name: "Express 5" | "Express 4"
  major: 4 | 5
  /** The `express` function; Express 4 is typed through Express 5's types. */
  express: typeof express5
}

export const expressVersions: ExpressVersion[] = [
  { name: "Express 5", major: 5, express: express5 },
  { name: "Express 4", major: 4, express: express4 },
]

/** The variables the integration reads through `setEnvDefaults`, all unset (empty counts as unset). */
const AUTH_ENV = [
  "AUTH_URL",
  "LEGACYAUTH_URL",
  "AUTH_SECRET",
  "AUTH_SECRET_1",
  "AUTH_SECRET_2",
  "AUTH_SECRET_3",
  "LEGACYAUTH_SECRET",
  "AUTH_TRUST_HOST",
  "AUTH_REDIRECT_PROXY_URL",
]

/**
 * Every test of the calling file starts with the auth variables unset and ends with the
 * environment restored; a test sets what it wants with `vi.stubEnv`, before its config is first
 * used (the integration applies the environment once per config object).
 */
export function isolateAuthEnv(): void {
  beforeEach(() => {
    for (const name of AUTH_ENV) vi.stubEnv(name, "")
  })
  afterEach(() => {
    vi.unstubAllEnvs()
  })
}

export interface Listening {
  /** `http://127.0.0.1:<port>` */
  origin: string
  port: number
  server: Server
  close(): Promise<void>
}

const tracked = new Set<Listening>()

/**
 * `app.listen(0, "127.0.0.1")`, once it listens. Closed by {@link closeServers} unless
 * `untracked` (then the caller closes it).
 */
export async function listen(app: Express, options: { untracked?: boolean } = {}): Promise<Listening> {
  const server = app.listen(0, "127.0.0.1")
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve).once("error", reject)
  })
  const { port } = server.address() as AddressInfo
  const listening: Listening = {
    origin: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        tracked.delete(listening)
        // fetch keeps sockets alive; without this, close() would wait for them to time out.
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  if (!options.untracked) tracked.add(listening)
  return listening
}

/** Closes every tracked server (for `afterEach`). */
export async function closeServers(): Promise<void> {
  await Promise.all([...tracked].map((listening) => listening.close()))
}

/** An error handler that answers what reached `next(err)`, so a test can see it. */
export const reportErrors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  const described = error instanceof Error ? error : new Error(String(error))
  res.status(599).json({
    caught: described.constructor.name,
    name: described.name,
    type: (error as { type?: unknown }).type ?? null,
    message: described.message,
  })
}

/** A 404 at the end of an app that says so in JSON. */
export const notFound = (req: { originalUrl: string }, res: { status(code: number): { json(body: unknown): void } }) => {
  res.status(404).json({ notFound: req.originalUrl })
}

export type Fields = Record<string, string>

/**
 * A client on real HTTP: cookies kept per origin (host-only; `Max-Age=0`, a past `Expires` or an
 * empty value removes one), every `Set-Cookie` line kept for assertions, redirects never followed
 * unless asked.
 */
export class HttpClient {
  private readonly jars = new Map<string, Map<string, string>>()
  /** Every `Set-Cookie` line received, oldest first. */
  readonly setCookies: string[] = []

  constructor(readonly origin: string) {}

  cookie(name: string, origin = this.origin): string | undefined {
    const value = this.jars.get(new URL(origin).origin)?.get(name)
    return value === undefined ? undefined : decodeURIComponent(value)
  }

  cookieNames(origin = this.origin): string[] {
    return [...(this.jars.get(new URL(origin).origin)?.keys() ?? [])]
  }

  setCookie(name: string, value: string, origin = this.origin): void {
    this.jarOf(origin).set(name, value)
  }

  private jarOf(origin: string): Map<string, string> {
    const key = new URL(origin).origin
    let jar = this.jars.get(key)
    if (!jar) this.jars.set(key, (jar = new Map()))
    return jar
  }

  store(url: URL | string, response: Response): Response {
    const jar = this.jarOf(String(url))
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line)
      const [pair] = line.split(";")
      const eq = pair!.indexOf("=")
      const name = pair!.slice(0, eq).trim()
      const value = pair!.slice(eq + 1).trim()
      const expires = /;\s*Expires=([^;]+)/i.exec(line)?.[1]
      const gone = /;\s*Max-Age=0(;|$)/i.test(line) || value === "" || (expires !== undefined && Date.parse(expires) < Date.now())
      if (gone) jar.delete(name)
      else jar.set(name, value)
    }
    return response
  }

  cookieHeader(url: URL | string): string {
    return [...this.jarOf(String(url))].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  /** `fetch` with `redirect: "manual"` and this client's cookies for the target origin. */
  async fetch(pathOrUrl: string, init: RequestInit & { duplex?: "half" } = {}): Promise<Response> {
    const url = new URL(pathOrUrl, this.origin)
    const headers = new Headers(init.headers)
    const cookie = this.cookieHeader(url)
    if (cookie && !headers.has("cookie")) headers.set("cookie", cookie)
    return this.store(url, await fetch(url, { ...init, headers, redirect: "manual" }))
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, { headers })
  }

  postForm(path: string, fields: Fields, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    })
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })
  }

  async csrfToken(basePath = "/auth", headers: Record<string, string> = {}): Promise<string> {
    const response = await this.get(`${basePath}/csrf`, headers)
    if (response.status !== 200) throw new Error(`GET ${basePath}/csrf answered ${response.status}: ${await response.text()}`)
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** The credentials sign-in as a form posts it: CSRF token first, then the callback. */
  async signIn(
    fields: Fields = { username: "ada", password: "correct horse" },
    options: { basePath?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const basePath = options.basePath ?? "/auth"
    const csrfToken = await this.csrfToken(basePath, options.headers)
    return this.postForm(`${basePath}/callback/credentials`, { csrfToken, ...fields }, options.headers)
  }

  /**
   * Opens a sign-in link as a person does: where it asks first (opened in another browser than
   * the one that asked for it), presses the page's button, posting its hidden fields.
   */
  async openLink(link: string): Promise<Response> {
    const opened = await this.get(link)
    if (opened.status !== 200) return opened
    const page = await opened.text()
    const action = /<form action="([^"]+)"/.exec(page)?.[1]
    if (!action) throw new Error(`the link answered a page without a form: ${page.slice(0, 200)}`)
    const unescape = (text: string) => text.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&")
    const fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, unescape(value!)]))
    return this.postForm(unescape(action), fields)
  }

  async session(basePath = "/auth"): Promise<unknown> {
    return (await this.get(`${basePath}/session`)).json()
  }

  /**
   * Follows `response`'s redirects with GET (across origins, with each origin's cookies) until an
   * answer that is not a redirect; returns it with every URL visited after the first.
   */
  async follow(response: Response, from: string): Promise<{ response: Response; urls: string[] }> {
    const urls: string[] = []
    let current = response
    let url = new URL(from, this.origin)
    for (let hops = 0; hops < 20; hops++) {
      const location = current.headers.get("location")
      if (current.status < 300 || current.status >= 400 || !location) return { response: current, urls }
      await current.arrayBuffer()
      url = new URL(location, url)
      urls.push(url.href)
      current = await this.fetch(url.href)
    }
    throw new Error(`more than 20 redirects; last ${url.href}`)
  }
}

/** The `Set-Cookie` line for cookie `name` in `response`, if any. */
export function setCookieLine(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
}

/** The cookie names `response` sets. */
export function setCookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
}

export interface RawAnswer {
  status: number
  headers: IncomingHttpHeaders
  setCookies: string[]
  body: string
}

/**
 * One request with `node:http`, for what `fetch` will not send: a Host header of the caller's
 * choosing, a forbidden method, an absolute-form request target.
 */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path, headers: options.headers, agent: false },
      (res) => {
        let body = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (body += chunk))
        res.on("end", () => {
          const cookies = res.headers["set-cookie"] ?? []
          resolve({ status: res.statusCode!, headers: res.headers, setCookies: cookies, body })
        })
        res.on("error", reject)
      },
    )
    req.on("error", reject)
    req.end(options.body)
  })
}

/** `name=value; …` for the cookies a raw answer set. */
export function cookiesOf(answer: RawAnswer): string {
  return answer.setCookies
    .map((line) => line.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ")
}

/** A real SMTP server for the enclosing `describe`, and email configs that send through it. */
export function smtpForSuite(): { readonly server: TestSmtpServer; emailConfig(from?: string): ServerAuthConfig } {
  let server: TestSmtpServer | undefined
  beforeAll(async () => {
    server = await startSmtpServer()
  })
  afterAll(() => server?.stop())
  return {
    get server() {
      return server!
    },
    emailConfig: (from = "auth@app.test") => ({
      secret,
      logger: recordingLogger().logger,
      adapter: MemoryAdapter(),
      providers: [Nodemailer({ server: server!.smtpUrl, from })],
    }),
  }
}

/** `store` opened for the enclosing `describe` and closed after it. */
export function storeForSuite(store: StoredAdapter): { readonly adapter: FlowAdapter } {
  let opened: { adapter: FlowAdapter; close: () => Promise<void> } | undefined
  beforeAll(async () => {
    opened = await store.open()
  })
  afterAll(() => opened?.close())
  return {
    get adapter() {
      return opened!.adapter
    },
  }
}
