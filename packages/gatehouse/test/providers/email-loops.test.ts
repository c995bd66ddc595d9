import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { InvalidConfig } from "../../src/errors.js"
import { providerWithEnv, setEnvDefaults } from "../../src/env.js"
import Loops from "../../src/providers/loops.js"
import type { AuthConfig, EmailConfig, Provider, ProviderEnvOptions } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startEmailApiServer, type EmailApiServer } from "../support/email-api-server.js"
import { authApp, csrfToken, expectLandedOn, sessionOf } from "../flow/end-to-end-helpers.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { verificationRequest } from "./helpers.js"

const KEY = "loops-key-SECRET-0123456789"
const TRANSACTIONAL_ID = "clfq6dinn000yl70fgwwyp82l"
const ENDPOINT = "https://app.loops.so/api/v1/transactional"
const url = "https://app.test/auth/callback/loops?callbackUrl=https%3A%2F%2Fapp.test%2F&token=tok&email=ada%40example.test"

const params = (provider: EmailConfig) => verificationRequest(provider, url)

let api: EmailApiServer
beforeAll(async () => {
  api = await startEmailApiServer()
})
afterAll(() => api.stop())
beforeEach(() => api.reset())

describe("Loops", () => {
  it("POSTs the transactional email's id, the address and the link as its url data variable, with a bearer key", async () => {
    const provider = Loops({ transactionalId: TRANSACTIONAL_ID, apiKey: KEY, fetch: api.fetch })
    await provider.sendVerificationRequest(params(provider))
    expect(api.requests).toHaveLength(1)
    const [request] = api.requests
    expect(request).toMatchObject({ method: "POST", url: ENDPOINT })
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(request!.body).toEqual({ transactionalId: TRANSACTIONAL_ID, email: "ada@example.test", dataVariables: { url } })
  })

  it("has Auth.js's id and name, type email, a day-long link, and needs no from address", () => {
    const provider = Loops({ transactionalId: TRANSACTIONAL_ID })
    expect(provider).toMatchObject({ id: "loops", name: "Loops", type: "email", maxAge: 86400, transactionalId: TRANSACTIONAL_ID })
    expect(Loops({ id: "other", name: "Other", maxAge: 600 })).toMatchObject({ id: "other", name: "Other", maxAge: 600 })
  })

  it("takes the API key from AUTH_LOOPS_KEY, as a bare factory or a configured one; an explicit key wins", async () => {
    expect((providerWithEnv(Loops as Provider, { AUTH_LOOPS_KEY: KEY }) as EmailConfig).apiKey).toBe(KEY)
    const configured = providerWithEnv(Loops({ transactionalId: TRANSACTIONAL_ID, fetch: api.fetch }), { AUTH_LOOPS_KEY: KEY }) as EmailConfig
    await configured.sendVerificationRequest(params(configured))
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(api.requests[0]!.rawBody).not.toContain(KEY)
    expect((providerWithEnv(Loops({ apiKey: "explicit" }), { AUTH_LOOPS_KEY: KEY }) as EmailConfig).apiKey).toBe("explicit")
  })

  it("throws the status and Loops' answer, without the API key, on a non-2xx answer", async () => {
    api.answerWith({ status: 400, contentType: "application/json", body: JSON.stringify({ success: false, message: `Transactional email not found (key ${KEY})` }) })
    const provider = Loops({ transactionalId: TRANSACTIONAL_ID, apiKey: KEY, fetch: api.fetch })
    const error = (await Promise.resolve(provider.sendVerificationRequest(params(provider))).catch((caught: unknown) => caught)) as Error
    expect(error.message).toMatch(/^Loops answered HTTP 400: /)
    expect(error.message).toContain("Transactional email not found (key [redacted])")
    expect(error.message).not.toContain(KEY)
  })

  it("refuses to send without an API key or a transactionalId, naming what is missing", async () => {
    const noKey = Loops({ transactionalId: TRANSACTIONAL_ID, fetch: api.fetch })
    await expect(async () => noKey.sendVerificationRequest(params(noKey))).rejects.toThrow(InvalidConfig)
    await expect(async () => noKey.sendVerificationRequest(params(noKey))).rejects.toThrow('Email provider "loops" (Loops) needs an API key: set `apiKey` or AUTH_LOOPS_KEY')
    for (const transactionalId of [undefined, "", "  "]) {
      const noTemplate = Loops({ transactionalId, apiKey: KEY, fetch: api.fetch })
      await expect(async () => noTemplate.sendVerificationRequest(params(noTemplate))).rejects.toThrow(/needs the `transactionalId`/)
    }
    expect(api.requests).toEqual([])
  })

  it("lets a custom sendVerificationRequest replace the built-in one", async () => {
    const custom = vi.fn()
    const provider = Loops({ transactionalId: TRANSACTIONAL_ID, sendVerificationRequest: custom })
    await provider.sendVerificationRequest(params(provider))
    expect(custom).toHaveBeenCalledOnce()
    expect(api.requests).toEqual([])
  })

  it("signs in through Auth() with the link Loops was given, the key from AUTH_LOOPS_KEY", async () => {
    const config: AuthConfig = {
      trustHost: true,
      adapter: MemoryAdapter(),
      logger: recordingLogger().logger,
      providers: [(options: ProviderEnvOptions) => Loops({ ...options, transactionalId: TRANSACTIONAL_ID, fetch: api.fetch })],
    }
    setEnvDefaults({ AUTH_SECRET: secret, AUTH_LOOPS_KEY: KEY }, config)
    const browser = new Browser({ app: authApp(config) })
    const sent = await browser.post("/auth/signin/loops", { csrfToken: await csrfToken(browser), email: "Ada@Example.test", callbackUrl: "https://app.test/dashboard" })
    expect(sent.url).toMatch(/^https:\/\/app\.test\/auth\/verify-request/)
    const [request] = api.requests
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`)
    const { email, dataVariables } = request!.body as { email: string; dataVariables: { url: string } }
    expect(email).toBe("ada@example.test")
    expectLandedOn(await browser.get(dataVariables.url), "https://app.test/dashboard")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "ada@example.test" } })
  })
})
