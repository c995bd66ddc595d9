/**
 * The bypass matrix (issue 37), its first slice: credentials, an OAuth provider (the
 * GitHub-shaped server of test/support) and an email link × user enrolled or not × `require` "enrolled" or "always",
 * under JWT and database sessions on the memory adapter. After the first factor no session exists
 * (no cookie, no row, no `signIn` event, no `jwt` callback, no session read); after the right TOTP
 * code (computed here with node:crypto, not with the library) exactly one, at aal 2. Five wrong
 * codes void the pending sign-in; a pending cookie replayed after success issues nothing.
 * The other ways in are in bypass-matrix-providers.test.ts (OIDC, email confirmation POST, passkeys,
 * linking, the redirect proxy), bypass-matrix-stores.test.ts (SQLite, PostgreSQL) and
 * bypass-matrix-integrations.test.ts (runServerAction, raw Auth, Express).
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { EmailConfig, VerificationRequestParams } from "../../src/providers/types.js"
import type { AuthConfig, JWTCallbackParams, SessionStrategy, TwoFactorRequire } from "../../src/types.js"
import { startGitHubLikeServer, githubLikeProvider, type GitHubLikeServer } from "../support/github-like-server.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { currentStep, totpAt } from "../support/totp-reference.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const PENDING = "__Secure-authjs.two-factor"
const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`
const DASHBOARD = `${ORIGIN}/dashboard`
const RECOVERY_CODE = "ABCDE-FGHJK-MNPQR-STVWX-YZ012"

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: [`${ORIGIN}/auth/callback/github`] })
})
afterAll(() => github?.stop())

/** A wrong code: none of the three steps the server accepts. */
function wrongCode(key: Uint8Array): string {
  const right = new Set([-1, 0, 1].map((delta) => totpAt(key, currentStep() + delta)))
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0")
    if (!right.has(candidate)) return candidate
  }
}

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "listSessionsByUserId" | "getUserByAccount" | "createUser">>

/** Enrols `uid` in TOTP (as a confirmed enrolment would leave it) with one recovery code; returns the key. */
async function enrol(adapter: Adapted, uid: string): Promise<Uint8Array> {
  const key = new Uint8Array(randomBytes(20))
  const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
  await adapter.setTotpPendingSecret(uid, sealed)
  const enabled = await adapter.enableTotp(uid, { sealed, step: currentStep() - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, [RECOVERY_CODE]) })
  expect(enabled).toBe(true)
  return key
}

interface Setup {
  client: Client
  adapter: Adapted
  uid: string
  signInEvent: ReturnType<typeof vi.fn>
  challengeEvent: ReturnType<typeof vi.fn>
  jwtCallback: ReturnType<typeof vi.fn>
  /** Runs the first factor; returns its final response (the callback's). */
  firstFactor: () => Promise<Response>
}

type FirstFactorKind = "credentials" | "github" | "email"

async function setup(kind: FirstFactorKind, strategy: SessionStrategy, require: TwoFactorRequire, enrolled: boolean): Promise<Setup> {
  const adapter = MemoryAdapter() as Adapted
  const signInEvent = vi.fn()
  const challengeEvent = vi.fn()
  const jwtCallback = vi.fn(({ token }: JWTCallbackParams) => token)
  let uid: string
  let firstFactor: (client: Client) => Promise<Response>
  const base: AuthConfig = { secret, trustHost: true, logger: recordingLogger().logger, adapter, session: { strategy }, providers: [] }
  if (kind === "credentials") {
    const stored = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
    uid = stored.id
    const provider = Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) => (username === "ada" && password === "correct horse" ? { id: uid, name: "Ada", email: "ada@app.test" } : null),
      rateLimit: false,
    })
    firstFactor = (client) => client.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    base.providers = [provider]
  } else if (kind === "email") {
    const stored = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: new Date() } as AdapterUser)
    uid = stored.id
    const sent: VerificationRequestParams[] = []
    base.providers = [{ id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params) } as EmailConfig]
    firstFactor = async (client) => {
      await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email: "ada@app.test", callbackUrl: DASHBOARD })
      const link = new URL(sent.at(-1)!.url)
      expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/email`)
      // The browser that asked opens the link: bound, it signs in on the GET.
      return client.get(`callback/email${link.search}`)
    }
  } else {
    base.providers = [githubLikeProvider(github)]
    firstFactor = async (client) => {
      const started = await client.postForm("signin/github", { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
      const approved = await fetch(new URL(started.headers.get("location")!), { redirect: "manual" })
      const back = new URL(approved.headers.get("location")!)
      return client.get(`callback/github${back.search}`)
    }
    // The user and the linked account exist before the sign-ins under test: one sign-in without twoFactor.
    const plain = new Client({ ...base })
    expect((await firstFactor(plain)).headers.get("location")).toBe(DASHBOARD)
    uid = (await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" }))!.id
  }
  const config: AuthConfig = {
    ...base,
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require },
    events: { signIn: signInEvent, twoFactorChallenge: challengeEvent },
    callbacks: { jwt: jwtCallback },
  }
  const client = new Client(config)
  return { client, adapter, uid, signInEvent, challengeEvent, jwtCallback, firstFactor: () => firstFactor(client) }
}

async function sessionsOf(adapter: Adapted, uid: string) {
  return adapter.listSessionsByUserId(uid)
}

async function postCode(client: Client, code: string, method = "totp"): Promise<Response> {
  return client.postForm("two-factor", { csrfToken: await client.csrfToken(), code, method })
}

/** Nothing of a session: no cookie, no row (database), no session read, no event, no jwt callback. */
async function expectNoSession(s: Setup, rowsBefore: number): Promise<void> {
  expect(s.client.jar.get(SESSION)).toBeUndefined()
  expect(await sessionsOf(s.adapter, s.uid)).toHaveLength(rowsBefore)
  expect(await s.client.session()).toBeNull()
  expect(s.signInEvent).not.toHaveBeenCalled()
  expect(s.jwtCallback).not.toHaveBeenCalled()
}

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  describe.each(["credentials", "github", "email"] as const)("first factor %s", (kind) => {
    const firstAmr = kind === "credentials" ? "pwd" : kind === "email" ? "otp" : "fed"
    const secondAmr = [...new Set([firstAmr, "otp"]), "mfa"]

    describe.each(["enrolled", "always"] as const)('an enrolled user, require "%s"', (require) => {
      it("gets no session after the first factor, and exactly one at aal 2 after the right TOTP code", async () => {
        const s = await setup(kind, strategy, require, true)
        const key = await enrol(s.adapter, s.uid)
        const rowsBefore = (await sessionsOf(s.adapter, s.uid)).length

        const first = await s.firstFactor()
        expect(first.status).toBe(302)
        expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
        expect(s.client.jar.get(PENDING)).toBeTruthy()
        expect(first.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=`) && !line.startsWith(`${SESSION}=;`))).toBe(false)
        await expectNoSession(s, rowsBefore)

        const page = await s.client.get("two-factor")
        expect(page.status).toBe(200)
        expect(await page.text()).toContain('autocomplete="one-time-code"')

        const done = await postCode(s.client, totpAt(key, currentStep()))
        expect(done.status).toBe(302)
        expect(done.headers.get("location")).toBe(DASHBOARD)
        expect(s.client.jar.get(SESSION)).toBeTruthy()
        expect(s.client.jar.get(PENDING)).toBeUndefined()
        expect(s.signInEvent).toHaveBeenCalledTimes(1)
        expect(s.challengeEvent.mock.calls).toEqual([[{ user: expect.objectContaining({ id: s.uid }), method: "totp", success: true }]])
        if (strategy === "database") expect(await sessionsOf(s.adapter, s.uid)).toHaveLength(rowsBefore + 1)
        if (strategy === "jwt") expect(s.jwtCallback.mock.calls.filter(([params]) => params.trigger === "signIn")).toHaveLength(1)
        const session = (await s.client.session()) as { authentication: { aal: number; amr: string[]; secondFactorAt: string | null } }
        expect(session.authentication).toMatchObject({ aal: 2, amr: secondAmr })
        expect(Date.now() - Date.parse(session.authentication.secondFactorAt!)).toBeLessThan(60_000)
      })

      it("voids the pending sign-in after five wrong codes: the right code then issues nothing", async () => {
        const s = await setup(kind, strategy, require, true)
        const key = await enrol(s.adapter, s.uid)
        const rowsBefore = (await sessionsOf(s.adapter, s.uid)).length
        await s.firstFactor()
        for (let attempt = 1; attempt <= 4; attempt++) {
          const wrong = await postCode(s.client, wrongCode(key))
          expect(wrong.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
        }
        const pendingCookie = s.client.jar.get(PENDING)!
        const fifth = await postCode(s.client, wrongCode(key))
        expect(fifth.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorFailed`)
        expect(s.client.jar.get(PENDING)).toBeUndefined()
        // Even the cookie put back, with the right code:
        s.client.jar.cookies.set(PENDING, pendingCookie)
        const late = await postCode(s.client, totpAt(key, currentStep()))
        expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorFailed`)
        await expectNoSession(s, rowsBefore)
        expect(s.challengeEvent.mock.calls.map(([message]) => message.success)).toEqual([false, false, false, false, false])
      })

      it("issues nothing for a pending cookie replayed after its sign-in finished, even with an unused recovery code", async () => {
        const s = await setup(kind, strategy, require, true)
        const key = await enrol(s.adapter, s.uid)
        await s.firstFactor()
        const pendingCookie = s.client.jar.get(PENDING)!
        expect((await postCode(s.client, totpAt(key, currentStep()))).headers.get("location")).toBe(DASHBOARD)
        const rowsAfter = (await sessionsOf(s.adapter, s.uid)).length

        const replayer = new Client(s.client.config)
        replayer.jar.cookies.set(PENDING, pendingCookie)
        const replayed = await postCode(replayer, RECOVERY_CODE, "recovery")
        expect(replayed.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
        expect(replayer.jar.get(SESSION)).toBeUndefined()
        expect(await sessionsOf(s.adapter, s.uid)).toHaveLength(rowsAfter)
        expect(s.signInEvent).toHaveBeenCalledTimes(1)
      })
    })

    it('signs a user who is not enrolled in at once under require "enrolled", at aal 1', async () => {
      const s = await setup(kind, strategy, "enrolled", false)
      const first = await s.firstFactor()
      expect(first.headers.get("location")).toBe(DASHBOARD)
      expect(s.client.jar.get(PENDING)).toBeUndefined()
      expect(s.signInEvent).toHaveBeenCalledTimes(1)
      const session = (await s.client.session()) as { authentication: unknown }
      expect(session.authentication).toEqual({ aal: 1, amr: [firstAmr], secondFactorAt: null })
    })

    it('gives a user who is not enrolled no session under require "always": enrolment comes first', async () => {
      const s = await setup(kind, strategy, "always", false)
      const rowsBefore = (await sessionsOf(s.adapter, s.uid)).length
      const first = await s.firstFactor()
      expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
      expect(s.client.jar.get(PENDING)).toBeTruthy()
      await expectNoSession(s, rowsBefore)
      // Any code at all: there is no factor to check it against.
      await postCode(s.client, "123456")
      await expectNoSession(s, rowsBefore)
    })
  })
})

describe.each(["jwt", "database"] as const)('%s sessions: require as a function of the stored user', (strategy) => {
  it("true: a user who is not enrolled gets no session (enrolment first); the function saw the stored user", async () => {
    const seen: AdapterUser[] = []
    const s = await setup("credentials", strategy, (user) => (seen.push(user), true), false)
    const rowsBefore = (await sessionsOf(s.adapter, s.uid)).length
    expect((await s.firstFactor()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    await expectNoSession(s, rowsBefore)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ id: s.uid, email: "ada@app.test", emailVerified: null })
  })

  it("false: a user who is not enrolled is signed in at aal 1", async () => {
    const s = await setup("credentials", strategy, () => false, false)
    expect((await s.firstFactor()).headers.get("location")).toBe(DASHBOARD)
    expect(((await s.client.session()) as { authentication: unknown }).authentication).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
  })

  it("throwing: the sign-in is refused (fail closed), no session", async () => {
    const s = await setup("credentials", strategy, () => {
      throw new Error("directory down")
    }, false)
    const rowsBefore = (await sessionsOf(s.adapter, s.uid)).length
    const refused = await s.firstFactor()
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    await expectNoSession(s, rowsBefore)
    expect(s.client.jar.get(PENDING)).toBeUndefined()
  })
})
