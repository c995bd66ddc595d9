/**
 * The bypass matrix (issue 37) on the SQL stores: SQLite (a file) and PostgreSQL (the run's real
 * server, a schema of this file's own), under database and JWT sessions. Credentials and the
 * email link as first factors × user enrolled or not × `require` "enrolled", "always" or a
 * function. After the first factor the store holds no new session row and nothing reads a
 * session; after the right TOTP code (computed here) one row, `authentication` stored beside it.
 * And the store spends codes: a used TOTP code or recovery code finishes no second sign-in; a
 * dangerous email link to an enrolled user is stored only once the second factor passed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import type { EmailConfig, VerificationRequestParams } from "../../src/providers/types.js"
import type { AuthConfig, JWTCallbackParams, TwoFactorRequire } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { DASHBOARD, PENDING, RECOVERY_CODE, SESSION, TWO_FACTOR_PAGE, enrol, sets, totpNow, type Adapted, type Authentication } from "./bypass-matrix-helpers.js"

const SQL_STORES = storedAdapters.filter((store) => store.name !== "memory")

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: ["https://app.test/auth/callback/github"], user: { email: "grace@app.test" } })
})
afterAll(() => github?.stop())

describe.each(SQL_STORES)("$name", (store) => {
  let opened: OpenStore
  beforeAll(async () => {
    opened = await store.open()
  }, 60_000)
  afterAll(() => opened?.close())

  async function app(strategy: "jwt" | "database", kind: "credentials" | "email", require: TwoFactorRequire) {
    const adapter = opened.adapter as unknown as Adapted
    const email = `${crypto.randomUUID()}@app.test`
    const user = await adapter.createUser({ id: crypto.randomUUID(), name: "Ada", email, emailVerified: new Date() } as AdapterUser)
    const signInEvent = vi.fn()
    const jwtCallback = vi.fn(({ token }: JWTCallbackParams) => token)
    const sent: VerificationRequestParams[] = []
    const providers: AuthConfig["providers"] =
      kind === "credentials"
        ? [{ id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: () => ({ id: user.id, email }), rateLimit: false }]
        : [{ id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params) } as EmailConfig]
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy },
      providers,
      twoFactor: { totp: { issuer: "Gatehouse tests" }, require },
      events: { signIn: signInEvent },
      callbacks: { jwt: jwtCallback },
    }
    const client = new Client(config)
    const firstFactor = async (): Promise<Response> => {
      if (kind === "credentials") return client.signIn({ callbackUrl: DASHBOARD })
      await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email, callbackUrl: DASHBOARD })
      return client.get(`callback/email${new URL(sent.at(-1)!.url).search}`)
    }
    const rows = async () => (await adapter.listSessionsByUserId(user.id)).length
    const expectNothing = async () => {
      expect(client.jar.get(SESSION)).toBeUndefined()
      expect(await rows()).toBe(0)
      expect(await client.session()).toBeNull()
      expect(signInEvent).not.toHaveBeenCalled()
      expect(jwtCallback).not.toHaveBeenCalled()
    }
    return { adapter, uid: user.id, client, firstFactor, rows, expectNothing, signInEvent }
  }

  it("dangerous email linking to an enrolled user: nothing linked before the code; the account and one row after it", async () => {
    const adapter = opened.adapter as unknown as Adapted
    const { id: uid } = await adapter.createUser({ id: crypto.randomUUID(), name: "Grace", email: "grace@app.test", emailVerified: new Date() } as AdapterUser)
    const key = await enrol(adapter, uid)
    const client = new Client({
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy: "database" },
      providers: [githubLikeProvider(github, { allowDangerousEmailAccountLinking: true })],
      twoFactor: { totp: { issuer: "Gatehouse tests" } },
    })
    const started = await client.postForm("signin/github", { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
    const approved = await fetch(new URL(started.headers.get("location")!), { redirect: "manual" })
    const first = await client.get(`callback/github${new URL(approved.headers.get("location")!).search}`)
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    const account = { provider: "github", providerAccountId: "1001" }
    expect(await adapter.getUserByAccount(account)).toBeNull()
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)

    expect((await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpNow(key) })).headers.get("location")).toBe(DASHBOARD)
    expect((await adapter.getUserByAccount(account))?.id).toBe(uid)
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(1)
  })

  it("spends codes in the store: a used TOTP code and a used recovery code finish no second sign-in", async () => {
    const s = await app("database", "credentials", "enrolled")
    const key = await enrol(s.adapter, s.uid)
    const code = totpNow(key)
    for (const [method, used] of [["totp", code], ["recovery", RECOVERY_CODE]] as const) {
      const first = new Client(s.client.config)
      await first.signIn({ callbackUrl: DASHBOARD })
      expect((await first.postForm("two-factor", { csrfToken: await first.csrfToken(), code: used, method })).headers.get("location")).toBe(DASHBOARD)
      const again = new Client(s.client.config)
      await again.signIn({ callbackUrl: DASHBOARD })
      const refused = await again.postForm("two-factor", { csrfToken: await again.csrfToken(), code: used, method })
      expect(refused.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
      expect(again.jar.get(SESSION)).toBeUndefined()
    }
    expect(await s.rows()).toBe(2)
  })

  describe.each(["database", "jwt"] as const)("%s sessions", (strategy) => {
    describe.each(["credentials", "email"] as const)("first factor %s", (kind) => {
      const firstAmr = kind === "credentials" ? "pwd" : "otp"

      it.each(["enrolled", "always", () => false] as TwoFactorRequire[])("an enrolled user under require %s: no session, then one at aal 2 after the right code", async (require) => {
        const s = await app(strategy, kind, require)
        const key = await enrol(s.adapter, s.uid)
        const first = await s.firstFactor()
        expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
        expect(sets(first, SESSION)).toBe(false)
        expect(s.client.jar.get(PENDING)).toBeTruthy()
        await s.expectNothing()

        const done = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), code: totpNow(key) })
        expect(done.headers.get("location")).toBe(DASHBOARD)
        expect(s.signInEvent).toHaveBeenCalledTimes(1)
        expect(await s.rows()).toBe(strategy === "database" ? 1 : 0)
        const { authentication } = (await s.client.session()) as { authentication: Authentication }
        expect(authentication).toMatchObject({ aal: 2, amr: [...new Set([firstAmr, "otp"]), "mfa"] })
        expect(Date.now() - Date.parse(authentication.secondFactorAt!)).toBeLessThan(60_000)
      })

      it.each(["always", () => true] as TwoFactorRequire[])("a user who is not enrolled under require %s: no session (enrolment first)", async (require) => {
        const s = await app(strategy, kind, require)
        const first = await s.firstFactor()
        expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
        expect(sets(first, SESSION)).toBe(false)
        await s.expectNothing()
      })

      it.each(["enrolled", () => false] as TwoFactorRequire[])("a user who is not enrolled under require %s: one session at once, at aal 1", async (require) => {
        const s = await app(strategy, kind, require)
        expect((await s.firstFactor()).headers.get("location")).toBe(DASHBOARD)
        expect(s.signInEvent).toHaveBeenCalledTimes(1)
        expect(await s.rows()).toBe(strategy === "database" ? 1 : 0)
        expect(((await s.client.session()) as { authentication: Authentication }).authentication).toEqual({ aal: 1, amr: [firstAmr], secondFactorAt: null })
      })
    })
  })
})
