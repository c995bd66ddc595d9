/**
 * How the Express integration (Express 5 and 4, real HTTP on 127.0.0.1) reads requests: the
 * origin behind a proxy (only when the app trusts it; AUTH_URL above all), bodies a parser read
 * first, bodies too large to read, the mount point as the base path, and requests that are not
 * requests for an auth route at all.
 */
import type { Express, RequestHandler } from "express"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { getSession, requireAuth, ServerAuth, type ServerAuthConfig } from "../../src/express/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { JWT } from "../../src/types.js"
import { ada, credentialsConfig, recordingLogger, secret } from "../flow/flow-helpers.js"
import {
  closeServers,
  cookiesOf,
  expressVersions,
  HttpClient,
  isolateAuthEnv,
  listen,
  rawRequest,
  reportErrors,
  setCookieLine,
  setCookieNames,
  type ExpressVersion,
  smtpForSuite,
} from "./express-apps.js"

isolateAuthEnv()
afterEach(closeServers)

const ADA = { name: ada.name, email: ada.email, image: ada.image }
const FORGED = { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" }
const PROXIED = { "x-forwarded-proto": "https", "x-forwarded-host": "public.example" }

/** The auth routes at /auth, `getSession` at /api/me, a page at /dashboard, errors reported. */
function standardApp(version: ExpressVersion, config: ServerAuthConfig, setup: (app: Express) => void = () => {}): Express {
  const app = version.express()
  setup(app)
  app.use("/auth", ServerAuth(config))
  app.get("/api/me", async (req, res, next) => {
    try {
      res.json(await getSession(req, config, res))
    } catch (error) {
      next(error)
    }
  })
  app.get("/dashboard", (_req, res) => {
    res.send("dashboard")
  })
  app.use(reportErrors)
  return app
}

/**
 * A sign-in answer: its Location, or `429 <error>` for a throttled one (a page, no redirect), once
 * its Retry-After and the error its sign-in link names are read.
 */
async function throttledOr(answer: Response): Promise<string> {
  if (answer.status !== 429) return answer.headers.get("location") ?? `status ${answer.status}`
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0)
  const link = /<a class="button" href="([^"]+)">Sign in<\/a>/.exec(await answer.text())?.[1]?.replaceAll("&amp;", "&")
  return `429 ${new URL(link ?? "").searchParams.get("error")}`
}

async function serve(app: Express): Promise<{ client: HttpClient; origin: string; port: number }> {
  const { origin, port } = await listen(app)
  return { client: new HttpClient(origin), origin, port }
}

describe.each(expressVersions)("proxy headers through $name", (version) => {
  it("ignores X-Forwarded-Proto and X-Forwarded-Host when the app does not trust a proxy", async () => {
    const { client, origin } = await serve(standardApp(version, credentialsConfig()))
    const csrf = await client.get("/auth/csrf", FORGED)
    expect(setCookieNames(csrf)).toContain("authjs.csrf-token")
    expect(csrf.headers.getSetCookie().join("\n")).not.toMatch(/Secure|__Host-|__Secure-/)

    const signIn = await client.signIn(undefined, { headers: FORGED })
    expect(signIn.headers.get("location")).toBe(origin)
    expect(setCookieLine(signIn, "authjs.session-token")).not.toMatch(/Secure/)

    const providers = (await (await client.get("/auth/providers", FORGED)).json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials!.signinUrl).toBe(`${origin}/auth/signin/credentials`)
    const page = await (await client.get("/auth/signin", FORGED)).text()
    expect(page).toContain(`action="${origin}/auth/callback/credentials"`)
    expect(page).not.toContain("evil.example")
    expect(await (await client.get("/api/me", FORGED)).json()).toEqual({ user: ADA, expires: expect.any(String) })
  })

  it.each([
    ["true", true],
    ["'loopback'", "loopback"],
  ])("honours them with app.set('trust proxy', %s): https links on the public host, __Host-/__Secure- cookies", async (_, trust) => {
    const { client } = await serve(standardApp(version, credentialsConfig(), (app) => app.set("trust proxy", trust)))
    const csrf = await client.get("/auth/csrf", PROXIED)
    const csrfCookie = setCookieLine(csrf, "__Host-authjs.csrf-token")
    expect(csrfCookie).toMatch(/; Secure/)
    expect(csrfCookie).toMatch(/; Path=\//)
    expect(csrfCookie).not.toMatch(/Domain=/)

    const signIn = await client.signIn(undefined, { headers: PROXIED })
    expect(signIn.headers.get("location")).toBe("https://public.example")
    expect(setCookieLine(signIn, "__Secure-authjs.session-token")).toMatch(/; Secure/)
    expect(setCookieNames(signIn)).not.toContain("authjs.session-token")

    const providers = (await (await client.get("/auth/providers", PROXIED)).json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials!.signinUrl).toBe("https://public.example/auth/signin/credentials")
    expect(await (await client.get("/auth/session", PROXIED)).json()).toEqual({ user: ADA, expires: expect.any(String) })
    // getSession sees https too, so it reads the __Secure- cookie; over plain http it is not the session cookie.
    expect(await (await client.get("/api/me", PROXIED)).json()).toEqual({ user: ADA, expires: expect.any(String) })
    expect(await (await client.get("/api/me")).json()).toBeNull()
  })

  it("keeps the port of X-Forwarded-Host (Express 4's req.host would drop it)", async () => {
    const { client } = await serve(standardApp(version, credentialsConfig(), (app) => app.set("trust proxy", true)))
    const signIn = await client.signIn(undefined, { headers: { "x-forwarded-proto": "https", "x-forwarded-host": "public.example:8443" } })
    expect(signIn.headers.get("location")).toBe("https://public.example:8443")
  })

  it("ignores them when the trusted proxy is another address than the peer", async () => {
    const { client, origin } = await serve(standardApp(version, credentialsConfig(), (app) => app.set("trust proxy", "10.0.0.1")))
    const signIn = await client.signIn(undefined, { headers: FORGED })
    expect(signIn.headers.get("location")).toBe(origin)
    expect(setCookieNames(signIn)).toContain("authjs.session-token")
  })

  describe("with AUTH_URL set", () => {
    const smtp = smtpForSuite()
    const emailConfig = () => smtp.emailConfig()

    /** Requests a magic link with every header a forger controls; returns the Location and the link. */
    async function forgedLinkRequest(port: number, email: string): Promise<{ location: string | undefined; link: string; mail: string }> {
      const forged = { host: "evil.example", ...FORGED }
      const csrf = await rawRequest(port, { path: "/auth/csrf", headers: forged })
      expect(csrf.status).toBe(200)
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
      const answer = await rawRequest(port, {
        method: "POST",
        path: "/auth/signin/nodemailer",
        headers: { ...forged, cookie: cookiesOf(csrf), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, email }).toString(),
      })
      const message = await smtp.server.waitForMessage((candidate) => candidate.to.includes(email))
      const link = /<a href="([^"]+)"/.exec(message.html)![1]!.replaceAll("&amp;", "&")
      return { location: answer.headers.location, link, mail: `${message.html}\n${message.text}` }
    }

    it("never puts a forged Host or X-Forwarded-Host into a Location or a page, even trusting the proxy", async () => {
      const app = standardApp(version, credentialsConfig(), (app) => app.set("trust proxy", true))
      const { origin, port } = await serve(app)
      vi.stubEnv("AUTH_URL", origin)
      const forged = { host: "evil.example", ...FORGED }

      const csrf = await rawRequest(port, { path: "/auth/csrf", headers: forged })
      expect(csrf.setCookies.map((line) => line.split("=")[0])).toContain("authjs.csrf-token")
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
      const signIn = await rawRequest(port, {
        method: "POST",
        path: "/auth/callback/credentials",
        headers: { ...forged, cookie: cookiesOf(csrf), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "ada", password: "correct horse" }).toString(),
      })
      expect(signIn.status).toBe(302)
      expect(signIn.headers.location).toBe(origin)

      const wrong = await rawRequest(port, {
        method: "POST",
        path: "/auth/callback/credentials",
        headers: { ...forged, cookie: cookiesOf(csrf), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "ada", password: "nope" }).toString(),
      })
      expect(wrong.headers.location).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)

      const page = await rawRequest(port, { path: "/auth/signin", headers: forged })
      expect(page.status).toBe(200)
      expect(page.body).toContain(`action="${origin}/auth/callback/credentials"`)
      expect(page.body).not.toContain("evil.example")
    })

    it("mails a link on AUTH_URL's origin whatever Host and X-Forwarded-Host say", async () => {
      const app = standardApp(version, emailConfig(), (app) => app.set("trust proxy", true))
      const { origin, port } = await serve(app)
      vi.stubEnv("AUTH_URL", origin)
      const email = `auth-url-${version.major}@example.com`
      const { location, link, mail } = await forgedLinkRequest(port, email)
      expect(location).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=email`)
      expect(link.startsWith(`${origin}/auth/callback/nodemailer?`)).toBe(true)
      expect(mail).not.toContain("evil")
      // And the link works.
      const client = new HttpClient(origin)
      expect((await client.openLink(link)).headers.get("location")).toBe(origin)
      expect(await client.session()).toMatchObject({ user: { email } })
    })

    it("counts sign-in emails per client address as Express sees it, so a forged X-Forwarded-For or X-Real-IP picks no bucket", async () => {
      const config = { ...emailConfig(), providers: [Nodemailer({ server: smtp.server.smtpUrl, from: "auth@app.test", rateLimit: { perEmail: false, perIp: { max: 1, windowSeconds: 900 } } })] }
      const send = async (client: HttpClient, n: number, headers: Record<string, string>) => {
        const csrfToken = await client.csrfToken()
        const answer = await client.postForm("/auth/signin/nodemailer", { csrfToken, email: `bucket-${version.major}-${n}@example.com` }, headers)
        return throttledOr(answer)
      }
      const direct = await serve(standardApp(version, config))
      expect(await send(direct.client, 1, { "x-forwarded-for": "1.1.1.1" })).toContain("/auth/verify-request")
      expect(await send(direct.client, 2, { "x-forwarded-for": "2.2.2.2", "x-real-ip": "3.3.3.3" })).toBe("429 EmailRateLimited")

      // Behind a trusted proxy, the address it forwards is the client's.
      const proxied = await serve(standardApp(version, { ...config, adapter: MemoryAdapter() }, (app) => app.set("trust proxy", true)))
      expect(await send(proxied.client, 3, { "x-forwarded-for": "1.1.1.1" })).toContain("/auth/verify-request")
      expect(await send(proxied.client, 4, { "x-forwarded-for": "2.2.2.2" })).toContain("/auth/verify-request")
      expect(await send(proxied.client, 5, { "x-forwarded-for": "2.2.2.2" })).toBe("429 EmailRateLimited")
    })

    it("counts credentials sign-in attempts per client address as Express sees it (req.ip), so a forged X-Forwarded-For or X-Real-IP picks no bucket", async () => {
      let authorizeCalls = 0
      const provider = Credentials({
        authorize: () => (authorizeCalls++, null),
        rateLimit: { perIdentifier: false, perIp: { max: 2, windowSeconds: 900 } },
      })
      const config = credentialsConfig({ providers: [provider] })
      const attempt = async (client: HttpClient, n: number, headers: Record<string, string>) => {
        const csrfToken = await client.csrfToken()
        return throttledOr(await client.postForm("/auth/callback/credentials", { csrfToken, username: `spray-${n}`, password: "guess" }, headers))
      }
      const WRONG = `/auth/signin?error=CredentialsSignin&code=credentials`
      // No trusted proxy: every request comes from the socket's address, whatever the headers say.
      const direct = await serve(standardApp(version, config))
      expect(await attempt(direct.client, 1, { "x-forwarded-for": "1.1.1.1" })).toContain(WRONG)
      expect(await attempt(direct.client, 2, { "x-forwarded-for": "2.2.2.2" })).toContain(WRONG)
      expect(await attempt(direct.client, 3, { "x-forwarded-for": "3.3.3.3", "x-real-ip": "4.4.4.4", "x-gatehouse-client-address": "4.4.4.5" })).toBe("429 CredentialsRateLimited")
      expect(authorizeCalls).toBe(2)

      // Behind a trusted proxy, the address it forwards is the client's: one bucket per address.
      const proxied = await serve(standardApp(version, credentialsConfig({ providers: [provider] }), (app) => app.set("trust proxy", true)))
      for (const n of [4, 5]) expect(await attempt(proxied.client, n, { "x-forwarded-for": "5.5.5.5" })).toContain(WRONG)
      expect(await attempt(proxied.client, 6, { "x-forwarded-for": "5.5.5.5", "x-real-ip": "6.6.6.6" })).toBe("429 CredentialsRateLimited")
      expect(await attempt(proxied.client, 7, { "x-forwarded-for": "7.7.7.7" })).toContain(WRONG)
      expect(authorizeCalls).toBe(5)
    })

    it.each(["cf-connecting-ip", "x-real-ip"])("reads the app's own trustedIpHeader (%s) rather than req.ip when the app names one", async (header) => {
      const provider = Credentials({ authorize: () => null, rateLimit: { perIdentifier: false, perIp: { max: 1, windowSeconds: 900 } } })
      const { client } = await serve(standardApp(version, credentialsConfig({ providers: [provider], trustedIpHeader: header })))
      const attempt = async (n: number, ip: string) => {
        const csrfToken = await client.csrfToken()
        return throttledOr(await client.postForm("/auth/callback/credentials", { csrfToken, username: `${header}-${n}`, password: "guess" }, { [header]: ip }))
      }
      // Every request comes from the same socket: the named header alone tells the clients apart.
      expect(await attempt(1, "192.0.2.1")).toContain("error=CredentialsSignin")
      expect(await attempt(2, "192.0.2.2")).toContain("error=CredentialsSignin")
      expect(await attempt(3, "192.0.2.1")).toBe("429 CredentialsRateLimited")
    })

    it("(control) without AUTH_URL, a trusted proxy's X-Forwarded-Host is where the link points", async () => {
      const app = standardApp(version, emailConfig(), (app) => app.set("trust proxy", true))
      const { port } = await serve(app)
      const { link } = await forgedLinkRequest(port, `no-auth-url-${version.major}@example.com`)
      expect(link.startsWith("https://evil.example/auth/callback/nodemailer?")).toBe(true)
    })
  })
})

interface Parser {
  name: string
  use: (version: ExpressVersion) => RequestHandler[]
  /** Whether it reads a form body / a JSON body (so the integration gets `req.body`, not the stream). */
  form: boolean
  json: boolean
}

const parsers: Parser[] = [
  { name: "no body parser", use: () => [], form: false, json: false },
  { name: "express.json()", use: (v) => [v.express.json()], form: false, json: true },
  { name: "express.urlencoded({ extended: true })", use: (v) => [v.express.urlencoded({ extended: true })], form: true, json: false },
  { name: "express.urlencoded({ extended: false })", use: (v) => [v.express.urlencoded({ extended: false })], form: true, json: false },
  { name: "express.json() + express.urlencoded()", use: (v) => [v.express.json(), v.express.urlencoded({ extended: true })], form: true, json: true },
  { name: "express.text({ type: '*/*' })", use: (v) => [v.express.text({ type: "*/*" })], form: true, json: true },
  { name: "express.raw() (octet-stream only)", use: (v) => [v.express.raw()], form: false, json: false },
  { name: "express.raw({ type: '*/*' })", use: (v) => [v.express.raw({ type: "*/*" })], form: true, json: true },
]

const PASSWORD = "correct horse ✓ & = %"

describe.each(expressVersions)("request bodies through $name", (version) => {
  it.each(parsers)("signs in and updates the session with $name before the integration", async (parser) => {
    const received: Record<string, unknown>[] = []
    const config = credentialsConfig({
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: (credentials) => {
            received.push({ ...credentials })
            return credentials.username === "ada" && credentials.password === PASSWORD ? { ...ada } : null
          },
        }),
      ],
      callbacks: {
        jwt: ({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }) =>
          trigger === "update" && session && typeof session === "object" && "name" in session ? { ...token, name: String(session.name) } : token,
      },
    })
    const readFirst: Record<string, boolean> = {}
    const { client, origin } = await serve(
      standardApp(version, config, (app) => {
        for (const handler of parser.use(version)) app.use(handler)
        app.use((req, _res, next) => {
          if (req.method === "POST") readFirst[req.path] = req.readableEnded || req.readableDidRead
          next()
        })
      }),
    )

    const csrfToken = await client.csrfToken()
    const form = `csrfToken=${csrfToken}&username=ada&password=${encodeURIComponent(PASSWORD)}&profile%5Bname%5D=Ada&tag=a&tag=b`
    const signIn = await client.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    })
    expect(readFirst["/auth/callback/credentials"], "the form was read by the parser").toBe(parser.form)
    expect(signIn.headers.get("location")).toBe(origin)
    // authorize saw the fields exactly as without a parser (a repeated name: the last value).
    expect(received).toEqual([expect.objectContaining({ username: "ada", password: PASSWORD, "profile[name]": "Ada", tag: "b" })])

    const update = await client.postJson("/auth/session", { csrfToken: await client.csrfToken(), data: { name: "Ada Updated" } })
    expect(readFirst["/auth/session"], "the JSON was read by the parser").toBe(parser.json)
    expect(update.status).toBe(200)
    expect(await update.json()).toMatchObject({ user: { name: "Ada Updated", email: ada.email } })
    expect(await client.session()).toMatchObject({ user: { name: "Ada Updated" } })
  })
})

const FOUR_MB = 4 * 1024 * 1024

/** 4 MB of form body in 64 chunks, sent with Transfer-Encoding: chunked. */
function chunkedBody(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("a".repeat(FOUR_MB / 64))
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent++ === 64) controller.close()
      else controller.enqueue(chunk)
    },
  })
}

describe.each(expressVersions)("4 MB bodies through $name", (version) => {
  it.each([
    ["with Content-Length", () => ({ body: `x=${"a".repeat(FOUR_MB)}` })],
    ["chunked", () => ({ body: chunkedBody(), duplex: "half" as const })],
  ])("answers 400 'Bad request.' %s, and the same server answers the next request", async (_, body) => {
    const { client } = await serve(standardApp(version, credentialsConfig()))
    const csrfToken = await client.csrfToken()
    for (const path of ["/auth/callback/credentials", "/auth/session"]) {
      const response = await client.fetch(path, {
        method: "POST",
        headers: { "content-type": path.endsWith("session") ? "application/json" : "application/x-www-form-urlencoded" },
        ...body(),
      })
      expect(response.status).toBe(400)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      expect(await response.json()).toBe("Bad request.")
    }
    expect(await client.csrfToken()).toBe(csrfToken)
    const signIn = await client.signIn()
    expect(signIn.status).toBe(302)
    expect(await client.session()).toMatchObject({ user: ADA })
  })

  it("leaves a body over express.json()'s limit to Express (413), and keeps serving", async () => {
    const config = credentialsConfig()
    const app = version.express()
    app.use(version.express.json())
    app.use("/auth", ServerAuth(config))
    const { client } = await serve(app)
    const response = await client.postJson("/auth/session", { data: "a".repeat(FOUR_MB) })
    expect(response.status).toBe(413)
    await response.arrayBuffer()
    expect((await client.signIn()).status).toBe(302)
    expect(await client.session()).toMatchObject({ user: ADA })
  })
})

interface Mount {
  name: string
  mount: (app: Express, handler: RequestHandler) => void
}

const mounts: Record<4 | 5, Mount[]> = {
  5: [
    { name: 'app.use("/auth", …)', mount: (app, handler) => app.use("/auth", handler) },
    { name: 'app.use("/auth/*splat", …)', mount: (app, handler) => app.use("/auth/*splat", handler) },
    { name: 'app.all("/auth/*splat", …)', mount: (app, handler) => app.all("/auth/*splat", handler) },
    { name: 'app.all("/auth/{*splat}", …)', mount: (app, handler) => app.all("/auth/{*splat}", handler) },
  ],
  4: [
    { name: 'app.use("/auth", …)', mount: (app, handler) => app.use("/auth", handler) },
    { name: 'app.use("/auth/*", …)', mount: (app, handler) => app.use("/auth/*", handler) },
    { name: 'app.all("/auth/*", …)', mount: (app, handler) => app.all("/auth/*", handler) },
  ],
}

const mountCases = expressVersions.flatMap((version) => mounts[version.major].map((mount) => ({ version, mount, label: `${version.name}, ${mount.name}` })))

describe.each(mountCases)("mounted with $label", ({ version, mount }) => {
  function app(config: ServerAuthConfig): Express {
    const app = version.express()
    mount.mount(app, ServerAuth(config))
    app.get("/auth/login", (_req, res) => {
      res.send("the app's own login page")
    })
    app.use((req, res) => {
      res.status(404).json({ notFound: req.originalUrl })
    })
    app.use(reportErrors)
    return app
  }

  it("serves the auth routes on /auth: sign-in page, sign-in, session, error redirects", async () => {
    const config = credentialsConfig()
    const { client, origin } = await serve(app(config))
    const page = await client.get("/auth/signin")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`action="${origin}/auth/callback/credentials"`)

    const wrong = await client.signIn({ username: "ada", password: "nope" })
    expect(wrong.headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect((await client.signIn()).headers.get("location")).toBe(origin)
    expect(await client.session()).toEqual({ user: ADA, expires: expect.any(String) })
    expect(await (await client.get("/auth/providers/")).json()).toMatchObject({ credentials: { signinUrl: `${origin}/auth/signin/credentials` } })
  })

  it("passes a path under the mount that names no auth action on to the next handler", async () => {
    const { client } = await serve(app(credentialsConfig()))
    const login = await client.get("/auth/login")
    expect(login.status).toBe(200)
    expect(await login.text()).toBe("the app's own login page")
    const other = await client.get("/auth/somewhere/else")
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ notFound: "/auth/somewhere/else" })
  })
})

describe.each(expressVersions)("a router at /api with the integration at /auth inside it, $name", (version) => {
  function app(config: ServerAuthConfig): Express {
    const app = version.express()
    const router = version.express.Router()
    router.use("/auth", ServerAuth(config))
    router.get("/auth/login", (_req, res) => {
      res.send("api login")
    })
    router.get("/me", requireAuth(config), (_req, res) => {
      res.json(res.locals.session)
    })
    app.use("/api", router)
    app.use(reportErrors)
    return app
  }

  it("takes /api/auth as the base path: page form actions, redirects and routes", async () => {
    const { client, origin } = await serve(app(credentialsConfig()))
    const page = await (await client.get("/api/auth/signin")).text()
    expect(page).toContain(`action="${origin}/api/auth/callback/credentials"`)
    expect(page).not.toContain(`"${origin}/auth/`)

    const wrong = await client.signIn({ username: "ada", password: "nope" }, { basePath: "/api/auth" })
    expect(wrong.headers.get("location")).toBe(`${origin}/api/auth/signin?error=CredentialsSignin&code=credentials`)
    // The typed name waits for the page in a cookie scoped to the base path the router gave.
    expect(wrong.headers.getSetCookie().find((cookie) => cookie.startsWith("authjs.sign-in-identifier="))).toMatch(/;\s*Path=\/api\/auth(;|$)/i)
    const signIn = await client.signIn(undefined, { basePath: "/api/auth" })
    expect(signIn.headers.get("location")).toBe(origin)
    expect(await client.session("/api/auth")).toEqual({ user: ADA, expires: expect.any(String) })
    expect(await (await client.get("/api/me")).json()).toEqual({ user: ADA, expires: expect.any(String) })
    expect(await (await client.get("/api/auth/login")).text()).toBe("api login")
    // Not served at the default base path.
    expect((await client.get("/auth/session")).status).toBe(404)
  })

  it("sends requireAuth's browsers to {config.basePath}/signin: set basePath when mounting elsewhere", async () => {
    // requireAuth cannot see where ServerAuth is mounted; the configured base path is what it has.
    const { client } = await serve(app(credentialsConfig({ basePath: "/api/auth" })))
    const response = await client.get("/api/me", { accept: "text/html" })
    expect(response.headers.get("location")).toBe("/api/auth/signin?callbackUrl=%2Fapi%2Fme")
    expect((await client.get("/api/auth/signin")).status).toBe(200)
  })
})

describe.each(expressVersions)("the app's config object through $name", (version) => {
  it("is never changed: no basePath, no secret, same providers, under two mounts at once", async () => {
    vi.stubEnv("AUTH_SECRET", secret)
    const provider = Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { ...ada } : null) })
    const config: ServerAuthConfig = { providers: [provider], logger: recordingLogger().logger }
    const snapshot = JSON.stringify(config)
    const keys = Object.keys(config)
    const providerKeys = Object.keys(provider)

    const app = version.express()
    app.use("/auth", ServerAuth(config))
    const router = version.express.Router()
    router.use("/auth", ServerAuth(config))
    app.use("/v2", router)
    app.get("/api/me", async (req, res) => {
      res.json(await getSession(req, config))
    })
    const { client, origin } = await serve(app)

    expect((await client.signIn({ username: "ada" })).headers.get("location")).toBe(origin)
    expect(await client.session("/v2/auth")).toMatchObject({ user: ADA })
    const second = await (await client.get("/v2/auth/signin")).text()
    expect(second).toContain(`action="${origin}/v2/auth/callback/credentials"`)
    expect(await (await client.get("/api/me")).json()).toMatchObject({ user: ADA })

    expect(JSON.stringify(config)).toBe(snapshot)
    expect(Object.keys(config)).toEqual(keys)
    expect(config.basePath).toBeUndefined()
    expect(config.secret).toBeUndefined()
    expect(config.trustHost).toBeUndefined()
    expect(config.providers[0]).toBe(provider)
    expect(Object.keys(provider)).toEqual(providerKeys)
  })
})

describe.each(expressVersions)("requests that are not auth requests, through $name", (version) => {
  it.each(["a@b", "x/y", "evil.example?x", "[::1"])("answers a Host header %j that is no host with 400 JSON, and keeps serving", async (host) => {
    const { client, port } = await serve(standardApp(version, credentialsConfig()))
    const answer = await rawRequest(port, { path: "/auth/session", headers: { host } })
    expect(answer.status).toBe(400)
    expect(answer.headers["content-type"]).toMatch(/^application\/json/)
    expect(JSON.parse(answer.body)).toBe("Bad request.")
    expect((await client.get("/auth/csrf")).status).toBe(200)
  })

  it("reads the session of a request whose Host is no host (getSession makes no links)", async () => {
    const { client, port } = await serve(standardApp(version, credentialsConfig()))
    await client.signIn()
    const answer = await rawRequest(port, { path: "/api/me", headers: { host: "a@b", cookie: client.cookieHeader(client.origin) } })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ user: ADA })
  })

  it.each(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])("answers %s /auth/session with a 4xx", async (method) => {
    const { client } = await serve(standardApp(version, credentialsConfig()))
    const response = await client.fetch("/auth/session", { method })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
  })

  it("answers a signIn callback that throws with the error page (AccessDenied, as Auth.js), not the app's error handler", async () => {
    const { logger, lines } = recordingLogger()
    const config = credentialsConfig({
      logger,
      callbacks: {
        signIn: () => {
          throw new Error("callback exploded")
        },
      },
    })
    const { client, origin } = await serve(standardApp(version, config))
    const response = await client.signIn()
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(lines).toContainEqual({ level: "warn", code: "AccessDenied", message: ["callback exploded"] })
    // The callback failing is a fault of the app's, logged whole before the one-line refusal.
    expect(lines.filter((line) => line.level === "error").map((line) => [line.code, (line.message[0] as Error).message])).toEqual([["Error", "callback exploded"]])
    expect((await client.get("/auth/csrf")).status).toBe(200)
  })

  it("answers TRACE /auth/session with a 4xx, though no Web Request can carry that method", async () => {
    const { port } = await serve(standardApp(version, credentialsConfig()))
    const answer = await rawRequest(port, { method: "TRACE", path: "/auth/session" })
    expect(answer.status).toBeLessThan(500)
  })
})

describe.each(mountCases)("an absolute-form request target, mounted with $label", ({ version, mount }) => {
  function app(config: ServerAuthConfig): Express {
    const app = version.express()
    mount.mount(app, ServerAuth(config))
    app.use(reportErrors)
    return app
  }

  it("never answers with a URL on the target's host", async () => {
    const { port, origin } = await serve(app(credentialsConfig()))
    vi.stubEnv("AUTH_URL", origin)
    const answer = await rawRequest(port, { path: "http://evil.example/auth/providers" })
    expect(answer.body).not.toContain("evil.example")
    expect(answer.headers.location ?? "").not.toContain("evil.example")
  })

  it("serves GET http://evil.example/auth/providers (absolute form) as /auth/providers on the app's origin", async () => {
    const { port, origin } = await serve(app(credentialsConfig()))
    const answer = await rawRequest(port, { path: "http://evil.example/auth/providers", headers: { host: origin.slice("http://".length) } })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ credentials: { signinUrl: `${origin}/auth/signin/credentials` } })
  })
})

describe.each(expressVersions)("a client that leaves mid-body, through $name", (version) => {
  it("is finished with (logged as an unreadable request) even when it left before Gatehouse first read the body", async () => {
    const { logger, lines } = recordingLogger()
    const app = version.express()
    // A slow middleware first, so the client is gone before the body is first asked for.
    app.use((_req, _res, next) => void setTimeout(next, 150))
    app.use("/auth", ServerAuth(credentialsConfig({ logger })))
    const { port } = await listen(app)
    const { connect } = await import("node:net")
    const socket = connect(port, "127.0.0.1")
    await new Promise((resolve) => socket.once("connect", resolve))
    socket.write("POST /auth/callback/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"csrf")
    await new Promise((resolve) => setTimeout(resolve, 30))
    socket.destroy()
    // The client's doing: one warning line, nothing at the error level.
    await vi.waitFor(() => expect(lines.some((line) => line.level === "warn" && line.code === "InvalidRequest")).toBe(true), { timeout: 3000 })
    expect(lines.filter((line) => line.level === "error")).toEqual([])
    const response = await fetch(`http://127.0.0.1:${port}/auth/csrf`)
    expect(response.status).toBe(200)
  })
})
