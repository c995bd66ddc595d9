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
import { decode, getToken } from "../../src/jwt/index.js"
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

/** Two users, ada and bob, each signing in with their name as username, in one app. */
async function twoUsers(strategy: SessionStrategy, twoFactor: Partial<NonNullable<AuthConfig["twoFactor"]>> = {}) {
  const adapter = MemoryAdapter() as Adapted & Required<Pick<Adapter, "deleteTwoFactor" | "replaceRecoveryCodes">>
  const ids: Record<string, string> = {}
  for (const name of ["ada", "bob"]) ids[name] = (await adapter.createUser({ id: "", name, email: `${name}@app.test`, emailVerified: null } as AdapterUser)).id
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) => (typeof username === "string" && ids[username] ? { id: ids[username], email: `${username}@app.test` } : null),
        rateLimit: false,
      }),
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled", ...twoFactor },
  }
  const signIn = (client: Client, username: string) => client.signIn({ username, password: "any", callbackUrl: DASHBOARD })
  const postCode = async (client: Client, code: string, extra: Record<string, string> = {}) =>
    client.postForm("two-factor", { csrfToken: await client.csrfToken(), code, ...extra })
  return { adapter, ids, config, signIn, postCode }
}

const step = () => Math.floor(Date.now() / 30_000)

describe.each(["jwt", "database"] as const)("%s sessions: TOTP codes already used", (strategy) => {
  it("refuses a used code on the next sign-in, and the code of the step before it (its neighbour)", async () => {
    const { adapter, ids, config, signIn, postCode } = await twoUsers(strategy)
    const key = await enrol(adapter, ids.ada!)
    const first = new Client(config)
    await signIn(first, "ada")
    // The code of the next step is inside the ±1 window: accepted, and every step up to it is then used.
    const used = step() + 1
    expect((await postCode(first, totpAt(key, used))).headers.get("location")).toBe(DASHBOARD)

    const second = new Client(config)
    await signIn(second, "ada")
    for (const replayed of [totpAt(key, used), totpAt(key, used - 1)]) {
      const refused = await postCode(second, replayed)
      expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=InvalidTwoFactorCode`)
      expect(second.jar.get(SESSION)).toBeUndefined()
    }
    expect(await authenticationOf(second)).toBeUndefined()
    if (strategy === "database") expect(await adapter.listSessionsByUserId(ids.ada!)).toHaveLength(1)
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: a pending sign-in of another user", (strategy) => {
  it("is not finished by the code of the user whose factor it is not", async () => {
    const { adapter, ids, config, signIn, postCode } = await twoUsers(strategy)
    const adaKey = await enrol(adapter, ids.ada!)
    await enrol(adapter, ids.bob!)
    const bob = new Client(config)
    await signIn(bob, "bob")
    expect(bob.jar.get(PENDING)).toBeTruthy()
    const refused = await postCode(bob, totpAt(adaKey, step()))
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=InvalidTwoFactorCode`)
    expect(bob.jar.get(SESSION)).toBeUndefined()
    for (const uid of [ids.ada!, ids.bob!]) expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: a trusted-browser cookie that no longer vouches", (strategy) => {
  const TRUST = "__Secure-authjs.two-factor-trust"
  const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`

  /** Ada signs in with a code and ticks "don't ask again"; her session then ends, the trust cookie stays. */
  async function trusted() {
    const users = await twoUsers(strategy, { trustDevice: { maxAge: 30 * 24 * 60 * 60 } })
    const key = await enrol(users.adapter, users.ids.ada!)
    const browser = new Client(users.config)
    await users.signIn(browser, "ada")
    expect((await users.postCode(browser, totpAt(key, step()), { trustDevice: "on" })).headers.get("location")).toBe(DASHBOARD)
    expect(browser.jar.get(TRUST)).toBeTruthy()
    browser.jar.cookies.delete(SESSION)
    // The cookie vouches for ada as she stands now.
    expect((await users.signIn(browser, "ada")).headers.get("location")).toBe(DASHBOARD)
    expect(await authenticationOf(browser)).toMatchObject({ aal: 2 })
    browser.jar.cookies.delete(SESSION)
    return { ...users, browser, key }
  }

  it("does not vouch for another user signing in in the same browser", async () => {
    const { adapter, ids, browser, signIn } = await trusted()
    await enrol(adapter, ids.bob!)
    const bob = await signIn(browser, "bob")
    expect(bob.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(browser.jar.get(SESSION)).toBeUndefined()
    expect(await adapter.listSessionsByUserId(ids.bob!)).toHaveLength(0)
  })

  it("does not vouch once the factor was disabled: aal 1 without one, the challenge again after enrolling anew", async () => {
    const { adapter, ids, browser, signIn } = await trusted()
    expect(await adapter.deleteTwoFactor(ids.ada!)).toBe(true)
    expect((await signIn(browser, "ada")).headers.get("location")).toBe(DASHBOARD)
    expect(await authenticationOf(browser)).toEqual(ONE_FACTOR)
    browser.jar.cookies.delete(SESSION)

    await enrol(adapter, ids.ada!)
    expect((await signIn(browser, "ada")).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(browser.jar.get(SESSION)).toBeUndefined()
  })

  it("does not vouch once the recovery codes were regenerated", async () => {
    const { adapter, ids, browser, signIn } = await trusted()
    await adapter.replaceRecoveryCodes(ids.ada!, await recoveryCodeHashes(ids.ada!, ["NEWC-ODES-XXXX"]))
    expect((await signIn(browser, "ada")).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(browser.jar.get(SESSION)).toBeUndefined()
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: a session already in the browser", (strategy) => {
  it("is ended by another user's first factor: nothing reads as signed in while that user's second factor is due", async () => {
    const { adapter, ids, config, signIn, postCode } = await twoUsers(strategy)
    const bobKey = await enrol(adapter, ids.bob!)
    const browser = new Client(config)
    expect((await signIn(browser, "ada")).headers.get("location")).toBe(DASHBOARD)
    expect(await authenticationOf(browser)).toEqual(ONE_FACTOR)

    const bob = await signIn(browser, "bob")
    expect(bob.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    expect(bob.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=;`) || (line.startsWith(`${SESSION}=`) && /Max-Age=0/i.test(line)))).toBe(true)
    expect(browser.jar.get(SESSION)).toBeUndefined()
    expect(await browser.session()).toBeNull()
    expect(await adapter.listSessionsByUserId(ids.bob!)).toHaveLength(0)

    expect((await postCode(browser, totpAt(bobKey, step()))).headers.get("location")).toBe(DASHBOARD)
    expect(((await browser.session()) as { user: { email: string } }).user.email).toBe("bob@app.test")
    expect(await authenticationOf(browser)).toMatchObject({ aal: 2 })
  })

  it("is not made of the pending cookie: copied into the session cookie, or sent as a bearer token, it reads as no session", async () => {
    const { adapter, ids, config, signIn } = await twoUsers(strategy)
    await enrol(adapter, ids.ada!)
    const browser = new Client(config)
    await signIn(browser, "ada")
    const pending = browser.jar.get(PENDING)!
    const forged = new Client(config)
    forged.jar.cookies.set(SESSION, encodeURIComponent(pending))
    expect(await forged.session()).toBeNull()
    const bearer = new Request(`${ORIGIN}/api`, { headers: { authorization: `Bearer ${pending}` } })
    expect(await getToken({ req: bearer, secret, secureCookie: true })).toBeNull()
    if (strategy === "jwt") {
      // Where a real session token does read (bob has no factor): the refusal above is the salt's.
      const bob = new Client(config)
      await signIn(bob, "bob")
      const real = new Request(`${ORIGIN}/api`, { headers: { authorization: `Bearer ${bob.jar.get(SESSION)}` } })
      expect(await getToken({ req: real, secret, secureCookie: true })).toMatchObject({ sub: ids.bob })
    }
    expect(await adapter.listSessionsByUserId(ids.ada!)).toHaveLength(0)
  })
})
