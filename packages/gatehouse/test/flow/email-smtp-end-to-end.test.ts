/**
 * Magic-link sign-in with real delivery: the Nodemailer provider sends over SMTP to an in-process
 * SMTP server on 127.0.0.1, the received MIME message is parsed, and the browser follows the link
 * it carries. On SQLite and PostgreSQL, under JWT and database sessions; and with the SMTP server
 * refusing or gone, a clean page and no token left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, VerificationToken } from "../../src/adapters/index.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startSmtpServer, type CapturedMessage, type TestSmtpServer } from "../support/smtp-server.js"
import { authApp, csrfToken, expectLandedOn, sessionOf } from "./end-to-end-helpers.js"
import { recordingLogger, secret } from "./flow-helpers.js"
import { storedAdapters, type FlowAdapter } from "./stored-adapters.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`

let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp?.stop())

function setup(adapter: Adapter, server: string, extra: Partial<AuthConfig> = {}) {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter,
    providers: [Nodemailer({ server, from: "Gatehouse Test <auth@app.test>" })],
    theme: { brandColor: "#0a7d36" },
    ...extra,
  }
  return { browser: new Browser({ app: authApp(config), appOrigin: APP }), log }
}

async function requestLink(browser: Browser, email: string) {
  const token = await csrfToken(browser)
  return browser.post(`${APP}/auth/signin/nodemailer`, { email, csrfToken: token, callbackUrl: DASHBOARD })
}

/** The sign-in link in the HTML part, as a mail client shows it (entities decoded). */
function linkIn(message: CapturedMessage): string {
  const href = /<a href="([^"]+)"/.exec(message.html)?.[1]
  expect(href, "the HTML part has a link").toBeDefined()
  return href!.replaceAll("&amp;", "&")
}

const sqlStores = storedAdapters.filter((store) => store.name !== "memory")

describe.each(sqlStores)("magic link over SMTP ($name)", (store) => {
  let adapter: FlowAdapter
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ adapter, close } = await store.open())
  })
  afterAll(() => close?.())

  for (const strategy of ["jwt", "database"] as const) {
    it(`delivers the link and signs in from it (${strategy} sessions)`, async () => {
      const email = `smtp-${strategy}-${store.name.replace(/\W/g, "").toLowerCase()}@example.com`
      const { browser } = setup(adapter, smtp.smtpUrl, { session: { strategy } })
      expect((await requestLink(browser, email)).url).toBe(`${APP}/auth/verify-request?provider=nodemailer&type=email`)

      const message = await smtp.waitForMessage((candidate) => candidate.to.includes(email))
      expect(message.envelope.to).toEqual([email])
      expect(message.from).toBe("auth@app.test")
      expect(message.subject).toBe("Sign in to app.test")
      const link = linkIn(message)
      expect(link.startsWith(`${APP}/auth/callback/nodemailer?`)).toBe(true)
      expect(message.text).toContain(link)
      expect(message.html).toContain("#0a7d36")
      // The host is broken up so mail clients do not turn it into a link of their own.
      expect(message.html).toContain("app&#8203;.test")

      expectLandedOn(await browser.get(link), DASHBOARD)
      expect(await sessionOf(browser)).toMatchObject({ user: { email } })
      expect((await adapter.getUserByEmail!(email))?.emailVerified).toBeInstanceOf(Date)

      // The binding cookie went with the sign-in: the spent link asks first, then says so.
      const reused = await browser.submitForm(await browser.get(link))
      expect(reused.url).toBe(`${APP}/auth/error?error=Verification`)
      expect(reused.status).toBe(403)
    })
  }

  it("shows a clean page and keeps no token when the SMTP server refuses the recipient", async () => {
    const stored: VerificationToken[] = []
    const watching: Adapter = {
      ...adapter,
      createVerificationToken: async (token) => (stored.push(token), adapter.createVerificationToken!(token)),
    }
    const { browser, log } = setup(watching, smtp.smtpUrl)
    smtp.rejectNext("rcpt", 550, "No such user here")
    const visit = await requestLink(browser, "refused@example.com")
    expect(visit.url).toBe(`${APP}/auth/signin?error=EmailSignInError`)
    expect(visit.status).toBe(200)
    expect(visit.last.body).toContain("could not be sent")
    expect(visit.last.body).not.toMatch(/at .*\.(ts|js):\d+/)
    expect(stored).toHaveLength(1)
    expect(await adapter.useVerificationToken!({ identifier: "refused@example.com", token: stored[0]!.token })).toBeNull()
    expect(log.lines.some((line) => line.code === "EmailSignInError")).toBe(true)
  })
})

it("shows a clean page when no SMTP server listens, and keeps no token", async () => {
  const { MemoryAdapter } = await import("../../src/adapters/memory.js")
  const adapter = MemoryAdapter()
  const stored: VerificationToken[] = []
  const watching: Adapter = { ...adapter, createVerificationToken: async (token) => (stored.push(token), adapter.createVerificationToken(token)) }
  // A port that was free a moment ago: nothing answers there.
  const gone = await startSmtpServer()
  const url = gone.smtpUrl
  await gone.stop()
  const { browser } = setup(watching, url)
  const visit = await requestLink(browser, "nobody-listening@example.com")
  expect(visit.url).toBe(`${APP}/auth/signin?error=EmailSignInError`)
  expect(stored).toHaveLength(1)
  expect(await adapter.useVerificationToken({ identifier: "nobody-listening@example.com", token: stored[0]!.token })).toBeNull()
})
