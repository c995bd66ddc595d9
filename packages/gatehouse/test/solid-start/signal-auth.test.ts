/**
 * gatehouse-auth/solid-start driven with request events shaped as SolidStart 1 and 2 build them: the
 * route file's GET and POST at the prefix (the core's base path), requests outside it, the
 * environment (AUTH_SECRET, AUTH_TRUST_HOST, AUTH_URL), and getSession reading in-process once per
 * request, its refreshed cookies written to the event's response.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { InvalidConfig } from "../../src/errors.js"
import { getSession, SignalAuth, SolidAuth, type SignalAuthConfig } from "../../src/solid-start/index.js"
import { CookieJar, credentialsConfig, recordingLogger, secret } from "../flow/flow-helpers.js"
import { h3Event, serverFunctionEvent, setCookiesOf, solid2Event, solidEvent } from "./solid-events.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const AUTH_ENV = ["AUTH_URL", "LEGACYAUTH_URL", "AUTH_SECRET", "LEGACYAUTH_SECRET", "AUTH_TRUST_HOST", "AUTH_REDIRECT_PROXY_URL", "VERCEL", "CF_PAGES"]

beforeEach(() => {
  for (const name of AUTH_ENV) vi.stubEnv(name, "")
})

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

/** A browser of one app: sends events to the route file's handlers, keeps the cookies they set. */
function browserOf(config: SignalAuthConfig, origin = ORIGIN) {
  const { GET, POST } = SignalAuth(config)
  const jar = new CookieJar()
  const send = async (path: string, init: RequestInit = {}) => {
    const handler = (init.method ?? "GET") === "GET" ? GET : POST
    const headers = new Headers(init.headers)
    if (jar.cookies.size > 0) headers.set("cookie", jar.header())
    const answer = await handler(solidEvent(`${origin}${path}`, { ...init, headers }))
    if (answer) jar.store(answer)
    return answer
  }
  const signIn = async (prefix = "/api/auth") => {
    const { csrfToken } = (await (await send(`${prefix}/csrf`))!.json()) as { csrfToken: string }
    return send(`${prefix}/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "correct horse" }),
    })
  }
  return { send, signIn, jar }
}

describe("SignalAuth", () => {
  it("serves the auth routes at /api/auth by default: providers, a credentials sign-in, then the session", async () => {
    const browser = browserOf(credentialsConfig())
    const providers = await browser.send("/api/auth/providers")
    expect(providers!.status).toBe(200)
    expect(await providers!.json()).toMatchObject({ credentials: { callbackUrl: `${ORIGIN}/api/auth/callback/credentials` } })
    const signedIn = await browser.signIn()
    expect(signedIn!.status).toBe(302)
    expect(browser.jar.get(SESSION)).toBeTruthy()
    expect(await (await browser.send("/api/auth/session"))!.json()).toMatchObject({ user: { email: "ada@app.test" } })
  })

  it("sends a wrong password posted from the app's own page back to that page with its error, or to pages.signIn when set", async () => {
    for (const [config, page] of [[credentialsConfig(), "/login"], [credentialsConfig({ pages: { signIn: "/signin" } }), "/signin"]] as const) {
      const browser = browserOf(config)
      const { csrfToken } = (await (await browser.send("/api/auth/csrf"))!.json()) as { csrfToken: string }
      const refused = await browser.send("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", referer: `${ORIGIN}/login` },
        body: new URLSearchParams({ csrfToken, username: "ada", password: "wrong" }),
      })
      expect(refused!.status).toBe(302)
      expect(refused!.headers.get("location")).toBe(`${ORIGIN}${page}?error=CredentialsSignin&code=credentials`)
    }
  })

  it("takes prefix as the core's base path, so the routes and the links they build are under it", async () => {
    const browser = browserOf(credentialsConfig({ prefix: "/auth-routes/" } as Partial<SignalAuthConfig>))
    expect(await (await browser.send("/auth-routes/providers"))!.json()).toMatchObject({
      credentials: { signinUrl: `${ORIGIN}/auth-routes/signin/credentials` },
    })
    expect((await browser.signIn("/auth-routes"))!.status).toBe(302)
    expect(await (await browser.send("/auth-routes/session"))!.json()).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  it("hands the prefix itself and unknown actions under it to the core, which answers 400", async () => {
    const browser = browserOf(credentialsConfig())
    for (const path of ["/api/auth", "/api/auth/nonsense"]) {
      expect((await browser.send(path))!.status, path).toBe(400)
      expect((await browser.send(path, { method: "POST" }))!.status, path).toBe(400)
    }
  })

  it("answers a GET outside the prefix undefined (SolidStart's 404) and other methods 404, and says once where the route file should be", async () => {
    const { logger, lines } = recordingLogger()
    const { GET, POST } = SignalAuth(credentialsConfig({ logger }))
    expect(await GET(solidEvent(`${ORIGIN}/auth/session`))).toBeUndefined()
    expect(await GET(solidEvent(`${ORIGIN}/api/authority/session`))).toBeUndefined()
    const posted = await POST(solidEvent(`${ORIGIN}/auth/signout`, { method: "POST" }))
    expect(posted!.status).toBe(404)
    const warnings = lines.filter((line) => line.code === "solid-start-outside-prefix")
    expect(warnings).toHaveLength(1)
    expect(String(warnings[0]!.message)).toContain("/api/auth")
  })

  it("is exported under Auth.js's name too", () => {
    expect(SolidAuth).toBe(SignalAuth)
  })

  it("refuses a prefix that is not a path at the first request, as a configuration error", async () => {
    const { GET } = SignalAuth(credentialsConfig({ prefix: "api/auth" } as Partial<SignalAuthConfig>))
    await expect(GET(solidEvent(`${ORIGIN}/api/auth/session`))).rejects.toBeInstanceOf(InvalidConfig)
  })

  it("reads AUTH_SECRET and AUTH_TRUST_HOST from the environment at the first request, not when created, and leaves the config as it was", async () => {
    const config: SignalAuthConfig = { providers: credentialsConfig().providers, logger: recordingLogger().logger }
    const handlers = SignalAuth(config)
    vi.stubEnv("AUTH_SECRET", secret)
    vi.stubEnv("AUTH_TRUST_HOST", "true")
    const answer = await handlers.GET(solidEvent(`${ORIGIN}/api/auth/session`))
    expect(answer!.status).toBe(200)
    expect(config).not.toHaveProperty("secret")
    expect(config).not.toHaveProperty("basePath")
  })

  it("fails closed without a secret: the routes answer the configuration error, never a session", async () => {
    const { logger, lines } = recordingLogger()
    const { GET } = SignalAuth({ providers: credentialsConfig().providers, trustHost: true, logger })
    const answer = await GET(solidEvent(`${ORIGIN}/api/auth/session`))
    expect(answer!.status).toBe(500)
    expect(await answer!.text()).not.toContain("user")
    expect(lines.some((line) => line.level === "error" && /MissingSecret/.test(line.code))).toBe(true)
  })

  it("builds every link on AUTH_URL's origin, whatever host the request came in on", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example")
    const browser = browserOf(credentialsConfig(), "http://10.0.0.7:3000")
    expect(await (await browser.send("/api/auth/providers"))!.json()).toMatchObject({
      credentials: { callbackUrl: "https://public.example/api/auth/callback/credentials" },
    })
  })
})

describe("an untrusted host in production (no AUTH_URL, no AUTH_TRUST_HOST)", () => {
  it("refuses the auth routes with the safe answer, and getSession reads signed out, the untrusted host logged once naming the fix", async () => {
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_TRUST_HOST", "")
    vi.stubEnv("AUTH_URL", "")
    const log = recordingLogger()
    const config: SignalAuthConfig = { ...credentialsConfig({ logger: log.logger }), trustHost: undefined }
    const { GET } = SignalAuth(config)
    const refused = (await GET(solidEvent(`${ORIGIN}/api/auth/session`)))!
    expect(refused.status).toBe(500)
    expect(await refused.text()).not.toMatch(/UntrustedHost|AUTH_URL|\.ts:/)
    // Pages that show who is signed in keep answering.
    for (const path of ["/", "/about"]) expect(await getSession(solidEvent(`${ORIGIN}${path}`), config)).toBeNull()
    const logged = log.lines.filter((line) => line.code === "UntrustedHost")
    expect(logged).toHaveLength(1)
    expect(logged[0]!.message.map((part) => (part instanceof Error ? part.message : String(part))).join(" ")).toMatch(/AUTH_URL=https:\/\/your\.site.*AUTH_TRUST_HOST=true/)
  })
})

describe("getSession", () => {
  /** A config whose session reads can be counted; every read renews the JWT cookie. */
  function countedConfig() {
    const reads = { count: 0 }
    const config = credentialsConfig({
      session: { updateAge: 0 },
      callbacks: {
        session: ({ session }) => {
          reads.count++
          return session
        },
      },
    }) as SignalAuthConfig
    return { config, reads }
  }

  async function signedInCookie(config: SignalAuthConfig): Promise<string> {
    const browser = browserOf(config)
    await browser.signIn()
    return browser.jar.header()
  }

  it("reads the session of the event's request in-process, at the same prefix, with no request to the app", async () => {
    const { config } = countedConfig()
    const cookie = await signedInCookie(config)
    const fetched = vi.spyOn(globalThis, "fetch")
    const session = await getSession(solidEvent(`${ORIGIN}/account`, { headers: { cookie } }), config)
    expect(session).toMatchObject({ user: { email: "ada@app.test" } })
    expect(fetched).not.toHaveBeenCalled()
    expect(await getSession(solidEvent(`${ORIGIN}/account`), config)).toBeNull()
  })

  it("writes the renewed session cookie to the event's response, kept out of shared caches", async () => {
    const { config } = countedConfig()
    const cookie = await signedInCookie(config)
    const event = solidEvent(`${ORIGIN}/account`, { headers: { cookie } })
    event.response.headers.set("cache-control", "public, max-age=60")
    await getSession(event, config)
    expect(setCookiesOf(event).filter((line) => line.startsWith(`${SESSION}=`))).toHaveLength(1)
    expect(event.node.getHeader("cache-control")).toBe("private, max-age=60")
  })

  it("reads once per request, however many server functions and the middleware ask, and writes the cookie once", async () => {
    const { config, reads } = countedConfig()
    const cookie = await signedInCookie(config)
    reads.count = 0
    const event = solidEvent(`${ORIGIN}/account`, { headers: { cookie } })
    const sessions = await Promise.all([getSession(event, config), getSession(serverFunctionEvent(event), config), getSession(serverFunctionEvent(event), config)])
    expect(new Set(sessions).size).toBe(1)
    expect(reads.count).toBe(1)
    expect(setCookiesOf(event).filter((line) => line.startsWith(`${SESSION}=`))).toHaveLength(1)
  })

  it("still answers the session when the response already sent its headers (a streamed page); the cookie waits for the next request", async () => {
    const { config } = countedConfig()
    const cookie = await signedInCookie(config)
    const event = solidEvent(`${ORIGIN}/`, { headers: { cookie } })
    event.node.writeHead(200)
    expect(await getSession(event, config)).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  it("takes a bare Request too, and then sends no cookie anywhere", async () => {
    const { config } = countedConfig()
    const cookie = await signedInCookie(config)
    expect(await getSession(new Request(`${ORIGIN}/`, { headers: { cookie } }), config)).toMatchObject({ user: { email: "ada@app.test" } })
  })

  it("fails closed: without a secret, or with a throwing session callback, the session is null", async () => {
    const { config } = countedConfig()
    const cookie = await signedInCookie(config)
    const { secret: _omitted, ...withoutSecret } = config
    expect(await getSession(solidEvent(`${ORIGIN}/`, { headers: { cookie } }), withoutSecret)).toBeNull()
    const throwing: SignalAuthConfig = {
      ...config,
      callbacks: {
        session: () => {
          throw new Error("session store down")
        },
      },
    }
    expect(await getSession(solidEvent(`${ORIGIN}/`, { headers: { cookie } }), throwing)).toBeNull()
  })

  it("reads the cookie named for AUTH_URL's origin (https: __Secure-), whatever scheme the request arrived on behind a proxy", async () => {
    const { config } = countedConfig()
    const cookie = await signedInCookie(config)
    vi.stubEnv("AUTH_URL", "https://app.test")
    const behindProxy: SignalAuthConfig = { ...config }
    expect(await getSession(solidEvent("http://127.0.0.1:3000/", { headers: { cookie } }), behindProxy)).toMatchObject({ user: { email: "ada@app.test" } })
    vi.stubEnv("AUTH_URL", "")
    const plain: SignalAuthConfig = { ...config }
    expect(await getSession(solidEvent("http://127.0.0.1:3000/", { headers: { cookie } }), plain)).toBeNull()
  })
})

describe("getSession on SolidStart 2's events", () => {
  async function signedIn() {
    const config = credentialsConfig({ session: { updateAge: 0 } }) as SignalAuthConfig
    const browser = browserOf(config)
    await browser.signIn()
    return { config, cookie: browser.jar.header() }
  }
  const renewed = (headers: Headers) => headers.getSetCookie().filter((line) => line.startsWith(`${SESSION}=`))

  it("reads the session from the H3 event of the array-form middleware, its renewed cookie on event.res, kept out of shared caches", async () => {
    const { config, cookie } = await signedIn()
    const event = h3Event(`${ORIGIN}/account`, { headers: { cookie } })
    expect(await getSession(event, config)).toMatchObject({ user: { email: "ada@app.test" } })
    expect(renewed(event.res.headers)).toHaveLength(1)
    expect(event.res.headers.get("cache-control")).toBe("private")
    expect(await getSession(h3Event(`${ORIGIN}/account`), config)).toBeNull()
  })

  it("reads from SolidStart 2's request event (onRequest middleware, API routes, getRequestEvent()), writing to the same response", async () => {
    const { config, cookie } = await signedIn()
    const native = h3Event(`${ORIGIN}/account`, { headers: { cookie } })
    expect(await getSession(solid2Event(native), config)).toMatchObject({ user: { email: "ada@app.test" } })
    expect(renewed(native.res.headers)).toHaveLength(1)
  })

  it("shares one read between the H3 event, the request event over it and a server function's copy, the cookie written once", async () => {
    const { config, cookie } = await signedIn()
    const native = h3Event(`${ORIGIN}/account`, { headers: { cookie } })
    const event = solid2Event(native)
    const sessions = await Promise.all([getSession(native, config), getSession(event, config), getSession({ ...event }, config)])
    expect(new Set(sessions).size).toBe(1)
    expect(renewed(native.res.headers)).toHaveLength(1)
  })

  it("refuses what is neither an event nor a Request (SolidStart 1's H3 v1 nativeEvent, nothing) with InvalidConfig naming what it takes", async () => {
    const { config } = await signedIn()
    const h3v1 = { node: { req: {}, res: {} }, context: {} }
    for (const wrong of [h3v1, undefined, null, "https://app.test/"]) {
      const refusal = getSession(wrong as unknown as Request, config)
      await expect(refusal).rejects.toBeInstanceOf(InvalidConfig)
      await expect(refusal).rejects.toThrow(/getRequestEvent\(\).*event\.req.*Request/)
    }
  })
})
