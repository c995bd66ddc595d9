import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import nodemailer from "nodemailer"
import Email from "../../src/providers/email.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { emailMessage } from "../../src/providers/email-message.js"
import { InvalidConfig } from "../../src/errors.js"
import { providerWithEnv } from "../../src/env.js"
import type { EmailConfig, Provider } from "../../src/types.js"
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.js"
import { verificationRequest } from "./helpers.js"

const url = "https://app.test/auth/callback/nodemailer?callbackUrl=https%3A%2F%2Fapp.test%2F&token=tok&email=ada%40example.test"

const params = (provider: EmailConfig, identifier?: string) => verificationRequest(provider, url, { theme: { brandColor: "#0a0b0c", buttonText: "#eee" }, identifier })

async function send(provider: EmailConfig, identifier?: string): Promise<void> {
  await provider.sendVerificationRequest(params(provider, identifier))
}

let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp.stop())
afterEach(() => {
  vi.restoreAllMocks()
})

describe("Nodemailer", () => {
  it("has Auth.js's defaults: id nodemailer, from Auth.js <no-reply@authjs.dev>, a day-long link", () => {
    const provider = Nodemailer({ server: "smtp://localhost:25" })
    expect(provider).toMatchObject({
      id: "nodemailer",
      name: "Nodemailer",
      type: "email",
      from: "Auth.js <no-reply@authjs.dev>",
      maxAge: 86400,
      server: "smtp://localhost:25",
    })
    expect(Nodemailer({ id: "mail", from: "a@b.test", maxAge: 60 })).toMatchObject({ id: "mail", from: "a@b.test", maxAge: 60 })
  })

  it("sends the sign-in email through the SMTP server", async () => {
    await send(Nodemailer({ server: smtp.smtpUrl }), "first@example.test")
    const message = await smtp.waitForMessage((m) => m.to.includes("first@example.test"))
    const expected = emailMessage({ url, host: "app.test", theme: { brandColor: "#0a0b0c", buttonText: "#eee" } })
    expect(message.envelope).toEqual({ from: "no-reply@authjs.dev", to: ["first@example.test"] })
    expect(message.from).toBe("no-reply@authjs.dev")
    expect(message.fromName).toBe("Auth.js")
    expect(message.subject).toBe("Sign in to app.test")
    expect(message.text.replace(/\r\n/g, "\n").trimEnd()).toBe(expected.text.trimEnd())
    expect(message.html.replace(/\r\n/g, "\n")).toBe(expected.html)
    expect(message.html).toContain('bgcolor="#0a0b0c"')
    expect(message.html).toContain("app&#8203;.test")
  })

  it("accepts transport options and a custom from, read from the provider at send time", async () => {
    const provider = Nodemailer({ server: { host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true }, from: "Acme <auth@acme.test>" })
    await send({ ...provider, from: "Acme Login <login@acme.test>" }, "second@example.test")
    const message = await smtp.waitForMessage((m) => m.to.includes("second@example.test"))
    expect(message.from).toBe("login@acme.test")
    expect(message.fromName).toBe("Acme Login")
  })

  it("makes the transport once per provider object, and anew when its server changes", async () => {
    const createTransport = vi.spyOn(nodemailer, "createTransport")
    const provider = Nodemailer({ server: smtp.smtpUrl })
    await send(provider, "third@example.test")
    await send(provider, "fourth@example.test")
    expect(createTransport).toHaveBeenCalledTimes(1)
    expect(createTransport).toHaveBeenCalledWith(smtp.smtpUrl)
    provider.server = { host: smtp.host, port: smtp.port }
    await send(provider, "fifth@example.test")
    expect(createTransport).toHaveBeenCalledTimes(2)
    await smtp.waitForMessage((m) => m.to.includes("fifth@example.test"))
  })

  it("throws when the server rejects the recipient", async () => {
    smtp.rejectNext("rcpt")
    const before = smtp.messages.length
    await expect(send(Nodemailer({ server: smtp.smtpUrl }), "rejected@example.test")).rejects.toThrow(/550|rejected/i)
    expect(smtp.messages.length).toBe(before)
  })

  it("throws when the server refuses the message", async () => {
    smtp.rejectNext("data", 554, "5.7.1 Spam")
    await expect(send(Nodemailer({ server: smtp.smtpUrl }), "refused@example.test")).rejects.toThrow(/Spam/)
  })

  it("throws naming the recipients the transport reports as rejected or pending", async () => {
    const server = {
      name: "reporting",
      version: "1",
      send(_mail: unknown, callback: (error: Error | null, info: unknown) => void) {
        callback(null, { messageId: "<x@test>", rejected: ["ada@example.test"], pending: [{ address: "later@example.test" }] })
      },
    }
    await expect(send(Nodemailer({ server }))).rejects.toThrow("Email (ada@example.test, later@example.test) could not be sent")
  })

  it("refuses to send without a server, with Auth.js's message", async () => {
    const error: unknown = await send(Nodemailer()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidConfig)
    expect((error as Error).message).toBe("Nodemailer requires a `server` configuration")
    await expect(send(Nodemailer({ server: "" }))).rejects.toThrow("Nodemailer requires a `server` configuration")
  })

  it("keeps its defaults when the environment passes unset values", () => {
    const provider = Nodemailer({ clientId: undefined, clientSecret: undefined, issuer: undefined, apiKey: undefined, id: undefined, from: undefined } as object)
    expect(provider).toMatchObject({ id: "nodemailer", from: "Auth.js <no-reply@authjs.dev>", maxAge: 86400 })
    expect(Object.entries(provider).filter(([, value]) => value === undefined)).toEqual([])
    expect(providerWithEnv(Nodemailer as Provider, {})).toMatchObject({ id: "nodemailer", type: "email" })
  })
})

describe("Email (Auth.js's alias)", () => {
  it("is Nodemailer with id email and name Email", async () => {
    const provider = Email({ server: smtp.smtpUrl, from: "auth@acme.test" })
    expect(provider).toMatchObject({ id: "email", name: "Email", type: "email", from: "auth@acme.test", maxAge: 86400 })
    expect(Email({ server: "smtp://x", id: "magic", name: "Magic link" })).toMatchObject({ id: "magic", name: "Magic link" })
    expect(providerWithEnv(Email as Provider, {}).id).toBe("email")
    await send(provider, "alias@example.test")
    const message = await smtp.waitForMessage((m) => m.to.includes("alias@example.test"))
    expect(message.from).toBe("auth@acme.test")
  })

  it("refuses to send without a server", async () => {
    await expect(send(Email())).rejects.toThrow("Nodemailer requires a `server` configuration")
  })
})

// Compile-time: the configured providers fit `providers`. The bare factories do not, on purpose:
// without a `server` they could never send.
const providers: Provider[] = [Nodemailer({ server: "smtp://localhost" }), Email({ server: "smtp://localhost" })]
// @ts-expect-error Nodemailer needs options of its own; the environment cannot supply a server.
const bare: Provider = Nodemailer
void bare
void providers
