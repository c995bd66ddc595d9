/**
 * The SMTP server failing under an email sign-in, through the Nodemailer provider over real SMTP:
 * refusing or dropping the connection, refusing the login, the recipient (for good or for now) or
 * the message, dropping the connection halfway through the message or after taking all of it.
 * Every time: the sign-in page with EmailSignInError, the failure logged (without the SMTP
 * password), no token left that a link could use, and the next request, once the server is well
 * again, sends a link that signs in.
 */
import { inspect } from "node:util"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { DASHBOARD, ORIGIN } from "./adapter-steps-support.js"
import { STORE_KINDS, type FaultStore } from "./faulty-adapter-support.js"
import { startFaultySmtpServer, type FaultySmtpServer, type SmtpFault } from "./smtp-faults-support.js"

const FAULTS: readonly SmtpFault[] = [
  "refuse-connection",
  "drop-at-connect",
  "refuse-login",
  "reject-recipient",
  "defer-recipient",
  "reject-message",
  "drop-during-message",
  "drop-after-message",
]
const SIGN_IN_ERROR = `${ORIGIN}/auth/signin?error=EmailSignInError`
const VERIFY_REQUEST = `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email`

let smtp: FaultySmtpServer
beforeAll(async () => {
  smtp = await startFaultySmtpServer()
})
afterAll(() => smtp?.stop())

let store: FaultStore | undefined
afterEach(() => {
  store?.close()
  smtp.fault = "none"
})

function setup() {
  store = STORE_KINDS.find((kind) => kind.name === "SQLite")!.open()
  const log = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter: store.real,
    providers: [Nodemailer({ server: smtp.url, from: "auth@app.test" })],
  }
  return { client: new Client(config, ORIGIN), log, store }
}

async function requestLink(client: Client, email: string): Promise<Response> {
  return client.postForm("signin/nodemailer", { csrfToken: await client.csrfToken(), email, callbackUrl: DASHBOARD })
}

/** The path under /auth/ of the sign-in link in the last message to `email`. */
function lastLinkTo(email: string): string {
  const message = smtp.messages.filter((candidate) => candidate.to.includes(email)).at(-1)
  const link = message && /https:\/\/app\.test\/auth\/(callback\/nodemailer\?\S+)/.exec(message.text)?.[1]
  if (!link) throw new Error(`no sign-in link to ${email}`)
  return link
}

describe.each(FAULTS)("an SMTP server that does %s", (fault) => {
  it("gets a clean EmailSignInError, leaves no usable token, logs no SMTP password, and the next link signs in", async () => {
    const { client, log, store } = setup()
    const email = `${fault}@example.com`
    smtp.fault = fault
    const failed = await requestLink(client, email)
    expect(failed.status).toBe(302)
    expect(failed.headers.get("location")).toBe(SIGN_IN_ERROR)
    expect((await store.snapshot()).verificationTokens).toEqual([])
    expect(log.lines.some((line) => line.code === "EmailSignInError")).toBe(true)
    const logged = inspect(log.lines, { depth: 12 })
    expect(logged).not.toContain(smtp.password)
    expect(logged).not.toContain(Buffer.from(`\u0000gatehouse\u0000${smtp.password}`).toString("base64"))

    if (fault === "drop-after-message") {
      // The server kept the message it never confirmed: its link arrives, and it does nothing.
      // The failed request bound no link to this browser, so the link asks first; confirming spends nothing.
      const link = new URL(`${ORIGIN}/auth/${lastLinkTo(email)}`)
      expect((await client.get(lastLinkTo(email))).status).toBe(200)
      const refused = await client.postForm("callback/nodemailer", { token: link.searchParams.get("token")!, email, csrfToken: await client.csrfToken() })
      expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    }

    smtp.fault = "none"
    expect((await requestLink(client, email)).headers.get("location")).toBe(VERIFY_REQUEST)
    expect((await client.get(lastLinkTo(email))).headers.get("location")).toBe(DASHBOARD)
    expect(((await client.session()) as { user: { email: string } }).user.email).toBe(email)
  })
})
