/**
 * gatehouse-auth/next's own `signIn` server action and server-side `auth()` under two-factor sign-in
 * (issue 37), on Node with Next's functions stood in for (`headers()` gives the request's headers,
 * `cookies()` records what the action sets, `redirect` throws): Next itself is not
 * installed in the workspace (next-15.test.ts and examples/next run the real thing). An enrolled
 * user's `signIn` leaves only the pending cookie, and `auth()` reads no session; after the right
 * TOTP code on the route handler, `auth()` shows `session.authentication` at aal 2.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { NextAuthConfig } from "../../src/next/types.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { TwoFactorRequire } from "../../src/types.js"
import { isolateAuthEnv } from "../express/express-apps.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { CookieJar } from "../support/cookie-jar.js"
import { enrol, totpNow, type Adapted, type Authentication } from "../two-factor/bypass-matrix-helpers.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const PENDING = "__Secure-authjs.two-factor"

/** The request the action or component runs for: its headers, and the cookies it set. */
const request = vi.hoisted(() => ({ headers: new Headers(), set: [] as { name: string; value: string; options: Record<string, unknown> }[] }))

vi.mock("next/headers.js", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ set: (name: string, value: string, options: Record<string, unknown> = {}) => void request.set.push({ name, value, options }) }),
}))
// The proxy's module imports these; nothing here runs the proxy.
vi.mock("next/server.js", () => ({ NextRequest: Request, NextResponse: Response }))
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error("NEXT_REDIRECT"), { url })
  },
}))

isolateAuthEnv()

beforeEach(() => {
  request.set.length = 0
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** The headers Next gives a server action or component for a browser holding `jar`'s cookies. */
function nextHeaders(jar: CookieJar): Headers {
  return new Headers({ host: "app.test", "x-forwarded-proto": "https", cookie: jar.header(), referer: `${ORIGIN}/signin` })
}

/**
 * The cookies the action set, but the bookkeeping ones (the callback URL, the CSRF token), which
 * no session is: what is left must be the pending cookie alone.
 */
function signInCookies(): string[] {
  return request.set.filter(({ name, value }) => value !== "" && !/\.(callback-url|csrf-token)$/.test(name)).map(({ name }) => name)
}

/** Puts what the action set through `cookies()` into the browser's jar. */
function storeSet(jar: CookieJar): void {
  const headers = new Headers()
  for (const { name, value, options } of request.set) {
    headers.append("set-cookie", `${name}=${encodeURIComponent(value)}${options.maxAge === 0 ? "; Max-Age=0" : ""}`)
  }
  jar.store(new Response(null, { headers }))
  request.set.length = 0
}

async function app(require: TwoFactorRequire) {
  const adapter = MemoryAdapter() as Adapted
  const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
  const signInEvent = vi.fn()
  const config: NextAuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy: "database" },
    providers: [Credentials({ credentials: { password: {} }, authorize: ({ password }) => (password === "correct horse" ? { id: uid, email: "ada@app.test" } : null), rateLimit: false })],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require },
    events: { signIn: signInEvent },
  }
  const { NextAuth } = await import("../../src/next/index.js")
  return { adapter, uid, signInEvent, next: NextAuth(config) }
}

describe("gatehouse-auth/next under two-factor sign-in", () => {
  it("signIn (the server action) leaves only the pending cookie for an enrolled user; auth() reads nothing until the code, then session.authentication at aal 2", async () => {
    const { adapter, uid, signInEvent, next } = await app("enrolled")
    const key = await enrol(adapter, uid)
    const jar = new CookieJar()

    request.headers = nextHeaders(jar)
    const to = await next.signIn("credentials", { password: "correct horse", redirectTo: "/dashboard", redirect: false })
    expect(to).toBe(`${ORIGIN}/api/auth/two-factor`)
    expect(signInCookies()).toEqual([PENDING])
    storeSet(jar)
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)
    expect(signInEvent).not.toHaveBeenCalled()
    request.headers = nextHeaders(jar)
    expect(await next.auth()).toBeNull()

    // The two-factor page posts to the route handler.
    const csrf = await next.handlers.GET(new Request(`${ORIGIN}/api/auth/csrf`, { headers: { cookie: jar.header() } }))
    jar.store(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const done = await next.handlers.POST(
      new Request(`${ORIGIN}/api/auth/two-factor`, {
        method: "POST",
        headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, code: totpNow(key) }),
      }),
    )
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    jar.store(done)
    expect(jar.get(SESSION)).toBeTruthy()
    expect(signInEvent).toHaveBeenCalledTimes(1)

    request.headers = nextHeaders(jar)
    const session = (await next.auth()) as { authentication: Authentication } | null
    expect(session?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    expect(Date.now() - Date.parse(session!.authentication.secondFactorAt!)).toBeLessThan(60_000)
  })

  it('signIn for a user who is not enrolled under require "always": only the pending cookie, auth() null', async () => {
    const { adapter, uid, signInEvent, next } = await app("always")
    const jar = new CookieJar()
    request.headers = nextHeaders(jar)
    expect(await next.signIn("credentials", { password: "correct horse", redirectTo: "/dashboard", redirect: false })).toBe(`${ORIGIN}/api/auth/two-factor`)
    expect(signInCookies()).toEqual([PENDING])
    storeSet(jar)
    request.headers = nextHeaders(jar)
    expect(await next.auth()).toBeNull()
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)
    expect(signInEvent).not.toHaveBeenCalled()
  })
})
