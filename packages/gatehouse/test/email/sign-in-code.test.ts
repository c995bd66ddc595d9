/**
 * Signing in with an emailed code instead of a link (`code: true` on the provider, issue 37),
 * delivered for real: the Nodemailer provider sends over SMTP to the in-process server of
 * test/support and the code is read from the message. The code works only in the browser that
 * asked for it, once, at most five wrong tries; with a second factor enrolled the code sign-in is
 * a first factor like any other: no session until the second one passes.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { startSmtpServer, type CapturedMessage, type TestSmtpServer } from "../support/smtp-server.js"
import { totpAt } from "../support/totp-reference.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const BINDING = "__Secure-authjs.email-link"
const DASHBOARD = `${ORIGIN}/dashboard`

let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp?.stop())

type Adapted = Adapter & Required<Pick<Adapter, "createUser" | "getUserByEmail" | "listSessionsByUserId" | "setTotpPendingSecret" | "enableTotp">>

function newAddress(): string {
  return `code-${randomBytes(4).toString("hex")}@app.test`
}

function config(adapter: Adapted, extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy: "database" },
    providers: [Nodemailer({ server: smtp.smtpUrl, from: "Gatehouse Test <auth@app.test>", code: true, rateLimit: false })],
    ...extra,
  }
}

async function askForCode(client: Client, address: string): Promise<{ code: string; message: CapturedMessage; page: string }> {
  const asked = await client.postForm("signin/nodemailer", { csrfToken: await client.csrfToken(), email: address, callbackUrl: DASHBOARD })
  expect(asked.status).toBe(302)
  const page = asked.headers.get("location")!
  const message = await smtp.waitForMessage((candidate) => candidate.to.includes(address))
  const code = /^(\d{6})$/m.exec(message.text)?.[1]
  expect(code).toMatch(/^\d{6}$/)
  return { code: code!, message, page }
}

async function postCode(client: Client, address: string, code: string): Promise<Response> {
  return client.postForm("callback/nodemailer", { csrfToken: await client.csrfToken(), email: address, code }, { "sec-fetch-site": "same-origin" })
}

function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0")
}

describe("email sign-in with a code", () => {
  it("emails a code, no link; the page asks for it; the code signs in the browser that asked", async () => {
    const adapter = MemoryAdapter() as Adapted
    const client = new Client(config(adapter))
    const address = newAddress()
    const { code, message, page } = await askForCode(client, address)
    expect(page).toBe(`${ORIGIN}/auth/verify-request?${new URLSearchParams({ provider: "nodemailer", type: "email", email: address })}`)
    expect(client.jar.get(BINDING)).toMatch(/^code\.[0-9a-f]{32}$/)
    expect(message.subject).toBe("Your sign-in code for app.test")
    expect(message.text).not.toContain("callback/nodemailer")
    expect(message.html).not.toContain("token=")

    const form = await (await client.get(page.slice(`${ORIGIN}/auth/`.length))).text()
    expect(form).toContain(`action="${ORIGIN}/auth/callback/nodemailer"`)
    expect(form).toContain('autocomplete="one-time-code"')
    expect(form).toMatch(/<label for="code">[^<]+<\/label><input id="code" name="code"/)
    expect(form).toContain(`name="email" value="${address}"`)

    const done = await postCode(client, address, code)
    expect(done.headers.get("location")).toBe(DASHBOARD)
    expect(client.jar.get(SESSION)).toBeTruthy()
    expect(client.jar.get(BINDING)).toBeUndefined()
    const session = (await client.session()) as { user: { email: string } }
    expect(session.user.email).toBe(address)
  })

  it("refuses the code in another browser (no binding cookie), and it still works where it was asked for", async () => {
    const adapter = MemoryAdapter() as Adapted
    const client = new Client(config(adapter))
    const address = newAddress()
    const { code } = await askForCode(client, address)
    const elsewhere = new Client(client.config)
    const refused = await postCode(elsewhere, address, code)
    expect(refused.headers.get("location")).toContain("error=Verification")
    expect(elsewhere.jar.get(SESSION)).toBeUndefined()
    // A binding cookie of another request holds another nonce: no match either.
    elsewhere.jar.cookies.set(BINDING, `code.${randomBytes(16).toString("hex")}`)
    expect((await postCode(elsewhere, address, code)).headers.get("location")).toContain("error=Verification")
    expect(elsewhere.jar.get(SESSION)).toBeUndefined()

    expect((await postCode(client, address, code)).headers.get("location")).toBe(DASHBOARD)
  })

  it("voids the code after five wrong tries", async () => {
    const adapter = MemoryAdapter() as Adapted
    const client = new Client(config(adapter))
    const address = newAddress()
    const { code } = await askForCode(client, address)
    const binding = client.jar.get(BINDING)!
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await postCode(client, address, otherCode(code))
      expect(wrong.headers.get("location")).toContain("error=Verification")
    }
    expect(client.jar.get(BINDING)).toBeUndefined()
    client.jar.cookies.set(BINDING, binding)
    const late = await postCode(client, address, code)
    expect(late.headers.get("location")).toContain("error=Verification")
    expect(client.jar.get(SESSION)).toBeUndefined()
  })

  it("refuses a replayed code, even with its binding cookie put back", async () => {
    const adapter = MemoryAdapter() as Adapted
    const client = new Client(config(adapter))
    const address = newAddress()
    const { code } = await askForCode(client, address)
    const binding = client.jar.get(BINDING)!
    expect((await postCode(client, address, code)).headers.get("location")).toBe(DASHBOARD)

    const replayer = new Client(client.config)
    replayer.jar.cookies.set(BINDING, binding)
    const replayed = await postCode(replayer, address, code)
    expect(replayed.headers.get("location")).toContain("error=Verification")
    expect(replayer.jar.get(SESSION)).toBeUndefined()
  })

  it("refuses a code posted from another site", async () => {
    const adapter = MemoryAdapter() as Adapted
    const client = new Client(config(adapter))
    const address = newAddress()
    const { code } = await askForCode(client, address)
    const forged = await client.postForm("callback/nodemailer", { csrfToken: await client.csrfToken(), email: address, code }, { "sec-fetch-site": "cross-site" })
    expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    expect(client.jar.get(SESSION)).toBeUndefined()
  })

  it("asks a user with a second factor for it after the code: no session until then", async () => {
    const adapter = MemoryAdapter() as Adapted
    const address = newAddress()
    const user = await adapter.createUser({ id: "", email: address, emailVerified: new Date() } as AdapterUser)
    const key = new Uint8Array(randomBytes(20))
    const sealed = await sealTotpSecret({ secret: [secret] }, user.id, key)
    await adapter.setTotpPendingSecret(user.id, sealed)
    const step = Math.floor(Date.now() / 30_000)
    expect(await adapter.enableTotp(user.id, { sealed, step: step - 5, recoveryCodeHashes: [] })).toBe(true)
    const client = new Client(config(adapter, { twoFactor: { totp: { issuer: "Tests" }, notify: false } }))

    const { code } = await askForCode(client, address)
    const first = await postCode(client, address, code)
    expect(first.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    expect(client.jar.get(SESSION)).toBeUndefined()
    expect(await adapter.listSessionsByUserId(user.id)).toHaveLength(0)
    expect(await client.session()).toBeNull()

    const done = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), method: "totp", code: totpAt(key, step) })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    const session = (await client.session()) as { authentication: { aal: number; amr: string[] } }
    expect(session.authentication).toMatchObject({ aal: 2, amr: ["otp", "mfa"] })
  })

  it("refuses a provider with code whose maxAge is above 10 minutes", async () => {
    const adapter = MemoryAdapter() as Adapted
    const { logger, lines } = recordingLogger()
    const bad = config(adapter, { logger, providers: [Nodemailer({ server: smtp.smtpUrl, code: true, maxAge: 3600 })] })
    const response = await Auth(new Request(`${ORIGIN}/auth/providers`), bad)
    expect(response.status).toBe(500)
    expect(lines.some((line) => String(line.message[0] instanceof Error ? line.message[0].message : line.message[0]).includes("at most 600 seconds"))).toBe(true)
  })
})

