/**
 * The email code as a second factor (issue 37), delivered for real: the Nodemailer provider sends
 * over SMTP to the in-process server of test/support, and the code is read from the message. A
 * user without an enrolled factor under `require: "always"` with a verified address gets the
 * first code as the pending sign-in starts; `method=email` checks it, resends it (throttled),
 * and refuses a code of another pending sign-in, a sixth try, an expired one, and any sending to an
 * unverified address.
 */
import { randomBytes } from "node:crypto"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { startSmtpServer, type CapturedMessage, type TestSmtpServer } from "../support/smtp-server.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const PENDING = "__Secure-authjs.two-factor"
const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`
const DASHBOARD = `${ORIGIN}/dashboard`

let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp?.stop())
afterEach(() => {
  vi.useRealTimers()
})

type Adapted = Adapter & Required<Pick<Adapter, "createUser" | "listSessionsByUserId" | "setTotpPendingSecret" | "enableTotp">>

let counter = 0

interface Setup {
  config: AuthConfig
  client: Client
  adapter: Adapted
  uid: string
  address: string
  signIn: (client?: Client) => Promise<Response>
  challenge: ReturnType<typeof vi.fn>
}

/** A user with a password and (unless `verified: false`) a verified address, `require: "always"`, email codes on. */
async function setup(options: { verified?: boolean; emailLimits?: boolean } = {}): Promise<Setup> {
  const adapter = MemoryAdapter() as Adapted
  const address = `user${++counter}-${randomBytes(3).toString("hex")}@app.test`
  const stored = await adapter.createUser({ id: "", name: "Ada", email: address, emailVerified: options.verified === false ? null : new Date() } as AdapterUser)
  const uid = stored.id
  const challenge = vi.fn()
  const config: AuthConfig = {
    events: { twoFactorChallenge: challenge },
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada", email: address } : null),
        rateLimit: false,
      }),
      Nodemailer({ server: smtp.smtpUrl, from: "Gatehouse Test <auth@app.test>", ...(!options.emailLimits && { rateLimit: false }) }),
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, email: true, require: "always", notify: false },
  }
  const client = new Client(config)
  const signIn = (who: Client = client) => who.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
  return { config, client, adapter, uid, address, signIn, challenge }
}

function messagesTo(address: string): CapturedMessage[] {
  return smtp.messages.filter((message) => message.to.includes(address))
}

/** The code of the `index`-th message to `address` (waiting for it when it is still on its way). */
async function codeOf(address: string, index = 0): Promise<string> {
  const deadline = Date.now() + 5000
  while (messagesTo(address).length <= index && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
  const message = messagesTo(address)[index]
  expect(message, `message ${index} to ${address}`).toBeDefined()
  const code = /^(\d{6,8})$/m.exec(message!.text)?.[1]
  expect(code).toMatch(/^\d{6}$/)
  expect(message!.html).toContain(code)
  return code!
}

async function postEmail(client: Client, fields: Record<string, string>): Promise<Response> {
  return client.postForm("two-factor", { csrfToken: await client.csrfToken(), method: "email", ...fields })
}

/** A six-digit code that is not `right`. */
function other(right: string): string {
  return String((Number(right) + 1) % 1_000_000).padStart(6, "0")
}

describe("the email code as the second factor", () => {
  it("is sent as the pending sign-in starts and finishes it at aal 2, with no session before", async () => {
    const s = await setup()
    const first = await s.signIn()
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(s.client.jar.get(SESSION)).toBeUndefined()
    expect(await s.adapter.listSessionsByUserId(s.uid)).toHaveLength(0)
    const code = await codeOf(s.address)
    expect(messagesTo(s.address)[0]!.subject).toBe("Your sign-in code for app.test")

    const done = await postEmail(s.client, { code })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    expect(s.client.jar.get(SESSION)).toBeTruthy()
    expect(s.client.jar.get(PENDING)).toBeUndefined()
    const session = (await s.client.session()) as { authentication: { aal: number; amr: string[] } }
    expect(session.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    expect(s.challenge.mock.calls).toEqual([[{ user: expect.objectContaining({ id: s.uid }), method: "email", success: true }]])
  })

  it("voids the code after five wrong tries: the right one then signs nobody in", async () => {
    const s = await setup()
    await s.signIn()
    const code = await codeOf(s.address)
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await postEmail(s.client, { code: other(code) })
      expect(wrong.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
    }
    const pendingCookie = s.client.jar.get(PENDING)!
    const fifth = await postEmail(s.client, { code: other(code) })
    expect(fifth.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorFailed`)
    // The cookie of before the fifth try still holds the code's hash: put back, the code is still refused.
    s.client.jar.cookies.set(PENDING, pendingCookie)
    const late = await postEmail(s.client, { code })
    expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorFailed`)
    expect(s.client.jar.get(SESSION)).toBeUndefined()
    expect(await s.adapter.listSessionsByUserId(s.uid)).toHaveLength(0)
  })

  it("refuses the code once expired", async () => {
    const s = await setup()
    vi.useFakeTimers({ toFake: ["Date"] })
    await s.signIn()
    const code = await codeOf(s.address)
    vi.setSystemTime(Date.now() + 10 * 60 * 1000 + 1000)
    const late = await postEmail(s.client, { code })
    expect(late.headers.get("location")).toMatch(/\?error=TwoFactorExpired$/)
    expect(s.client.jar.get(SESSION)).toBeUndefined()
  })

  it("is bound to its pending sign-in: the code sent for another one is refused", async () => {
    const s = await setup()
    const other = new Client(s.config)
    await s.signIn()
    const mine = await codeOf(s.address, 0)
    await s.signIn(other)
    const theirs = await codeOf(s.address, 1)
    expect(theirs).not.toBe(mine)

    const crossed = await postEmail(s.client, { code: theirs })
    expect(crossed.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
    expect(s.client.jar.get(SESSION)).toBeUndefined()
    expect((await postEmail(other, { code: theirs })).headers.get("location")).toBe(DASHBOARD)
  })

  it("throttles resending: not within 30 s, at most five codes per sign-in, and a new code replaces the old", async () => {
    const s = await setup()
    vi.useFakeTimers({ toFake: ["Date"] })
    await s.signIn()
    const firstCode = await codeOf(s.address, 0)

    const tooSoon = await postEmail(s.client, { action: "send" })
    expect(tooSoon.status).toBe(429)
    expect(messagesTo(s.address)).toHaveLength(1)

    for (let sent = 2; sent <= 5; sent++) {
      vi.setSystemTime(Date.now() + 31_000)
      const again = sent === 2
        ? await s.client.postJson("two-factor", { csrfToken: await s.client.csrfToken(), method: "email", action: "send" })
        : await postEmail(s.client, { action: "send" })
      if (sent === 2) expect(await again.json()).toEqual({ sent: true })
      else expect(again.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?sent=email`)
      await codeOf(s.address, sent - 1)
    }
    vi.setSystemTime(Date.now() + 31_000)
    expect((await postEmail(s.client, { action: "send" })).status).toBe(429)
    expect(messagesTo(s.address)).toHaveLength(5)

    const latest = await codeOf(s.address, 4)
    if (latest !== firstCode) {
      const stale = await postEmail(s.client, { code: firstCode })
      expect(stale.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
    }
    expect((await postEmail(s.client, { code: latest })).headers.get("location")).toBe(DASHBOARD)
  })

  it("keeps to the provider's limit on emails to the address across pending sign-ins", async () => {
    const s = await setup({ emailLimits: true })
    // The default: 5 emails to one address per 15 minutes. Each sign-in starts a pending one and sends a code.
    for (let signIn = 1; signIn <= 6; signIn++) {
      expect((await s.signIn(new Client(s.config))).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    }
    await codeOf(s.address, 4)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(messagesTo(s.address)).toHaveLength(5)
  })

  it("never sends a code to an unverified address", async () => {
    const s = await setup({ verified: false })
    // Enrolled in an authenticator app, so the sign-in is challenged; the address is not verified.
    const sealed = await sealTotpSecret({ secret: [secret] }, s.uid, new Uint8Array(randomBytes(20)))
    await s.adapter.setTotpPendingSecret(s.uid, sealed)
    expect(await s.adapter.enableTotp(s.uid, { sealed, step: 1, recoveryCodeHashes: [] })).toBe(true)
    expect((await s.signIn()).headers.get("location")).toBe(TWO_FACTOR_PAGE)

    const asked = await postEmail(s.client, { action: "send" })
    expect(asked.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
    const guessed = await postEmail(s.client, { code: "123456" })
    expect(guessed.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(messagesTo(s.address)).toHaveLength(0)
    expect(s.client.jar.get(SESSION)).toBeUndefined()
  })
})
