/**
 * How a session was authenticated (`session.authentication`: aal, amr, secondFactorAt) is set by
 * the library alone: no `jwt` or `session` callback, no session update, no stale or foreign
 * pending cookie raises it; and a configuration without `twoFactor` sees nothing of it (Auth.js's
 * wire format unchanged).
 */
import { randomBytes } from "node:crypto"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { decode } from "../../src/jwt/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { totpAt } from "../support/totp-reference.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const PENDING = "__Secure-authjs.two-factor"
const TRUST = "__Secure-authjs.two-factor-trust"
const DASHBOARD = `${ORIGIN}/dashboard`
const RAISED = { aal: 2 as const, amr: ["pwd", "otp", "mfa"], secondFactorAt: Math.floor(Date.now() / 1000) }
const ONE_FACTOR = { aal: 1, amr: ["pwd"], secondFactorAt: null }

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "listSessionsByUserId" | "getUserByAccount">>

afterEach(() => {
  vi.useRealTimers()
})

async function app(strategy: SessionStrategy, extra: Partial<AuthConfig> = {}, twoFactor = true) {
  const adapter = MemoryAdapter() as Adapted
  const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada", email: "ada@app.test" } : null),
        rateLimit: false,
      }),
    ],
    ...(twoFactor && { twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled" as const } }),
    ...extra,
  }
  const client = new Client(config)
  const signIn = () => client.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
  return { adapter, uid, config, client, signIn }
}

const RECOVERY_CODE = "7QJXM-2KD9W-TRH4N-PC8ZV-3QEMA"

async function enrol(adapter: Adapted, uid: string): Promise<Uint8Array> {
  const key = new Uint8Array(randomBytes(20))
  const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
  await adapter.setTotpPendingSecret(uid, sealed)
  await adapter.enableTotp(uid, { sealed, step: Math.floor(Date.now() / 30_000) - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, [RECOVERY_CODE]) })
  return key
}

async function tokenOf(client: Client): Promise<Record<string, unknown>> {
  return (await decode({ token: client.jar.get(SESSION)!, secret, salt: SESSION }))!
}

async function authenticationOf(client: Client): Promise<unknown> {
  return ((await client.session()) as { authentication?: unknown } | null)?.authentication
}

describe("JWT sessions: the jwt callback and session updates cannot raise aal", () => {
  it("ignores aal, amr and secondFactorAt from the jwt callback, at sign-in and on every read", async () => {
    const { client, signIn } = await app("jwt", { callbacks: { jwt: ({ token }) => ({ ...token, ...RAISED }) } })
    expect((await signIn()).headers.get("location")).toBe(DASHBOARD)
    expect(await tokenOf(client)).toMatchObject({ aal: 1, amr: ["pwd"] })
    expect(await tokenOf(client)).not.toHaveProperty("secondFactorAt")
    expect(await authenticationOf(client)).toEqual(ONE_FACTOR)
  })

  it("ignores them in a session update the jwt callback spreads into the token", async () => {
    const { client, signIn } = await app("jwt", {
      callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) },
    })
    await signIn()
    const updated = await client.postJson("session", { csrfToken: await client.csrfToken(), data: RAISED })
    expect(updated.status).toBe(200)
    expect(((await updated.json()) as { authentication: unknown }).authentication).toEqual(ONE_FACTOR)
    expect(await tokenOf(client)).toMatchObject({ aal: 1, amr: ["pwd"] })
    expect(await authenticationOf(client)).toEqual(ONE_FACTOR)
  })

  it("ignores them when the session callback changes the live token (Object.assign(token, newSession) on update); the app's own claims are kept", async () => {
    const { client, signIn } = await app("jwt", {
      callbacks: {
        session: ({ session, token, trigger, newSession }) => {
          if (trigger === "update") Object.assign(token, newSession)
          ;(token.amr as string[] | undefined)?.push("mfa")
          return session
        },
      },
    })
    await signIn()
    const updated = await client.postJson("session", { csrfToken: await client.csrfToken(), data: { ...RAISED, sessionVersion: 7, role: "admin" } })
    expect(updated.status).toBe(200)
    expect(((await updated.json()) as { authentication: unknown }).authentication).toEqual(ONE_FACTOR)
    const token = await tokenOf(client)
    expect(token).toMatchObject({ aal: 1, amr: ["pwd"], role: "admin" })
    expect(token).not.toHaveProperty("secondFactorAt")
    expect(token).not.toHaveProperty("sessionVersion")
    expect(await authenticationOf(client)).toEqual(ONE_FACTOR)
  })

  it("drops them when the session callback moves the live token to another user (sub)", async () => {
    const { client, signIn, adapter, uid } = await app("jwt", {
      callbacks: {
        session: ({ session, token, trigger, newSession }) => {
          if (trigger === "update") Object.assign(token, newSession)
          return session
        },
      },
    })
    const key = await enrol(adapter, uid)
    await signIn()
    await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    expect(await authenticationOf(client)).toMatchObject({ aal: 2 })
    await client.postJson("session", { csrfToken: await client.csrfToken(), data: { sub: "someone-else" } })
    expect(await authenticationOf(client)).toEqual({ aal: 1, amr: [], secondFactorAt: null })
  })

  it("drops them when the jwt callback moves the session to another user", async () => {
    const { client, signIn, adapter, uid } = await app("jwt", {
      callbacks: { jwt: ({ token, trigger }) => (trigger === "update" ? { ...token, sub: "someone-else" } : token) },
    })
    const key = await enrol(adapter, uid)
    await signIn()
    await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    expect(await authenticationOf(client)).toMatchObject({ aal: 2 })
    await client.postJson("session", { csrfToken: await client.csrfToken(), data: {} })
    expect(await authenticationOf(client)).toEqual({ aal: 1, amr: [], secondFactorAt: null })
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: the session callback", (strategy) => {
  it("cannot set session.authentication: it is set after the callback", async () => {
    const { client, signIn } = await app(strategy, {
      callbacks: { session: ({ session }) => ({ ...session, authentication: { ...RAISED, secondFactorAt: new Date().toISOString() } }) },
    })
    await signIn()
    expect(await authenticationOf(client)).toEqual(ONE_FACTOR)
  })

  it("without twoFactor, gets and gives no authentication (the Auth.js wire format)", async () => {
    const seen: unknown[] = []
    const { client, signIn } = await app(strategy, { callbacks: { session: ({ session }) => (seen.push({ ...session }), session) } }, false)
    await signIn()
    const session = (await client.session()) as Record<string, unknown>
    expect(session.user).toMatchObject({ email: "ada@app.test" })
    expect(session).not.toHaveProperty("authentication")
    expect(seen).toHaveLength(1)
    expect(seen[0]).not.toHaveProperty("authentication")
    if (strategy === "jwt") for (const claim of ["aal", "amr", "secondFactorAt"]) expect(await tokenOf(client)).not.toHaveProperty(claim)
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: pending cookies that finish nothing", (strategy) => {
  it("an expired pending sign-in (past 5 minutes) issues nothing, even with the right code", async () => {
    const { client, signIn, adapter, uid } = await app(strategy)
    const key = await enrol(adapter, uid)
    await signIn()
    const pending = client.jar.get(PENDING)!
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 301_000)
    client.jar.cookies.set(PENDING, pending)
    const late = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
    expect(client.jar.get(SESSION)).toBeUndefined()
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)
  })

  it("a pending cookie made under another secret issues nothing", async () => {
    const other = await app(strategy, { secret: "another-secret-another-secret-another-secret" })
    const key = await enrol(other.adapter, other.uid)
    await other.signIn()
    const { client, adapter, uid } = await app(strategy)
    client.jar.cookies.set(PENDING, other.client.jar.get(PENDING)!)
    const refused = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
    expect(client.jar.get(SESSION)).toBeUndefined()
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)
    expect(await other.adapter.listSessionsByUserId(other.uid)).toHaveLength(0)
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: codes that finish a sign-in once only", (strategy) => {
  it("a recovery code finishes one sign-in at aal 2; the same code on the next sign-in is refused", async () => {
    const { client, signIn, adapter, uid } = await app(strategy)
    await enrol(adapter, uid)
    await signIn()
    const done = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: RECOVERY_CODE.toLowerCase(), method: "recovery" })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    expect(await authenticationOf(client)).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })

    const again = new Client(client.config)
    await again.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    const refused = await again.postForm("two-factor", { csrfToken: await again.csrfToken(), code: RECOVERY_CODE, method: "recovery" })
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=InvalidTwoFactorCode`)
    expect(again.jar.get(SESSION)).toBeUndefined()
  })

  it("the right TOTP code submitted twice at once issues one session", async () => {
    const { client, signIn, adapter, uid } = await app(strategy)
    const key = await enrol(adapter, uid)
    await signIn()
    const csrfToken = await client.csrfToken()
    const code = totpAt(key, Math.floor(Date.now() / 30_000))
    const answers = await Promise.all([client.postForm("two-factor", { csrfToken, code }), client.postForm("two-factor", { csrfToken, code })])
    const locations = answers.map((answer) => answer.headers.get("location")).sort()
    expect(locations.filter((location) => location === DASHBOARD)).toHaveLength(1)
    const sessionCookies = answers.filter((answer) => answer.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=`) && !line.startsWith(`${SESSION}=;`)))
    expect(sessionCookies).toHaveLength(1)
    if (strategy === "database") expect(await adapter.listSessionsByUserId(uid)).toHaveLength(1)
  })
})

describe("JWT sessions: an access-token refresh writes the token again without raising or re-dating", () => {
  let github: GitHubLikeServer
  beforeAll(async () => {
    github = await startGitHubLikeServer({ redirectUris: [`${ORIGIN}/auth/callback/github`], refreshTokens: true, accessTokenTtl: 30 })
  })
  afterAll(() => github?.stop())

  async function signInWithGitHub(client: Client): Promise<Response> {
    const started = await client.postForm("signin/github", { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
    const approved = await fetch(new URL(started.headers.get("location")!), { redirect: "manual" })
    return client.get(`callback/github${new URL(approved.headers.get("location")!).search}`)
  }

  it("keeps aal 1 at aal 1, and an aal 2 session's secondFactorAt as it was, across refreshes", async () => {
    const adapter = MemoryAdapter() as Adapted
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy: "jwt" },
      providers: [githubLikeProvider(github, { refreshAccessToken: true })],
      twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled" },
    }
    const first = new Client(config)
    expect((await signInWithGitHub(first)).headers.get("location")).toBe(DASHBOARD)
    const issued = (await tokenOf(first)).access_token
    expect(await authenticationOf(first)).toEqual({ aal: 1, amr: ["fed"], secondFactorAt: null })
    // The 30-second access token is due at once: that read refreshed it.
    expect((await tokenOf(first)).access_token).not.toBe(issued)
    expect(await tokenOf(first)).toMatchObject({ aal: 1, amr: ["fed"] })
    expect(await tokenOf(first)).not.toHaveProperty("secondFactorAt")

    const uid = (await adapter.getUserByAccount!({ provider: "github", providerAccountId: String(github.user.id) }))!.id
    const key = await enrol(adapter, uid)
    const second = new Client(config)
    await signInWithGitHub(second)
    await second.postForm("two-factor", { csrfToken: await second.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    const before = (await tokenOf(second)) as { access_token: string; secondFactorAt: number }
    expect(before).toMatchObject({ aal: 2, amr: ["fed", "otp", "mfa"] })
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 120_000)
    expect(await authenticationOf(second)).toMatchObject({ aal: 2, secondFactorAt: new Date(before.secondFactorAt * 1000).toISOString() })
    const after = await tokenOf(second)
    expect(after.access_token).not.toBe(before.access_token)
    expect(after).toMatchObject({ aal: 2, amr: ["fed", "otp", "mfa"], secondFactorAt: before.secondFactorAt })
  })
})

describe("JWT sessions: ending the other sessions writes this one again without raising or re-dating", () => {
  it("keeps an aal 1 session at aal 1, and an aal 2 session's secondFactorAt", async () => {
    const { client, signIn, adapter, uid } = await app("jwt", { account: { routes: true } })
    await signIn()
    const revoke = async (on: Client) => on.postForm("sessions", { csrfToken: await on.csrfToken(), revokeOthers: "true" })
    expect((await revoke(client)).status).toBe(200)
    expect(await tokenOf(client)).toMatchObject({ aal: 1, amr: ["pwd"] })
    expect(await tokenOf(client)).not.toHaveProperty("secondFactorAt")
    expect(await authenticationOf(client)).toEqual(ONE_FACTOR)

    const key = await enrol(adapter, uid)
    const raised = new Client(client.config)
    await raised.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    await raised.postForm("two-factor", { csrfToken: await raised.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    const before = (await tokenOf(raised)).secondFactorAt
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 60_000)
    expect((await revoke(raised)).status).toBe(200)
    expect(await tokenOf(raised)).toMatchObject({ aal: 2, secondFactorAt: before })
  })
})

describe("database sessions: extending a session changes only its expiry", () => {
  it("keeps an aal 1 row at aal 1, and an aal 2 row's secondFactorAt, when a read extends it", async () => {
    const { client, signIn, adapter, uid } = await app("database")
    await signIn()
    const key = await enrol(adapter, uid)
    const raised = new Client(client.config)
    await raised.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    await raised.postForm("two-factor", { csrfToken: await raised.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    const before = (await authenticationOf(raised)) as { secondFactorAt: string }
    const expiries = async () => (await adapter.listSessionsByUserId(uid)).map((row) => new Date(row.expires).getTime()).sort()
    const expiresBefore = await expiries()

    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 25 * 60 * 60 * 1000)
    expect(await authenticationOf(client)).toEqual(ONE_FACTOR)
    expect(await authenticationOf(raised)).toEqual(before)
    const expiresAfter = await expiries()
    expect(expiresAfter.every((expires, index) => expires > expiresBefore[index]!)).toBe(true)
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: the account routes and a trusted browser", (strategy) => {
  it("the account routes raise nothing, and a trusted browser's new session keeps the old check time: stale for the account routes, no step-up", async () => {
    const { client, signIn, adapter, uid } = await app(strategy, {
      account: { routes: true },
      twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled", trustDevice: { maxAge: 30 * 24 * 60 * 60 } },
    })
    await signIn()
    expect((await client.postForm("sessions", { csrfToken: await client.csrfToken(), revokeOthers: "true" })).status).toBe(200)
    expect(await authenticationOf(client)).toEqual(ONE_FACTOR)

    const key = await enrol(adapter, uid)
    await signIn()
    await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)), trustDevice: "on" })
    // The trust cookie dates its check to the second.
    const checkedAt = Math.floor(Date.parse(((await authenticationOf(client)) as { secondFactorAt: string }).secondFactorAt) / 1000)
    const trustedAt = new Date(checkedAt * 1000).toISOString()
    expect(client.jar.get(TRUST)).toBeDefined()

    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 601_000)
    expect((await signIn()).headers.get("location")).toBe(DASHBOARD)
    expect(await authenticationOf(client)).toMatchObject({ aal: 2, secondFactorAt: trustedAt })
    const refused = await client.postForm("sessions", { csrfToken: await client.csrfToken(), revokeOthers: "true" })
    expect(refused.status).toBe(403)
    // The trust cookie is no code: a step-up without one raises nothing.
    const noCode = await client.postForm("two-factor", { csrfToken: await client.csrfToken() })
    expect(noCode.headers.get("location")).toMatch(/\/auth\/two-factor\?error=InvalidTwoFactorCode$/)
    expect(await authenticationOf(client)).toMatchObject({ aal: 2, secondFactorAt: trustedAt })
    expect((await client.postForm("sessions", { csrfToken: await client.csrfToken(), revokeOthers: "true" })).status).toBe(403)
  })
})
