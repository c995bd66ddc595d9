/**
 * The security notice when a user's second factor changes (issue 37), through
 * `notifyFactorChange` (the enrolment and management routes call it): by default an email through
 * the first email provider's transport, delivered for real over SMTP to the in-process server of
 * test/support; the application's `notify` instead when set; nothing with `false`; a provider that
 * can only send sign-in emails is warned about once; a failing notice is logged and never thrown.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import { createRequestContext, type RequestContext } from "../../src/core/request-context.js"
import { notifyFactorChange } from "../../src/core/two-factor/notify.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import { Resend } from "../../src/providers/resend.js"
import type { AuthConfig, TwoFactorNotice } from "../../src/types.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { startSmtpServer, type CapturedMessage, type TestSmtpServer } from "../support/smtp-server.js"

let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp?.stop())

function user(): AdapterUser {
  return { id: randomBytes(4).toString("hex"), email: `notice-${randomBytes(4).toString("hex")}@app.test`, emailVerified: new Date() }
}

async function context(config: Partial<AuthConfig>): Promise<RequestContext> {
  const full: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [], ...config }
  const request = new Request("https://app.test/auth/signin")
  return createRequestContext(resolveConfig(full), await toInternalRequest(request, "/auth"))
}

function messagesTo(address: string): CapturedMessage[] {
  return smtp.messages.filter((message) => message.to.includes(address))
}

const SENTENCES: Record<TwoFactorNotice["change"], string> = {
  enabled: "Two-step verification was turned on for your account.",
  disabled: "Two-step verification was turned off for your account.",
  "recovery-codes-regenerated": "The recovery codes of your account were replaced; the old ones no longer work.",
}

describe("notifyFactorChange", () => {
  it.each(["enabled", "disabled", "recovery-codes-regenerated"] as const)("emails the user a notice when the factor is %s, through the email provider", async (change) => {
    const ctx = await context({ providers: [Nodemailer({ server: smtp.smtpUrl, from: "Gatehouse Test <auth@app.test>" })], twoFactor: { totp: { issuer: "Tests" } } })
    const who = user()
    await notifyFactorChange(ctx, who, change)
    const message = await smtp.waitForMessage((candidate) => candidate.to.includes(who.email))
    expect(message.subject).toBe("Security notice for app.test")
    expect(message.from).toBe("auth@app.test")
    expect(message.text).toContain(SENTENCES[change])
    expect(message.text).toContain("If this wasn't you")
    expect(message.html).not.toContain("<a ")
  })

  it("sends nothing to an address the user never proved (a passkey sign-up's typed address)", async () => {
    const ctx = await context({ providers: [Nodemailer({ server: smtp.smtpUrl, from: "auth@app.test" })], twoFactor: { totp: { issuer: "Tests" } } })
    const unproven = { ...user(), emailVerified: null }
    await notifyFactorChange(ctx, unproven, "enabled")
    // A notice sent after it, to a proven address, has arrived: the first would have been before it.
    const proven = user()
    await notifyFactorChange(ctx, proven, "enabled")
    await smtp.waitForMessage((candidate) => candidate.to.includes(proven.email))
    expect(messagesTo(unproven.email)).toHaveLength(0)
  })

  it("calls the application's notify instead, and sends nothing with notify: false", async () => {
    const notify = vi.fn()
    const provider = Nodemailer({ server: smtp.smtpUrl, from: "auth@app.test" })
    const who = user()
    await notifyFactorChange(await context({ providers: [provider], twoFactor: { totp: { issuer: "Tests" }, notify } }), who, "disabled")
    expect(notify.mock.calls).toEqual([[{ user: who, change: "disabled" }]])
    await notifyFactorChange(await context({ providers: [provider], twoFactor: { totp: { issuer: "Tests" }, notify: false } }), who, "enabled")
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(messagesTo(who.email)).toHaveLength(0)
  })

  it("logs a notice that fails as a fault and does not throw", async () => {
    const { logger, lines } = recordingLogger()
    const who = user()
    smtp.rejectNext("rcpt")
    const ctx = await context({ logger, providers: [Nodemailer({ server: smtp.smtpUrl, from: "auth@app.test" })], twoFactor: { totp: { issuer: "Tests" } } })
    await expect(notifyFactorChange(ctx, who, "disabled")).resolves.toBeUndefined()
    expect(lines.some((line) => line.level === "error")).toBe(true)

    const throwing = await context({ logger, twoFactor: { totp: { issuer: "Tests" }, notify: () => Promise.reject(new Error("mailer down")) } })
    const errorsBefore = lines.filter((line) => line.level === "error").length
    await expect(notifyFactorChange(throwing, who, "enabled")).resolves.toBeUndefined()
    expect(lines.filter((line) => line.level === "error").length).toBe(errorsBefore + 1)
  })

  it("warns once that a provider which can only send sign-in emails sends no notice", async () => {
    const { logger, lines } = recordingLogger()
    const fetch = vi.fn(() => Promise.resolve(new Response("{}")))
    const ctx = await context({ logger, providers: [Resend({ from: "auth@app.test", apiKey: "re_test", fetch })], twoFactor: { totp: { issuer: "Tests" } } })
    await notifyFactorChange(ctx, user(), "enabled")
    await notifyFactorChange(ctx, user(), "disabled")
    expect(fetch).not.toHaveBeenCalled()
    expect(lines.filter((line) => line.level === "warn" && line.code === "two-factor-notice-unsendable")).toHaveLength(1)
  })
})
