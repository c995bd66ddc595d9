/**
 * The mailbox counts once (issue 37, review round B): after an email link or an email code as the
 * first factor, a code to the same mailbox is not a second factor. It is not offered, not sent
 * and not accepted; a user who must have a second factor enrols an authenticator app instead,
 * and with authenticator apps off the sign-in is refused with `TwoFactorUnavailable` (not sent to
 * an enrolment that cannot be done). The same refusal ends the email-only configuration for a
 * user whose address is not verified. JWT and database sessions on the memory adapter; the
 * email provider records what it would send.
 */
import { describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { EmailConfig, VerificationRequestParams } from "../../src/providers/types.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { DASHBOARD, ORIGIN, PENDING, SESSION, TWO_FACTOR_PAGE, enrol, totpNow, type Adapted, type Authentication } from "./bypass-matrix-helpers.js"

const STRATEGIES = ["jwt", "database"] as const
const ADDRESS = "ada@app.test"

interface Options {
  /** The provider signs in with a code instead of a link. */
  code?: boolean
  require?: "enrolled" | "always"
  totp?: boolean
  verified?: boolean
}

async function setup(strategy: SessionStrategy, options: Options = {}) {
  const adapter = MemoryAdapter() as Adapted
  const sent: VerificationRequestParams[] = []
  const email = {
    id: "email",
    name: "Email",
    type: "email",
    ...(options.code && { code: true }),
    sendVerificationRequest: (params) => void sent.push(params),
  } as EmailConfig
  const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: ADDRESS, emailVerified: options.verified === false ? null : new Date() } as AdapterUser)
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy },
    providers: [
      email,
      Credentials({ credentials: { password: {} }, authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada", email: ADDRESS } : null), rateLimit: false }),
    ],
    twoFactor: { ...(options.totp !== false && { totp: { issuer: "Gatehouse tests" } }), email: true, require: options.require ?? "enrolled", notify: false },
  }
  const client = new Client(config, ORIGIN)
  /** The email first factor (link or code), its last answer. */
  const signInByEmail = async (): Promise<Response> => {
    await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email: ADDRESS, callbackUrl: DASHBOARD })
    const params = sent.at(-1)!
    if (!options.code) return client.get(`callback/email${new URL(params.url).search}`)
    return client.postForm("callback/email", { csrfToken: await client.csrfToken(), email: ADDRESS, code: params.code! }, { "sec-fetch-site": "same-origin" })
  }
  const signInByPassword = () => client.signIn({ password: "correct horse", callbackUrl: DASHBOARD })
  return { adapter, sent, uid, client, signInByEmail, signInByPassword }
}

describe.each(STRATEGIES)("%s sessions: after an email sign-in the mailbox is not the second factor", (strategy) => {
  describe.each([
    ["an email link", false],
    ["an email code", true],
  ] as const)("first factor %s", (_name, code) => {
    it("an enrolled user is not offered, sent or accepted the email code; the authenticator finishes at aal 2", async () => {
      const s = await setup(strategy, { code })
      const key = await enrol(s.adapter, s.uid)
      const first = await s.signInByEmail()
      expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
      const emailsBefore = s.sent.length

      const page = await (await s.client.get("two-factor")).text()
      expect(page).not.toContain('value="email"')

      // "Email me a code": refused, nothing sent, no session.
      const send = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), method: "email", action: "send" })
      expect(send.headers.get("location")).toContain("error=InvalidTwoFactorCode")
      expect(s.sent).toHaveLength(emailsBefore)
      // A guessed code under method=email is refused as a method, not checked.
      const guess = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), method: "email", code: "123456" })
      expect(guess.headers.get("location")).toContain("error=InvalidTwoFactorCode")
      expect(s.client.jar.get(SESSION)).toBeUndefined()
      expect(await s.client.session()).toBeNull()

      const done = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), code: totpNow(key) })
      expect(done.headers.get("location")).toBe(DASHBOARD)
      expect(((await s.client.session()) as { authentication: Authentication }).authentication).toMatchObject({ aal: 2, amr: ["otp", "mfa"] })
    })

    it('under "always" a user without a factor enrols an authenticator: no email code is sent or offered', async () => {
      const s = await setup(strategy, { code, require: "always" })
      const first = await s.signInByEmail()
      expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
      // Only the first factor's email went out: no second-factor code to the same mailbox.
      expect(s.sent).toHaveLength(1)
      const page = await (await s.client.get("two-factor")).text()
      expect(page).toContain("otpauth://")
      const send = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), method: "email", action: "send" })
      expect(send.headers.get("location") ?? "").not.toContain("sent=email")
      expect(s.sent).toHaveLength(1)
      expect(await s.client.session()).toBeNull()
    })

    it('under "always" with authenticator apps off: refused at once with TwoFactorUnavailable, no pending sign-in', async () => {
      const s = await setup(strategy, { code, require: "always", totp: false })
      const first = await s.signInByEmail()
      expect(first.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorUnavailable`)
      expect(s.client.jar.get(PENDING)).toBeUndefined()
      expect(s.sent).toHaveLength(1)
      expect(await s.client.session()).toBeNull()
      expect(await s.adapter.listSessionsByUserId(s.uid)).toHaveLength(0)
    })
  })

  it("a password sign-in still gets the email code as its second factor (the mailbox is a second factor there)", async () => {
    const s = await setup(strategy, { require: "always", totp: false })
    expect((await s.signInByPassword()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(s.sent).toHaveLength(1)
    const done = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), method: "email", code: s.sent[0]!.code! })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    expect(((await s.client.session()) as { authentication: Authentication }).authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
  })

  it('email codes only, "always", an unverified address: refused with TwoFactorUnavailable rather than an enrolment that cannot be done', async () => {
    const s = await setup(strategy, { require: "always", totp: false, verified: false })
    const first = await s.signInByPassword()
    expect(first.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorUnavailable`)
    expect(s.client.jar.get(PENDING)).toBeUndefined()
    expect(s.sent).toHaveLength(0)
    expect(await s.client.session()).toBeNull()
    const page = await (await s.client.get("signin?error=TwoFactorUnavailable")).text()
    expect(page).toContain("this account has no second way to sign in")
  })
})
