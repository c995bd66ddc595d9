/**
 * How a session was authenticated (`session.authentication`: aal, amr, secondFactorAt) is set by
 * the library alone: no `jwt` or `session` callback, no session update, no stale or foreign
 * pending cookie raises it; and a configuration without `twoFactor` sees nothing of it (Auth.js's
 * wire format unchanged).
 */
import { createHmac, randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { decode } from "../../src/jwt/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const PENDING = "__Secure-authjs.two-factor"
const DASHBOARD = `${ORIGIN}/dashboard`
const RAISED = { aal: 2 as const, amr: ["pwd", "otp", "mfa"], secondFactorAt: Math.floor(Date.now() / 1000) }
const ONE_FACTOR = { aal: 1, amr: ["pwd"], secondFactorAt: null }

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "listSessionsByUserId">>

afterEach(() => {
  vi.useRealTimers()
})

function totpAt(key: Uint8Array, step: number): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac("sha1", key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0xf
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}

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

const RECOVERY_CODE = "7QJX-M2KD-9WTR"

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
