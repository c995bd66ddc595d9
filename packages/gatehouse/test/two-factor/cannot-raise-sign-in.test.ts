/**
 * More of what cannot finish or raise a sign-in (beside cannot-raise.test.ts, in a file of its own
 * so the two grow without colliding): a used TOTP step and the step before it, another user's
 * code for a pending sign-in, a trusted-browser cookie that no longer vouches (another user, the
 * factor disabled and enrolled anew, recovery codes regenerated), the browser's old session while
 * another user's second factor is due, and the pending cookie passed off as a session.
 * Codes are computed here with node:crypto, never with the library.
 */
import { describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { getToken } from "../../src/jwt/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { DASHBOARD, ORIGIN, PENDING, SESSION, enrol, totpAt, type Adapted } from "./bypass-matrix-helpers.js"

const ONE_FACTOR = { aal: 1, amr: ["pwd"], secondFactorAt: null }

async function authenticationOf(client: Client): Promise<unknown> {
  return ((await client.session()) as { authentication?: unknown } | null)?.authentication
}

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
    await adapter.replaceRecoveryCodes(ids.ada!, await recoveryCodeHashes(ids.ada!, ["NEWCD-ESXXX-NEWCD-ESXXX-NEWCD"]))
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
    // Ended, not only forgotten by this browser: ada's row is gone (a copied cookie reads nothing).
    if (strategy === "database") expect(await adapter.listSessionsByUserId(ids.ada!)).toHaveLength(0)

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
