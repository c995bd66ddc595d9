/**
 * Fixed inputs for what the fuzz suite found, so each finding stays covered whatever the random
 * runs pick.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { serializeCookie } from "../../src/cookies/serialize.js"
import { Auth } from "../../src/core/handler.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { AuthConfig, Provider } from "../../src/types.js"
import { CONFIGURATION_MESSAGE, expectGenericConfigurationError, readAnswer, type Answer } from "./fuzz-checks.js"
import { unhandledRejectionsDuring } from "./fuzz-settings.js"
import { Client } from "../flow/flow-helpers.js"
import { SoftwareAuthenticator, type CredentialJSON } from "../support/software-authenticator.js"

const SECRET = "fuzz-regression-secret-0123456789abcdef"
const ORIGIN = "https://app.test"

describe("an application function that returns a rejected promise where the core expects none", () => {
  it("an async logger whose error level rejects leaves no unhandled rejection (src/core/logger.ts)", async () => {
    const config: AuthConfig & { raw?: undefined } = {
      secret: SECRET,
      trustHost: true,
      providers: [Credentials({ authorize: () => null })],
      // A log shipper that is down: the request must still be answered and the process must live on.
      logger: { error: () => Promise.reject(new Error("log sink unreachable")) },
    }
    const { value, unhandled } = await unhandledRejectionsDuring(() => Auth(new Request(`${ORIGIN}/auth/nope`), config).then(readAnswer))
    expect(value.status).toBe(400)
    expect(unhandled).toEqual([])
  })

  it("a provider factory that returns a rejected promise leaves no unhandled rejection (src/env.ts)", async () => {
    const asyncFactory = (() => Promise.reject(new Error("provider factory failed"))) as unknown as Provider
    const config: AuthConfig & { raw?: undefined } = { secret: SECRET, trustHost: true, providers: [asyncFactory], logger: { error: () => {} } }
    const { value, unhandled } = await unhandledRejectionsDuring(() => Auth(new Request(`${ORIGIN}/auth/session`), config).then(readAnswer))
    expect(value.status).toBe(500)
    expect(JSON.parse(value.body)).toEqual({ message: CONFIGURATION_MESSAGE })
    expect(unhandled).toEqual([])
  })
})

describe("a custom page that is not a string", () => {
  // Found by fuzz-config: `pages.error` set to a function went out as its source text in Location.
  it("is a configuration error, never text in a Location header", async () => {
    const config = {
      secret: SECRET,
      trustHost: true,
      logger: { error: () => {} },
      providers: [Credentials({ authorize: () => null })],
      pages: { error: () => "/oops" },
    } as unknown as AuthConfig & { raw?: undefined }
    const answer = await readAnswer(await Auth(new Request(`${ORIGIN}/auth/error`), config))
    expect(answer.location ?? "").not.toContain("=>")
    expectGenericConfigurationError(answer)
  })
})

describe("cookie attributes from the configuration that are not of their type", () => {
  const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
  const authorize = ({ username }: Partial<Record<string, unknown>>) => (username === "ada" ? { id: "ada", name: "Ada", email: "ada@app.test" } : null)

  function configWith(extra: Partial<AuthConfig>): AuthConfig & { raw?: undefined } {
    return { secret: SECRET, trustHost: true, logger: quiet, providers: [Credentials({ authorize })], ...extra } as AuthConfig & { raw?: undefined }
  }

  async function signIn(config: AuthConfig & { raw?: undefined }): Promise<Answer> {
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
    const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
    const { csrfToken } = (await csrf.json().catch(() => ({}))) as { csrfToken?: string }
    const request = new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrfToken ?? "", username: "ada", password: "x" }),
    })
    return readAnswer(await Auth(request, config))
  }

  function expectConfigurationRedirect(answer: Answer): void {
    expect(answer.status).toBe(302)
    expect(answer.location).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(answer.setCookies).toEqual([])
  }

  // Found by fuzz-config: a function as `domain` went out as its source text, `Domain=() => …`.
  it("a domain that is a function never reaches a Set-Cookie header", async () => {
    const domain = (() => "app.test") as unknown as string
    const answer = await readAnswer(await Auth(new Request(`${ORIGIN}/auth/csrf`), configWith({ cookies: { csrfToken: { options: { domain } } } })))
    expectConfigurationRedirect(answer)
  })

  it("a numeric path never reaches a Set-Cookie header", async () => {
    const path = 42 as unknown as string
    expectConfigurationRedirect(await readAnswer(await Auth(new Request(`${ORIGIN}/auth/csrf`), configWith({ cookies: { csrfToken: { options: { path } } } }))))
  })

  it("a SameSite value cannot append attributes of its own", async () => {
    const sameSite = "lax; Domain=evil.test" as unknown as "lax"
    const answer = await readAnswer(await Auth(new Request(`${ORIGIN}/auth/csrf`), configWith({ cookies: { csrfToken: { options: { sameSite } } } })))
    expectConfigurationRedirect(answer)
  })

  it("a session lifetime past the last representable date gives no 'Expires=Invalid Date' cookie", async () => {
    const answer = await signIn(configWith({ session: { maxAge: 1e300 } }))
    for (const line of answer.setCookies) expect(line).not.toMatch(/Invalid Date/)
    expectConfigurationRedirect(answer)
  })

  it("serializeCookie keeps the SameSite spellings, in any case, and refuses the rest", () => {
    expect(serializeCookie("a", "b", { sameSite: "lax" })).toBe("a=b; SameSite=Lax")
    expect(serializeCookie("a", "b", { sameSite: "STRICT" as "strict" })).toBe("a=b; SameSite=Strict")
    expect(serializeCookie("a", "b", { sameSite: "none", secure: true })).toBe("a=b; Secure; SameSite=None")
    for (const sameSite of ["constructor", "__proto__", "lax;", 1, {}]) {
      expect(() => serializeCookie("a", "b", { sameSite: sameSite as "lax" })).toThrow(TypeError)
    }
    expect(() => serializeCookie("a", "b", { expires: new Date(Number.NaN) })).toThrow(TypeError)
    expect(() => serializeCookie("a", "b", { expires: "tomorrow" as unknown as Date })).toThrow(TypeError)
  })
})

describe("a passkey signature re-wrapped in another DER envelope", () => {
  // Found by fuzz-passkeys: @simplewebauthn/server reads the (r, s) of an ES256 signature whatever
  // the outer SEQUENCE tag (any context-class tag) or length says, so 0x30 → 0xB0 still verifies.
  // Not a forgery (the same signature); what matters is that it buys no second sign-in.
  it("signs in at most once per challenge, whichever wrapping comes first", async () => {
    const config: AuthConfig & { raw?: undefined } = {
      secret: SECRET,
      trustHost: true,
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
      adapter: MemoryAdapter(),
      experimental: { enableWebAuthn: true },
      providers: [Passkey()],
    }
    const authenticator = new SoftwareAuthenticator()
    const options = async (client: Client, query: Record<string, string> = {}) =>
      ((await (await client.get(`webauthn-options/passkey?${new URLSearchParams(query)}`)).json()) as { options: { challenge: string } }).options
    const post = (client: Client, credential: CredentialJSON) => client.postForm("callback/passkey", { action: "authenticate", data: JSON.stringify(credential) })
    const signsIn = (response: Response) => response.headers.getSetCookie().some((line) => /^__Secure-authjs\.session-token=[^;]/.test(line))

    const owner = new Client(config)
    const registration = authenticator.register({ challenge: (await options(owner, { action: "register", email: "owner@app.test" })).challenge, origin: ORIGIN, rpId: "app.test" })
    expect((await owner.postForm("callback/passkey", { action: "register", data: JSON.stringify(registration) })).headers.get("location")).toBe(ORIGIN)

    const attacker = new Client(config)
    const genuine = authenticator.authenticate({ challenge: (await options(attacker)).challenge, origin: ORIGIN, rpId: "app.test" })
    const signature = Buffer.from(String(genuine.response.signature), "base64url")
    signature[0] = 0xb0
    const rewrapped: CredentialJSON = { ...genuine, response: { ...genuine.response, signature: signature.toString("base64url") } }
    const replay = new Client(config)
    for (const [name, value] of attacker.jar.cookies) replay.jar.cookies.set(name, value)

    const results = [signsIn(await post(attacker, rewrapped)), signsIn(await post(replay, genuine))]
    expect(results.filter(Boolean).length).toBeLessThanOrEqual(1)
  })
})
