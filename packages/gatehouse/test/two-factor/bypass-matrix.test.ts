/**
 * The bypass matrix (issue 37), its first slice: credentials, an OAuth provider (the
 * GitHub-shaped server of test/support), an email link and an email code (`code: true`) × user
 * enrolled or not × `require` "enrolled", "always" or a function (answering true, false, or
 * throwing), under JWT and database sessions on the memory adapter; and a brand-new user (OAuth or
 * email sign-up) under "always". After the first factor no session exists (no cookie, no row, no
 * `signIn` event, no `jwt` callback, no session read); after the right TOTP code (computed here
 * with node:crypto, not with the library) exactly one, at aal 2. Five wrong codes void the pending
 * sign-in; a pending cookie replayed after success issues nothing.
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
import { ENROLMENT_FIRST, POLICIES, sets } from "./bypass-matrix-helpers.js"
import { codeFor, readEnrolPage } from "./enrol-support.js"

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

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "listSessionsByUserId" | "getUserByAccount" | "getUserByEmail" | "createUser">>

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
  /** The user's id; for a brand-new user, known once the first factor created them. */
  uid: string
  signInEvent: ReturnType<typeof vi.fn>
  challengeEvent: ReturnType<typeof vi.fn>
  jwtCallback: ReturnType<typeof vi.fn>
  /** Runs the first factor; returns its final response (the callback's). */
  firstFactor: () => Promise<Response>
}

type FirstFactorKind = "credentials" | "github" | "email" | "email-code"
const KINDS = ["credentials", "github", "email", "email-code"] as const

/**
 * The app for one cell. `newUser`: the person is not stored before the first factor (an OAuth or
 * email sign-up), and `uid` is filled in once the first factor has created them.
 */
async function setup(kind: FirstFactorKind, strategy: SessionStrategy, require: TwoFactorRequire, { newUser = false } = {}): Promise<Setup> {
  const adapter = MemoryAdapter() as Adapted
  const signInEvent = vi.fn()
  const challengeEvent = vi.fn()
  const jwtCallback = vi.fn(({ token }: JWTCallbackParams) => token)
  let uid = ""
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
  } else if (kind === "email" || kind === "email-code") {
    if (!newUser) uid = (await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: new Date() } as AdapterUser)).id
    const sent: VerificationRequestParams[] = []
    const code = kind === "email-code"
    base.providers = [{ id: "email", name: "Email", type: "email", ...(code && { code: true }), sendVerificationRequest: (params) => void sent.push(params) } as EmailConfig]
    firstFactor = async (client) => {
      await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email: "ada@app.test", callbackUrl: DASHBOARD })
      const params = sent.at(-1)!
      if (code) {
        // The code typed on the page of the browser that asked (bound to it, as links are).
        expect(params.code).toMatch(/^\d{6}$/)
        return client.postForm("callback/email", { csrfToken: await client.csrfToken(), email: "ada@app.test", code: params.code! }, { "sec-fetch-site": "same-origin" })
      }
      const link = new URL(params.url)
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
    if (!newUser) {
      // The user and the linked account exist before the sign-ins under test: one sign-in without twoFactor.
      const plain = new Client({ ...base })
      expect((await firstFactor(plain)).headers.get("location")).toBe(DASHBOARD)
      uid = (await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" }))!.id
    }
  }
  if (newUser) {
    expect(kind).not.toBe("credentials")
    expect(await adapter.getUserByEmail("ada@app.test")).toBeNull()
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" })).toBeNull()
  }
  const config: AuthConfig = {
    ...base,
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require },
    events: { signIn: signInEvent, twoFactorChallenge: challengeEvent },
    callbacks: { jwt: jwtCallback },
  }
  const client = new Client(config)
  const s: Setup = {
    client,
    adapter,
    uid,
    signInEvent,
    challengeEvent,
    jwtCallback,
    firstFactor: async () => {
      const response = await firstFactor(client)
      if (newUser) {
        const created = kind === "github" ? await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" }) : await adapter.getUserByEmail("ada@app.test")
        s.uid = created?.id ?? "no-such-user"
      }
      return response
    },
  }
  return s
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
  describe.each(KINDS)("first factor %s", (kind) => {
    const firstAmr = kind === "credentials" ? "pwd" : kind === "github" ? "fed" : "otp"
    const secondAmr = [...new Set([firstAmr, "otp"]), "mfa"]

    describe.each(POLICIES)("an enrolled user, require %s", (_name, policy) => {
      it("gets no session after the first factor, and exactly one at aal 2 after the right TOTP code", async () => {
        const s = await setup(kind, strategy, policy())
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
        const s = await setup(kind, strategy, policy())
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
        const s = await setup(kind, strategy, policy())
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

    describe.each(POLICIES)("a user who is not enrolled, require %s", (_name, policy, notEnrolled) => {
      if (notEnrolled === "aal 1") {
        it("is signed in at once, at aal 1", async () => {
          const s = await setup(kind, strategy, policy())
          const first = await s.firstFactor()
          expect(first.headers.get("location")).toBe(DASHBOARD)
          expect(s.client.jar.get(PENDING)).toBeUndefined()
          expect(s.signInEvent).toHaveBeenCalledTimes(1)
          const session = (await s.client.session()) as { authentication: unknown }
          expect(session.authentication).toEqual({ aal: 1, amr: [firstAmr], secondFactorAt: null })
        })
      } else {
        it("gets no session: the enrolment page comes first, and no code finishes anything", async () => {
          const s = await setup(kind, strategy, policy())
          const rowsBefore = (await sessionsOf(s.adapter, s.uid)).length
          const first = await s.firstFactor()
          expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
          expect(sets(first, SESSION)).toBe(false)
          expect(s.client.jar.get(PENDING)).toBeTruthy()
          await expectNoSession(s, rowsBefore)
          expect(await (await s.client.get("two-factor")).text()).toContain('id="totp-secret"')
          // Any code at all: there is no factor to check it against.
          await postCode(s.client, "123456")
          await expectNoSession(s, rowsBefore)
        })
      }
    })

    it("a require function is given the stored user, once", async () => {
      const seen: AdapterUser[] = []
      const s = await setup(kind, strategy, (user) => (seen.push(user), true))
      expect((await s.firstFactor()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({ id: s.uid, ...(kind !== "github" && { email: "ada@app.test" }) })
    })

    it("a require function that throws refuses the sign-in (fail closed): no session, no pending sign-in", async () => {
      const s = await setup(kind, strategy, () => {
        throw new Error("directory down")
      })
      const rowsBefore = (await sessionsOf(s.adapter, s.uid)).length
      const refused = await s.firstFactor()
      expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
      expect(sets(refused, SESSION)).toBe(false)
      await expectNoSession(s, rowsBefore)
      expect(s.client.jar.get(PENDING)).toBeUndefined()
    })
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: a brand-new user (sign-up)", (strategy) => {
  describe.each(["github", "email", "email-code"] as const)("by %s", (kind) => {
    it.each(ENROLMENT_FIRST)(
      "under require %s: stored, but no session; enrolment first, then one session at aal 2",
      async (_name, policy) => {
        const s = await setup(kind, strategy, policy(), { newUser: true })
        const first = await s.firstFactor()
        expect(first.status).toBe(302)
        expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
        expect(sets(first, SESSION)).toBe(false)
        expect(s.client.jar.get(PENDING)).toBeTruthy()
        expect(s.uid).not.toBe("no-such-user")
        await expectNoSession(s, 0)

        const page = readEnrolPage(await (await s.client.get("two-factor")).text())
        expect(page.action).toBe(`${ORIGIN}/auth/two-factor/totp/confirm`)
        await expectNoSession(s, 0)
        const done = await s.client.postForm("two-factor/totp/confirm", { csrfToken: page.csrfToken, ref: page.ref, code: codeFor(page.secret) })
        expect(done.status).toBe(200)
        expect(s.client.jar.get(SESSION)).toBeTruthy()
        expect(s.signInEvent.mock.calls).toEqual([[expect.objectContaining({ user: expect.objectContaining({ id: s.uid }), isNewUser: true })]])
        if (strategy === "database") expect(await sessionsOf(s.adapter, s.uid)).toHaveLength(1)
        const session = (await s.client.session()) as { authentication: { aal: number } }
        expect(session.authentication).toMatchObject({ aal: 2 })
      },
    )
  })
})
