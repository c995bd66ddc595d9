/**
 * The bypass matrix (issue 37) through the ways a framework signs in: a server action through the
 * kernel (`gatehouse-auth/framework`'s `runServerAction`, as the Next, SvelteKit, Solid and
 * TanStack integrations call it), `getSession`, a real Express app with `ServerAuth` on loopback,
 * and raw `Auth` (framework authors, `raw` in the config). Under every `require` policy of the
 * matrix (POLICIES), an enrolled user gets no session until the right TOTP code, then one at aal 2;
 * a user who is not enrolled gets one at once at aal 1 where the policy asks nothing, else none at all.
 *
 * The integrations' own sign-in functions over the same kernel: Next's `signIn` server action in
 * test/next/next-two-factor.test.ts, SvelteKit's `signIn` form action in test/sveltekit/kit-auth.test.ts.
 */
import express from "express"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import { getSession as expressSession, ServerAuth } from "../../src/express/index.js"
import { getSession, runServerAction } from "../../src/framework/index.js"
import { raw } from "../../src/markers.js"
import type { AuthConfig, TwoFactorRequire } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { closeServers, HttpClient, isolateAuthEnv, listen, reportErrors } from "../express/express-apps.js"
import { AT_ONCE, DASHBOARD, ENROLMENT_FIRST, ORIGIN, PENDING, POLICIES, SESSION, TWO_FACTOR_PAGE, enrol, totpNow, type Adapted, type Authentication } from "./bypass-matrix-helpers.js"

isolateAuthEnv()
afterEach(closeServers)

const STRATEGIES = ["jwt", "database"] as const

async function app(strategy: "jwt" | "database", require: TwoFactorRequire = "enrolled") {
  const adapter = MemoryAdapter() as Adapted
  const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
  const signInEvent = vi.fn()
  const jwtCallback = vi.fn(({ token }: { token: Record<string, unknown> }) => token)
  const config: AuthConfig & { basePath: string } = {
    secret,
    trustHost: true,
    basePath: "/auth",
    logger: recordingLogger().logger,
    adapter,
    session: { strategy },
    providers: [
      {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        credentials: {},
        authorize: ({ password }) => (password === "correct horse" ? { id: uid, email: "ada@app.test" } : null),
        rateLimit: false,
      },
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require },
    events: { signIn: signInEvent },
    callbacks: { jwt: jwtCallback },
  }
  const nothingIssued = async () => {
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)
    expect(signInEvent).not.toHaveBeenCalled()
    expect(jwtCallback).not.toHaveBeenCalled()
  }
  const oneIssued = async () => {
    expect(signInEvent).toHaveBeenCalledTimes(1)
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(strategy === "database" ? 1 : 0)
  }
  return { adapter, uid, config, nothingIssued, oneIssued }
}

const setsCookie = (lines: string[], name: string) => lines.some((line) => line.startsWith(`${name}=`) && !line.startsWith(`${name}=;`))

describe.each(STRATEGIES)("%s sessions: a server action through the kernel (runServerAction, getSession)", (strategy) => {
  async function signInAction(client: Client, config: AuthConfig & { basePath: string }) {
    const result = await runServerAction(config, {
      action: "callback",
      providerId: "credentials",
      origin: ORIGIN,
      headers: new Headers({ cookie: client.jar.header() }),
      fields: { password: "correct horse", callbackUrl: DASHBOARD },
      originChecked: true,
    })
    const headers = new Headers()
    for (const line of result.setCookies) headers.append("set-cookie", line)
    client.jar.store(new Response(null, { headers }))
    return result
  }
  const sessionOf = async (client: Client, config: AuthConfig) => (await getSession(new Request(`${ORIGIN}/dashboard`, { headers: { cookie: client.jar.header() } }), config)).session

  it.each(POLICIES)("require %s, an enrolled user: the action redirects to the two-factor page with a pending cookie only; the code then gives aal 2", async (_name, policy) => {
    const s = await app(strategy, policy())
    const key = await enrol(s.adapter, s.uid)
    const client = new Client(s.config)
    const result = await signInAction(client, s.config)
    expect(result).toMatchObject({ status: 302, redirect: TWO_FACTOR_PAGE })
    expect(setsCookie(result.setCookies, SESSION)).toBe(false)
    expect(setsCookie(result.setCookies, PENDING)).toBe(true)
    expect(await sessionOf(client, s.config)).toBeNull()
    await s.nothingIssued()

    const done = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpNow(key) })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    await s.oneIssued()
    const session = (await sessionOf(client, s.config)) as { authentication: Authentication } | null
    expect(session?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
  })

  it.each(AT_ONCE)("require %s, a user who is not enrolled: the action signs in at once, at aal 1", async (_name, policy) => {
    const s = await app(strategy, policy())
    const client = new Client(s.config)
    const result = await signInAction(client, s.config)
    expect(result).toMatchObject({ status: 302, redirect: DASHBOARD })
    expect(setsCookie(result.setCookies, SESSION)).toBe(true)
    expect(setsCookie(result.setCookies, PENDING)).toBe(false)
    await s.oneIssued()
    const session = (await sessionOf(client, s.config)) as { authentication: Authentication } | null
    expect(session?.authentication).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
  })

  it.each(ENROLMENT_FIRST)("require %s, a user who is not enrolled: no session", async (_name, policy) => {
    const s = await app(strategy, policy())
    const client = new Client(s.config)
    const result = await signInAction(client, s.config)
    expect(result.redirect).toBe(TWO_FACTOR_PAGE)
    expect(setsCookie(result.setCookies, SESSION)).toBe(false)
    expect(await sessionOf(client, s.config)).toBeNull()
    await s.nothingIssued()
  })
})

describe.each(STRATEGIES)("%s sessions: raw Auth (framework authors)", (strategy) => {
  it("answers the credentials callback with a redirect to the two-factor page and the pending cookie, no session cookie; the code then gives aal 2", async () => {
    const s = await app(strategy)
    const key = await enrol(s.adapter, s.uid)
    const client = new Client(s.config)
    const csrfToken = await client.csrfToken()
    const answer = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { cookie: client.jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, password: "correct horse", callbackUrl: DASHBOARD }),
      }),
      { ...s.config, raw },
    )
    expect(answer.redirect).toBe(TWO_FACTOR_PAGE)
    const set = (answer.cookies ?? []).filter((cookie) => cookie.value !== "").map((cookie) => cookie.name)
    expect(set.some((name) => name.startsWith(SESSION))).toBe(false)
    expect(set).toContain(PENDING)
    await s.nothingIssued()

    for (const cookie of answer.cookies ?? []) {
      if (cookie.value === "") client.jar.cookies.delete(cookie.name)
      else client.jar.cookies.set(cookie.name, encodeURIComponent(cookie.value))
    }
    const done = await Auth(
      new Request(`${ORIGIN}/auth/two-factor`, {
        method: "POST",
        headers: { cookie: client.jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, code: totpNow(key) }),
      }),
      { ...s.config, raw },
    )
    expect(done.redirect).toBe(DASHBOARD)
    expect((done.cookies ?? []).some((cookie) => cookie.name === SESSION && cookie.value !== "")).toBe(true)
    await s.oneIssued()
  })
})

describe.each(STRATEGIES)("%s sessions: Express ServerAuth on loopback", (strategy) => {
  const EXPRESS_SESSION = "authjs.session-token"
  const EXPRESS_PENDING = "authjs.two-factor"

  async function started(config: AuthConfig) {
    const server = express()
    server.use("/auth", ServerAuth(config))
    server.get("/api/me", async (req, res, next) => {
      try {
        res.json(await expressSession(req, config, res))
      } catch (error) {
        next(error)
      }
    })
    server.use(reportErrors)
    const { origin } = await listen(server)
    return { client: new HttpClient(origin), origin }
  }

  it.each(POLICIES)("require %s, an enrolled user: no session until the right code, then aal 2 in getSession", async (_name, policy) => {
    const s = await app(strategy, policy())
    const key = await enrol(s.adapter, s.uid)
    const { basePath: _ignored, ...config } = s.config
    const { client, origin } = await started(config)
    const first = await client.signIn({ password: "correct horse", callbackUrl: `${origin}/dashboard` })
    expect(first.status).toBe(302)
    expect(first.headers.get("location")).toBe(`${origin}/auth/two-factor`)
    expect(client.cookie(EXPRESS_SESSION)).toBeUndefined()
    expect(client.cookie(EXPRESS_PENDING)).toBeTruthy()
    expect(await (await client.get("/api/me")).json()).toBeNull()
    await s.nothingIssued()

    const done = await client.postForm("/auth/two-factor", { csrfToken: await client.csrfToken(), code: totpNow(key) })
    expect(done.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(client.cookie(EXPRESS_SESSION)).toBeTruthy()
    await s.oneIssued()
    const session = (await (await client.get("/api/me")).json()) as { authentication: Authentication }
    expect(session.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
  })

  it.each(AT_ONCE)("require %s, a user who is not enrolled: signed in at once, at aal 1 in getSession", async (_name, policy) => {
    const s = await app(strategy, policy())
    const { basePath: _ignored, ...config } = s.config
    const { client, origin } = await started(config)
    const first = await client.signIn({ password: "correct horse", callbackUrl: `${origin}/dashboard` })
    expect(first.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(client.cookie(EXPRESS_SESSION)).toBeTruthy()
    expect(client.cookie(EXPRESS_PENDING)).toBeUndefined()
    await s.oneIssued()
    const session = (await (await client.get("/api/me")).json()) as { authentication: Authentication }
    expect(session.authentication).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
  })

  it.each(ENROLMENT_FIRST)("require %s, a user who is not enrolled: no session", async (_name, policy) => {
    const s = await app(strategy, policy())
    const { basePath: _ignored, ...config } = s.config
    const { client, origin } = await started(config)
    const first = await client.signIn({ password: "correct horse" })
    expect(first.headers.get("location")).toBe(`${origin}/auth/two-factor`)
    expect(client.cookie(EXPRESS_SESSION)).toBeUndefined()
    expect(await (await client.get("/api/me")).json()).toBeNull()
    await s.nothingIssued()
  })
})
