/**
 * Reading the session in an Express app (5 and 4) over real HTTP: `getSession` (with and without
 * the response to pass refreshed cookies on), `authSession` (res.locals.session) and
 * `requireAuth` (401 JSON for API calls, a redirect to sign in for browsers, on a route or a router).
 */
import type { ErrorRequestHandler, Express, RequestHandler } from "express"
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest"
import { AuthError } from "../../src/errors.js"
import { authSession, getSession, requireAuth, ServerAuth, type ServerAuthConfig } from "../../src/express/index.js"
import { ada, credentialsConfig, recordingLogger, storedKey } from "../flow/flow-helpers.js"
import { storedAdapters } from "../flow/stored-adapters.js"
import {
  closeServers,
  expressVersions,
  HttpClient,
  isolateAuthEnv,
  listen,
  rawRequest,
  reportErrors,
  setCookieLine,
  type ExpressVersion,
  storeForSuite,
} from "./express-apps.js"

isolateAuthEnv()
afterEach(closeServers)

const SESSION = "authjs.session-token"
const ADA = { name: ada.name, email: ada.email, image: ada.image }

/** Answers `getSession(req, config, res?)` as JSON; errors go to `next`. */
function sessionRoute(config: ServerAuthConfig, withRes: boolean): RequestHandler {
  return async (req, res, next) => {
    try {
      res.json({ session: await getSession(req, config, withRes ? res : undefined) })
    } catch (error) {
      next(error)
    }
  }
}

/** What reached the error handlers, with whether it is an AuthError. */
const authErrors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  res.status(599).json({ authError: error instanceof AuthError, name: (error as Error).name, message: (error as Error).message })
}

/** What a handler after the middlewares saw on `res.locals`. */
const showLocals: RequestHandler = (_req, res) => {
  res.json({ has: "session" in res.locals, session: res.locals.session ?? null })
}

async function serve(app: Express): Promise<HttpClient> {
  return new HttpClient((await listen(app)).origin)
}

describe.each(expressVersions)("getSession through $name", (version: ExpressVersion) => {
  function app(config: ServerAuthConfig): Express {
    const app = version.express()
    app.use("/auth", ServerAuth(config))
    app.get("/session-with-res", sessionRoute(config, true))
    app.get("/session-without-res", sessionRoute(config, false))
    app.use(authErrors)
    return app
  }

  it("is null without a session cookie, and sets no cookie", async () => {
    const client = await serve(app(credentialsConfig()))
    const response = await client.get("/session-with-res")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ session: null })
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("is the session of the request's cookie", async () => {
    const client = await serve(app(credentialsConfig()))
    await client.signIn()
    expect(await (await client.get("/session-without-res")).json()).toEqual({ session: { user: ADA, expires: expect.any(String) } })
  })

  it("is null for an invalid session cookie, and clears that cookie through res", async () => {
    const client = await serve(app(credentialsConfig()))
    client.setCookie(SESSION, "not-a-jwe")
    const withRes = await client.get("/session-with-res")
    expect(await withRes.json()).toEqual({ session: null })
    const cleared = setCookieLine(withRes, SESSION)
    expect(cleared).toBeDefined()
    expect(cleared).toMatch(/^authjs\.session-token=;|Max-Age=0|Expires=Thu, 01 Jan 1970/)
    expect(client.cookie(SESSION)).toBeUndefined()

    client.setCookie(SESSION, "not-a-jwe")
    const withoutRes = await client.get("/session-without-res")
    expect(await withoutRes.json()).toEqual({ session: null })
    expect(withoutRes.headers.getSetCookie()).toEqual([])
  })

  describe.each(storedAdapters.filter((store) => store.name !== "PostgreSQL"))("database sessions on the $name adapter", (store) => {
    const opened = storeForSuite(store)

    it("extends the row on every read (updateAge 0) and sends the refreshed cookie back only when given res", async () => {
      const { adapter } = opened
      const user = await adapter.createUser({ id: crypto.randomUUID(), name: "Db", email: `${crypto.randomUUID()}@app.test`, emailVerified: null })
      const config = credentialsConfig({
        adapter,
        session: { strategy: "database", updateAge: 0, maxAge: 3600 },
        providers: [{ id: "credentials", name: "C", type: "credentials", credentials: {}, authorize: () => ({ id: user.id }) }],
      })
      const client = await serve(app(config))
      await client.signIn({})
      const token = client.cookie(SESSION)!
      const before = (await adapter.getSessionAndUser(storedKey(token)))!.session.expires

      // Later by a few seconds, so the extended expiry differs even where rows keep whole seconds.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5_000 })
      onTestFinished(() => void vi.useRealTimers())
      const withRes = await client.get("/session-with-res")
      expect(await withRes.json()).toMatchObject({ session: { user: { email: user.email } } })
      const row = (await adapter.getSessionAndUser(storedKey(token)))!.session
      expect(row.expires.getTime()).toBeGreaterThan(before.getTime())
      const refreshed = setCookieLine(withRes, SESSION)
      expect(refreshed, "the extended session's cookie").toBeDefined()
      expect(refreshed!.startsWith(`${SESSION}=${token};`)).toBe(true)
      expect(new Date(/Expires=([^;]+)/.exec(refreshed!)![1]!).getTime()).toBe(Math.floor(row.expires.getTime() / 1000) * 1000)
      expect(refreshed).toMatch(/HttpOnly/)

      const withoutRes = await client.get("/session-without-res")
      expect(await withoutRes.json()).toMatchObject({ session: { user: { email: user.email } } })
      expect(withoutRes.headers.getSetCookie()).toEqual([])
    })
  })

  it("throws an AuthError when the configuration is unusable (no secret anywhere)", async () => {
    const { logger } = recordingLogger()
    const config = credentialsConfig({ secret: undefined, logger })
    const client = await serve(app(config))
    const response = await client.get("/session-with-res")
    expect(response.status).toBe(599)
    expect(await response.json()).toMatchObject({ authError: true, name: "AuthError", message: expect.stringMatching(/^Cannot read the session/) })
  })

  it("uses AUTH_SECRET from the environment when the config has none", async () => {
    vi.stubEnv("AUTH_SECRET", "an-environment-secret-0123456789abcdef0123")
    const config = credentialsConfig({ secret: undefined })
    const client = await serve(app(config))
    await client.signIn()
    expect(await (await client.get("/session-with-res")).json()).toEqual({ session: { user: ADA, expires: expect.any(String) } })
    expect(config.secret).toBeUndefined()
  })
})

describe.each(expressVersions)("authSession through $name", (version) => {
  function app(config: ServerAuthConfig): Express {
    const app = version.express()
    app.use("/auth", ServerAuth(config))
    app.use(authSession(config))
    app.get("/locals", showLocals)
    app.use(authErrors)
    return app
  }

  it("puts null on res.locals.session when signed out, and the session when signed in", async () => {
    const client = await serve(app(credentialsConfig()))
    const signedOut = await client.get("/locals")
    expect(await signedOut.json()).toEqual({ has: true, session: null })
    expect(signedOut.headers.getSetCookie()).toEqual([])

    await client.signIn()
    expect(await (await client.get("/locals")).json()).toEqual({ has: true, session: { user: ADA, expires: expect.any(String) } })
  })

  it("passes the AuthError of an unusable configuration to next(err)", async () => {
    const client = await serve(app(credentialsConfig({ secret: undefined })))
    const response = await client.get("/locals")
    expect(response.status).toBe(599)
    expect(await response.json()).toMatchObject({ authError: true, name: "AuthError" })
  })
})

describe.each(expressVersions)("requireAuth through $name", (version) => {
  const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }

  function app(config: ServerAuthConfig, protect: (app: Express) => void): Express {
    const app = version.express()
    app.use("/auth", ServerAuth(config))
    protect(app)
    app.use(reportErrors)
    return app
  }

  const onRoute = (config: ServerAuthConfig) => (app: Express) => {
    app.get("/private/page", requireAuth(config), showLocals)
    app.post("/private/page", requireAuth(config), showLocals)
  }

  it("answers fetch (Accept */*) and Accept: application/json with 401 JSON", async () => {
    const config = credentialsConfig()
    const client = await serve(app(config, onRoute(config)))
    for (const headers of [{}, { accept: "application/json" }] as Record<string, string>[]) {
      const response = await client.get("/private/page", headers)
      expect(response.status).toBe(401)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      expect(await response.json()).toEqual({ message: "Unauthorized" })
    }
  })

  it("redirects a browser's GET to the sign-in page with the page as callbackUrl, and a POST gets 401", async () => {
    const config = credentialsConfig()
    const client = await serve(app(config, onRoute(config)))
    const response = await client.get("/private/page?tab=a%20b&x=1", html)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`/auth/signin?callbackUrl=${encodeURIComponent("/private/page?tab=a%20b&x=1")}`)

    const post = await client.fetch("/private/page", { method: "POST", headers: html })
    expect(post.status).toBe(401)
  })

  it("comes back to the page asked for after signing in from the redirect", async () => {
    const config = credentialsConfig()
    const client = await serve(app(config, onRoute(config)))
    const redirect = await client.get("/private/page?x=1", html)
    const signInPage = new URL(redirect.headers.get("location")!, client.origin)
    const page = await client.get(signInPage.pathname + signInPage.search, html)
    expect(page.status).toBe(200)
    const form = await page.text()
    expect(form).toContain(`<form action="${client.origin}/auth/callback/credentials" method="POST">`)
    const hidden = (name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(form)?.[1]
    expect(hidden("callbackUrl")).toBe(`${client.origin}/private/page?x=1`)

    // The form as a browser submits it.
    const signedIn = await client.postForm("/auth/callback/credentials", {
      csrfToken: hidden("csrfToken")!,
      callbackUrl: hidden("callbackUrl")!,
      username: "ada",
      password: "correct horse",
    })
    expect(signedIn.headers.get("location")).toBe(`${client.origin}/private/page?x=1`)
    const landed = await client.get("/private/page?x=1", html)
    expect(landed.status).toBe(200)
    expect(await landed.json()).toEqual({ has: true, session: { user: ADA, expires: expect.any(String) } })
  })

  it("redirects to a custom redirectTo, adding callbackUrl to its query", async () => {
    const config = credentialsConfig()
    const client = await serve(
      app(config, (app) => {
        app.get("/a", requireAuth(config, { redirectTo: "/login" }), showLocals)
        app.get("/b", requireAuth(config, { redirectTo: "/login?theme=dark" }), showLocals)
      }),
    )
    expect((await client.get("/a?q=1", html)).headers.get("location")).toBe(`/login?callbackUrl=${encodeURIComponent("/a?q=1")}`)
    expect((await client.get("/b", html)).headers.get("location")).toBe("/login?theme=dark&callbackUrl=%2Fb")
    // API calls still get 401, whatever the redirect.
    expect((await client.get("/a")).status).toBe(401)
  })

  it("lets a signed-in request through with the session on res.locals", async () => {
    const config = credentialsConfig()
    const client = await serve(app(config, onRoute(config)))
    await client.signIn()
    const response = await client.get("/private/page")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ has: true, session: { user: ADA, expires: expect.any(String) } })
  })

  it("protects a whole router: app.use('/api', requireAuth(config), router)", async () => {
    const config = credentialsConfig()
    const client = await serve(
      app(config, (app) => {
        const router = version.express.Router()
        router.get("/items", (_req, res) => {
          res.json({ items: [1, 2], user: res.locals.session?.user?.email })
        })
        router.post("/items", (_req, res) => {
          res.status(201).json({ created: true })
        })
        app.use("/api", requireAuth(config), router)
        app.get("/public", (_req, res) => {
          res.send("public")
        })
      }),
    )
    expect((await client.get("/api/items")).status).toBe(401)
    expect((await client.fetch("/api/items", { method: "POST" })).status).toBe(401)
    expect((await client.get("/api/items", html)).headers.get("location")).toBe("/auth/signin?callbackUrl=%2Fapi%2Fitems")
    expect(await (await client.get("/public")).text()).toBe("public")

    await client.signIn()
    expect(await (await client.get("/api/items")).json()).toEqual({ items: [1, 2], user: ada.email })
    expect((await client.fetch("/api/items", { method: "POST" })).status).toBe(201)
  })

  it("reuses res.locals.session set earlier instead of reading the session again", async () => {
    // A config no session could be read with: reading would end in the error handler.
    const broken = credentialsConfig({ secret: undefined })
    const preset = { user: { name: "Preset" }, expires: "2100-01-01T00:00:00.000Z" }
    const client = await serve(
      app(broken, (app) => {
        app.get("/preset", (_req, res, next) => ((res.locals.session = preset), next()), requireAuth(broken), showLocals)
        app.get("/preset-null", (_req, res, next) => ((res.locals.session = null), next()), requireAuth(broken), showLocals)
        app.get("/unset", requireAuth(broken), showLocals)
      }),
    )
    const through = await client.get("/preset")
    expect(through.status).toBe(200)
    expect(await through.json()).toEqual({ has: true, session: preset })
    expect((await client.get("/preset-null")).status).toBe(401)
    // And the control: without a preset session, requireAuth does read, and fails with this config.
    const read = await client.get("/unset")
    expect(read.status).toBe(599)
    expect(await read.json()).toMatchObject({ caught: "AuthError" })
  })

  it("reuses the session authSession put there: one read, one refreshed cookie", async () => {
    const [memory] = storedAdapters
    const { adapter, close } = await memory!.open()
    try {
      const user = await adapter.createUser({ id: crypto.randomUUID(), email: "once@app.test", emailVerified: null })
      let reads = 0
      const counting = { ...adapter, getSessionAndUser: (token: string) => (reads++, adapter.getSessionAndUser(token)) }
      const config = credentialsConfig({
        adapter: counting,
        session: { strategy: "database", updateAge: 0 },
        providers: [{ id: "credentials", name: "C", type: "credentials", credentials: {}, authorize: () => ({ id: user.id }) }],
      })
      const client = await serve(
        app(config, (app) => {
          app.get("/both", authSession(config), requireAuth(config), showLocals)
        }),
      )
      await client.signIn({})
      // A row is extended only when the new expiry is later; in the same millisecond it is not.
      await new Promise((resolve) => setTimeout(resolve, 5))
      reads = 0
      const response = await client.get("/both")
      expect(response.status).toBe(200)
      expect(reads).toBe(1)
      expect(response.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION}=`))).toHaveLength(1)
    } finally {
      await close()
    }
  })
})

describe.each(expressVersions)("what the session middlewares leave on a response, through $name", (version) => {
  it("marks a response that carries a session cookie private, so no shared cache hands it to someone else", async () => {
    const config = credentialsConfig()
    const app = version.express()
    app.use("/auth", ServerAuth(config))
    app.use((_req, res, next) => {
      res.setHeader("cache-control", "public, max-age=3600")
      next()
    })
    app.use(authSession(config))
    app.get("/style.css", (_req, res) => res.type("text/css").send("body{}"))
    app.use(reportErrors)
    const client = await serve(app)
    const anonymous = await client.get("/style.css")
    expect(anonymous.headers.get("cache-control")).toBe("public, max-age=3600")

    await client.signIn()
    // A fresh JWT session is not written again, so nothing marks the response.
    const fresh = await client.get("/style.css")
    expect(setCookieLine(fresh, SESSION)).toBeUndefined()
    expect(fresh.headers.get("cache-control")).toBe("public, max-age=3600")

    // Past updateAge the read writes the cookie again: that response must stay out of shared caches.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 24 * 60 * 60 * 1000 + 1_000 })
    onTestFinished(() => void vi.useRealTimers())
    const signedIn = await client.get("/style.css")
    expect(setCookieLine(signedIn, SESSION)).toBeDefined()
    expect(signedIn.headers.get("cache-control")).toBe("private, max-age=3600")
  })

  it("sends a configuration error (an unusable AUTH_URL) to the app's error handler, not a 400 to every client", async () => {
    vi.stubEnv("AUTH_URL", "app.example.com")
    const config = credentialsConfig()
    const app = version.express()
    app.use("/auth", ServerAuth(config))
    app.get("/", authSession(config), showLocals)
    app.use(authErrors)
    const client = await serve(app)
    for (const path of ["/auth/signin", "/"]) {
      const response = await client.get(path)
      expect(response.status, path).toBe(599)
      expect(await response.json(), path).toMatchObject({ authError: true, name: "InvalidConfig" })
    }
  })

  it("hands requireAuth's failure to next when the response was already sent, and the server lives on", async () => {
    const config = credentialsConfig()
    const app = version.express()
    let reached: unknown
    app.get(
      "/streaming",
      (_req, res, next) => {
        res.flushHeaders()
        next()
      },
      requireAuth(config),
      (_req, res) => res.end("should not get here"),
    )
    app.use(((error, _req, res, _next) => {
      reached = error
      res.end()
    }) as ErrorRequestHandler)
    app.get("/alive", (_req, res) => res.send("yes"))
    const client = await serve(app)
    const response = await client.get("/streaming")
    expect(response.status).toBe(200)
    expect(await response.text()).toBe("")
    expect(reached).toBeInstanceOf(AuthError)
    expect(await (await client.get("/alive")).text()).toBe("yes")
  })

  it("sends a browser back to the path it asked for, never to a host a doubled slash would name", async () => {
    const config = credentialsConfig()
    const app = version.express()
    app.use(requireAuth(config))
    const { port } = await listen(app)
    for (const path of ["//evil.example/x?y=1", "http://evil.example/evil.example/x?y=1"]) {
      const answer = await rawRequest(port, { path, headers: { accept: "text/html" } })
      expect(answer.status, path).toBe(302)
      expect(answer.headers.location, path).toBe(`/auth/signin?callbackUrl=${encodeURIComponent("/evil.example/x?y=1")}`)
    }
  })
})
