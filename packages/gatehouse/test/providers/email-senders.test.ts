import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import Mailgun from "../../src/providers/mailgun.js"
import Postmark from "../../src/providers/postmark.js"
import Resend from "../../src/providers/resend.js"
import SendGrid from "../../src/providers/sendgrid.js"
import ForwardEmail from "../../src/providers/forwardemail.js"
import { emailMessage } from "../../src/providers/email-message.js"
import { InvalidConfig } from "../../src/errors.js"
import { providerWithEnv } from "../../src/env.js"
import type { EmailConfig, Provider } from "../../src/types.js"
import { startEmailApiServer, type EmailApiServer } from "../support/email-api-server.js"
import { verificationRequest } from "./helpers.js"

const KEY = "key-SECRET-0123456789"
const url = "https://app.test/auth/callback/x?callbackUrl=https%3A%2F%2Fapp.test%2F&token=tok&email=ada%40example.test"
const expected = emailMessage({ url, host: "app.test", theme: { brandColor: "#123456" } })

const params = (provider: EmailConfig) => verificationRequest(provider, url, { theme: { brandColor: "#123456" } })

async function send(provider: EmailConfig): Promise<void> {
  await provider.sendVerificationRequest(params(provider))
}

let api: EmailApiServer
beforeAll(async () => {
  api = await startEmailApiServer()
})
afterAll(() => api.stop())
beforeEach(() => api.reset())

const factories = [
  { factory: Resend, id: "resend", name: "Resend", service: "Resend", env: "AUTH_RESEND_KEY" },
  { factory: SendGrid, id: "sendgrid", name: "SendGrid", service: "SendGrid", env: "AUTH_SENDGRID_KEY" },
  { factory: Postmark, id: "postmark", name: "Postmark", service: "Postmark", env: "AUTH_POSTMARK_KEY" },
  { factory: Mailgun, id: "mailgun", name: "Mailgun", service: "Mailgun", env: "AUTH_MAILGUN_KEY" },
  { factory: ForwardEmail, id: "forwardemail", name: "Forward Email", service: "Forward Email", env: "AUTH_FORWARDEMAIL_KEY" },
]

/** The HTTP Basic credentials a service is sent, base64; `undefined` for bearer or header keys. */
const BASIC: Record<string, string> = {
  mailgun: Buffer.from(`api:${KEY}`).toString("base64"),
  forwardemail: Buffer.from(`${KEY}:`).toString("base64"),
}

describe("Resend", () => {
  it("POSTs JSON to https://api.resend.com/emails with a bearer key", async () => {
    await send(Resend({ from: "Acme <auth@acme.test>", apiKey: KEY, fetch: api.fetch }))
    expect(api.requests).toHaveLength(1)
    const [request] = api.requests
    expect(request).toMatchObject({ method: "POST", url: "https://api.resend.com/emails" })
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(request!.body).toEqual({ from: "Acme <auth@acme.test>", to: "ada@example.test", subject: "Sign in to app.test", html: expected.html, text: expected.text })
  })
})

describe("SendGrid", () => {
  it("POSTs JSON to https://api.sendgrid.com/v3/mail/send with personalizations and both parts", async () => {
    await send(SendGrid({ from: "auth@acme.test", apiKey: KEY, fetch: api.fetch }))
    const [request] = api.requests
    expect(request).toMatchObject({ method: "POST", url: "https://api.sendgrid.com/v3/mail/send" })
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(request!.body).toEqual({
      personalizations: [{ to: [{ email: "ada@example.test" }] }],
      from: { email: "auth@acme.test" },
      subject: "Sign in to app.test",
      content: [
        { type: "text/plain", value: expected.text },
        { type: "text/html", value: expected.html },
      ],
    })
  })

  it("sends a display name in from as SendGrid's name field", async () => {
    await send(SendGrid({ from: '"Acme, Inc." <auth@acme.test>', apiKey: KEY, fetch: api.fetch }))
    expect((api.requests[0]!.body as { from: unknown }).from).toEqual({ email: "auth@acme.test", name: "Acme, Inc." })
  })
})

describe("Postmark", () => {
  it("POSTs JSON to https://api.postmarkapp.com/email with the server token header and the outbound stream", async () => {
    await send(Postmark({ from: "auth@acme.test", apiKey: KEY, fetch: api.fetch }))
    const [request] = api.requests
    expect(request).toMatchObject({ method: "POST", url: "https://api.postmarkapp.com/email" })
    expect(request!.headers["x-postmark-server-token"]).toBe(KEY)
    expect(request!.headers.authorization).toBeUndefined()
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(request!.headers.accept).toBe("application/json")
    expect(request!.body).toEqual({
      From: "auth@acme.test",
      To: "ada@example.test",
      Subject: "Sign in to app.test",
      TextBody: expected.text,
      HtmlBody: expected.html,
      MessageStream: "outbound",
    })
  })
})

describe("Mailgun", () => {
  it("POSTs a form to https://api.mailgun.net/v3/<domain>/messages with Basic api:<key>", async () => {
    await send(Mailgun({ from: "Acme <auth@acme.test>", domain: "mg.acme.test", apiKey: KEY, fetch: api.fetch }))
    const [request] = api.requests
    expect(request).toMatchObject({ method: "POST", url: "https://api.mailgun.net/v3/mg.acme.test/messages" })
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`api:${KEY}`).toString("base64")}`)
    expect(request!.headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(request!.body).toEqual({ from: "Acme <auth@acme.test>", to: "ada@example.test", subject: "Sign in to app.test", text: expected.text, html: expected.html })
  })

  it("uses api.eu.mailgun.net for region eu (either case), and the from address's domain by default", async () => {
    await send(Mailgun({ from: "Acme <auth@acme.test>", region: "eu", apiKey: KEY, fetch: api.fetch }))
    await send(Mailgun({ from: "auth@acme.test", region: "EU", apiKey: KEY, fetch: api.fetch }))
    expect(api.requests.map((request) => request.url)).toEqual([
      "https://api.eu.mailgun.net/v3/acme.test/messages",
      "https://api.eu.mailgun.net/v3/acme.test/messages",
    ])
  })

  it("refuses an unknown region and a missing or malformed domain", async () => {
    const region = Mailgun({ from: "auth@acme.test", region: "ap" as "eu", apiKey: KEY, fetch: api.fetch })
    await expect(send(region)).rejects.toThrow(/`region` must be "us" or "eu"/)
    const noDomain = Mailgun({ from: "Acme Auth", apiKey: KEY, fetch: api.fetch })
    await expect(send(noDomain)).rejects.toThrow(InvalidConfig)
    await expect(send(noDomain)).rejects.toThrow(/needs a sending `domain`/)
    const badDomain = Mailgun({ from: "auth@acme.test", domain: "acme.test/../x", apiKey: KEY, fetch: api.fetch })
    await expect(send(badDomain)).rejects.toThrow(/needs a sending `domain`/)
    expect(api.requests).toEqual([])
  })
})

describe("Forward Email", () => {
  it("POSTs JSON to https://api.forwardemail.net/v1/emails with the key as the Basic user name", async () => {
    await send(ForwardEmail({ from: "Acme <auth@acme.test>", apiKey: KEY, fetch: api.fetch }))
    expect(api.requests).toHaveLength(1)
    const [request] = api.requests
    expect(request).toMatchObject({ method: "POST", url: "https://api.forwardemail.net/v1/emails" })
    expect(request!.headers.authorization).toBe(`Basic ${BASIC.forwardemail}`)
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(request!.body).toEqual({ from: "Acme <auth@acme.test>", to: "ada@example.test", subject: "Sign in to app.test", html: expected.html, text: expected.text })
  })
})

describe.each(factories)("$name", ({ factory, id, name, service, env }) => {
  it("has Auth.js's id and name, type email, and a day-long link by default", () => {
    const provider = factory({ from: "auth@acme.test" })
    expect(provider).toMatchObject({ id, name, type: "email", from: "auth@acme.test", maxAge: 86400 })
    expect(factory({ id: "other", name: "Other", maxAge: 600 })).toMatchObject({ id: "other", name: "Other", maxAge: 600 })
  })

  it("takes the API key from AUTH_<ID>_KEY, as a bare factory or a configured one", async () => {
    const bare = providerWithEnv(factory as Provider, { [env]: KEY }) as EmailConfig
    expect(bare.apiKey).toBe(KEY)
    expect(bare.id).toBe(id)
    const configured = providerWithEnv(factory({ from: "auth@acme.test", domain: "acme.test", fetch: api.fetch }), { [env]: KEY }) as EmailConfig
    await send(configured)
    expect(api.requests[0]!.rawBody).not.toContain(KEY)
    expect(JSON.stringify(api.requests[0]!.headers)).toMatch(BASIC[id] ? new RegExp(`Basic ${BASIC[id]}`) : new RegExp(KEY))
    // An explicit key wins over the environment.
    expect((providerWithEnv(factory({ apiKey: "explicit" }), { [env]: KEY }) as EmailConfig).apiKey).toBe("explicit")
  })

  it("calls the global fetch as a plain function when no fetch is given", async () => {
    const calls: unknown[] = []
    const stub = vi.fn(function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      calls.push(this)
      return api.fetch(input, init)
    })
    vi.stubGlobal("fetch", stub)
    try {
      await send(factory({ from: "auth@acme.test", apiKey: KEY }))
    } finally {
      vi.unstubAllGlobals()
    }
    expect(stub).toHaveBeenCalledTimes(1)
    expect(calls).toEqual([undefined])
  })

  it("throws the status and the service's answer, without the API key, on a non-2xx answer", async () => {
    const base64 = BASIC[id] ?? Buffer.from(`api:${KEY}`).toString("base64")
    api.answerWith({ status: 422, contentType: "application/json", body: JSON.stringify({ message: `invalid key ${KEY} (${base64}) for sender`, pad: "x".repeat(2000) }) })
    const provider = factory({ from: "auth@acme.test", apiKey: KEY, fetch: api.fetch })
    const error: unknown = await send(provider).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    const message = (error as Error).message
    expect(message).toMatch(new RegExp(`^${service} answered HTTP 422: `))
    expect(message).toContain("invalid key [redacted]")
    expect(message).toContain("for sender")
    expect(message).not.toContain(KEY)
    if (BASIC[id]) expect(message).not.toContain(base64)
    expect(message.length).toBeLessThan(700)
  })

  it("throws on a 5xx with an empty body too", async () => {
    api.answerWith({ status: 503 })
    await expect(send(factory({ from: "auth@acme.test", apiKey: KEY, fetch: api.fetch }))).rejects.toThrow(`${service} answered HTTP 503`)
  })

  it("refuses to send without an API key or a from address, naming what is missing", async () => {
    const noKey = factory({ from: "auth@acme.test", fetch: api.fetch })
    await expect(send(noKey)).rejects.toThrow(InvalidConfig)
    await expect(send(noKey)).rejects.toThrow(`Email provider "${id}" (${service}) needs an API key: set \`apiKey\` or ${env}`)
    const noFrom = factory({ apiKey: KEY, fetch: api.fetch })
    await expect(send(noFrom)).rejects.toThrow(`Email provider "${id}" (${service}) needs a \`from\` address`)
    await expect(send(factory({ apiKey: KEY, from: "  ", fetch: api.fetch }))).rejects.toThrow(/needs a `from` address/)
    expect(api.requests).toEqual([])
  })

  it("lets a custom sendVerificationRequest replace the built-in one", async () => {
    const custom = vi.fn()
    const provider = factory({ from: "auth@acme.test", sendVerificationRequest: custom })
    await send(provider)
    expect(custom).toHaveBeenCalledOnce()
    expect(api.requests).toEqual([])
  })

  it("returns a fresh object and leaves the options alone", () => {
    const options = { from: "auth@acme.test", apiKey: KEY }
    const snapshot = { ...options }
    const first = factory(options)
    expect(factory(options)).not.toBe(first)
    expect(options).toEqual(snapshot)
  })
})

// Compile-time: every factory fits `providers`, bare or called.
const providers: Provider[] = [Resend, SendGrid, Postmark, Mailgun, ForwardEmail, Resend({ from: "a@b.test" }), ForwardEmail({ from: "a@b.test" })]
void providers
