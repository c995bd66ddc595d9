/**
 * gatehouse-auth/tanstack-start driven as TanStack Start drives it: the server route's handlers
 * given `{ request }`, and getSession/requireSession reading the request being served through
 * `@tanstack/react-start/server` (the workspace does not install TanStack Start: its request
 * context is stood in for below, holding one request and the response headers being built, as
 * its `getRequest`/`appendResponseHeader` do). The real thing runs in examples/tanstack-start.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { TanStackAuth } from "../../src/tanstack-start/index.js"
import type { TanStackAuthConfig } from "../../src/tanstack-start/index.js"
import { CookieJar, credentialsConfig, moveClockOn, recordingLogger } from "../flow/flow-helpers.js"

const context = vi.hoisted(() => ({ request: undefined as Request | undefined, response: new Headers() }))

vi.mock("@tanstack/react-start/server", () => ({
  getRequest: () => {
    if (!context.request) throw new Error("No StartEvent found in AsyncLocalStorage")
    return context.request
  },
  getResponseHeader: (name: string) => context.response.get(name) ?? undefined,
  setResponseHeader: (name: string, value: string | string[]) => context.response.set(name, ([] as string[]).concat(value).join(", ")),
  appendResponseHeader: (name: string, value: string | string[]) => {
    for (const line of ([] as string[]).concat(value)) context.response.append(name, line)
  },
}))

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const AUTH_ENV = ["AUTH_URL", "LEGACYAUTH_URL", "AUTH_SECRET", "LEGACYAUTH_SECRET", "AUTH_TRUST_HOST", "AUTH_REDIRECT_PROXY_URL", "VERCEL", "CF_PAGES"]

beforeEach(() => {
  for (const name of AUTH_ENV) vi.stubEnv(name, "")
  context.request = undefined
  context.response = new Headers()
})

afterEach(() => {
  vi.unstubAllEnvs()
  vi.useRealTimers()
})

/** A browser of one app: sends requests to the server route's handlers, keeps the cookies they set. */
function browserOf(config: TanStackAuthConfig) {
  const auth = TanStackAuth(config)
  const jar = new CookieJar()
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar.cookies.size > 0) headers.set("cookie", jar.header())
    const request = new Request(`${ORIGIN}${path}`, { ...init, headers })
    const answer = await ((init.method ?? "GET") === "GET" ? auth.handlers.GET : auth.handlers.POST)({ request })
    jar.store(answer)
    return answer
  }
  const signIn = async (password = "correct horse") => {
    const { csrfToken } = (await (await send("/api/auth/csrf")).json()) as { csrfToken: string }
    return send("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password }),
    })
  }
  /** Makes the next server function call: the request TanStack Start would be serving, with the jar's cookies. */
  const serving = () => {
    context.request = new Request(`${ORIGIN}/_serverFn/abc`, { method: "POST", headers: jar.cookies.size > 0 ? { cookie: jar.header() } : {} })
    context.response = new Headers()
  }
  return { auth, send, signIn, serving, jar }
}

describe("TanStackAuth's server route handlers", () => {
  it("serve the auth routes at /api/auth by default: providers, a credentials sign-in, the session", async () => {
    const browser = browserOf(credentialsConfig())
    expect(await (await browser.send("/api/auth/providers")).json()).toMatchObject({ credentials: { callbackUrl: `${ORIGIN}/api/auth/callback/credentials` } })
    expect((await browser.signIn()).status).toBe(302)
    expect(browser.jar.get(SESSION)).toBeTruthy()
    expect(await (await browser.send("/api/auth/session")).json()).toMatchObject({ user: { email: "ada@app.test" } })
  })

  it("send a wrong password to the app's own sign-in page with the error", async () => {
    const browser = browserOf(credentialsConfig({ pages: { signIn: "/signin" } }))
    const answer = await browser.signIn("wrong")
    const location = new URL(answer.headers.get("location")!)
    expect(location.pathname).toBe("/signin")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(browser.jar.get(SESSION)).toBeFalsy()
  })

  it("take the secret and trust from the environment at the first request, not at import", async () => {
    const { secret: _secret, trustHost: _trust, ...config } = credentialsConfig()
    const browser = browserOf(config)
    vi.stubEnv("AUTH_SECRET", "tanstack-env-secret-0123456789abcdef0123456789")
    vi.stubEnv("AUTH_TRUST_HOST", "true")
    expect((await browser.signIn()).status).toBe(302)
    expect(browser.jar.get(SESSION)).toBeTruthy()
  })

  it("answer on AUTH_URL's origin, whatever Host the request came with", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example")
    const browser = browserOf(credentialsConfig())
    const providers = (await (await browser.send("/api/auth/providers")).json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials!.signinUrl).toBe("https://public.example/api/auth/signin/credentials")
  })
})

describe("TanStackAuth's getSession and requireSession", () => {
  it("read the session of the request being served, in-process: null signed out, the user signed in", async () => {
    const browser = browserOf(credentialsConfig())
    browser.serving()
    expect(await browser.auth.getSession()).toBeNull()
    await browser.signIn()
    browser.serving()
    expect(await browser.auth.getSession()).toMatchObject({ user: { email: "ada@app.test" } })
  })

  it("read once per request, however many server functions and middlewares ask", async () => {
    const config = credentialsConfig()
    const session = vi.fn(({ session }) => session)
    const browser = browserOf({ ...config, callbacks: { session } })
    await browser.signIn()
    browser.serving()
    await Promise.all([browser.auth.getSession(), browser.auth.getSession(), browser.auth.requireSession()])
    expect(session).toHaveBeenCalledTimes(1)
    browser.serving()
    await browser.auth.getSession()
    expect(session).toHaveBeenCalledTimes(2)
  })

  it("requireSession throws a 401 Response signed out (what a guarding function middleware answers), the session signed in", async () => {
    const browser = browserOf(credentialsConfig())
    browser.serving()
    const refused = await browser.auth.requireSession().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(Response)
    expect((refused as Response).status).toBe(401)
    expect(await (refused as Response).json()).toEqual({ error: "Unauthorized" })
    await browser.signIn()
    browser.serving()
    expect((await browser.auth.requireSession()).user).toMatchObject({ email: "ada@app.test" })
  })

  it("fail closed: a tampered session cookie, or no secret at all, reads as signed out", async () => {
    const browser = browserOf(credentialsConfig())
    context.request = new Request(`${ORIGIN}/_serverFn/abc`, { headers: { cookie: `${SESSION}=not-a-token` } })
    expect(await browser.auth.getSession()).toBeNull()
    const { secret: _secret, ...withoutSecret } = credentialsConfig()
    const bare = browserOf(withoutSecret)
    bare.serving()
    expect(await bare.auth.getSession()).toBeNull()
    await expect(bare.auth.requireSession()).rejects.toMatchObject({ status: 401 })
  })

  it("in production without AUTH_URL or AUTH_TRUST_HOST: the auth routes refuse with the safe answer, getSession reads signed out and requireSession answers 401, the untrusted host logged once naming the fix", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const { logger, lines } = recordingLogger()
    const { trustHost: _trust, ...config } = credentialsConfig({ logger })
    const browser = browserOf(config)
    const refused = await browser.send("/api/auth/session")
    expect(refused.status).toBe(500)
    expect(await refused.text()).not.toMatch(/UntrustedHost|AUTH_URL|\.ts:/)
    browser.serving()
    expect(await browser.auth.getSession()).toBeNull()
    await expect(browser.auth.requireSession()).rejects.toMatchObject({ status: 401 })
    const logged = lines.filter((line) => line.code === "UntrustedHost")
    expect(logged).toHaveLength(1)
    expect((logged[0]!.message[0] as Error).message).toMatch(/AUTH_URL=https:\/\/your\.site.*AUTH_TRUST_HOST=true/)
  })

  it("add the cookies a read refreshes to the response being built, kept out of shared caches", async () => {
    const browser = browserOf(credentialsConfig())
    await browser.signIn()
    moveClockOn()
    browser.serving()
    context.response.set("cache-control", "public, max-age=60")
    await browser.auth.getSession()
    expect(context.response.getSetCookie().some((line) => line.startsWith(`${SESSION}=`))).toBe(true)
    expect(context.response.get("cache-control")).toBe("private, max-age=60")
  })
})
