/**
 * A passkey with user verification is two factors (something held, something known or are): its
 * sign-in is at aal 2 at once, with amr `hwk user mfa`, even under `require: "always"`; with
 * `twoFactor.passkey: "one-factor"` it is one factor and waits for the second like any other.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { SoftwareAuthenticator } from "../support/software-authenticator.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const PENDING = "__Secure-authjs.two-factor"

function config(strategy: "jwt" | "database", passkey: "two-factor" | "one-factor"): AuthConfig {
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter: MemoryAdapter(),
    session: { strategy },
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "always", passkey },
  }
}

async function register(client: Client, authenticator: SoftwareAuthenticator): Promise<Response> {
  const options = (await (await client.get(`webauthn-options/passkey?${new URLSearchParams({ action: "register", email: "pat@app.test" })}`)).json()) as { options: { challenge: string } }
  const credential = authenticator.register({ challenge: options.options.challenge, origin: ORIGIN, rpId: "app.test" })
  return client.postForm("callback/passkey", { action: "register", data: JSON.stringify(credential) })
}

async function authenticate(client: Client, authenticator: SoftwareAuthenticator): Promise<Response> {
  const options = (await (await client.get("webauthn-options/passkey?action=authenticate")).json()) as { options: { challenge: string } }
  const credential = authenticator.authenticate({ challenge: options.options.challenge, origin: ORIGIN, rpId: "app.test" })
  return client.postForm("callback/passkey", { action: "authenticate", data: JSON.stringify(credential) })
}

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  it('a user-verifying passkey signs in at aal 2 at once under require "always" (registration and sign-in)', async () => {
    const appConfig = config(strategy, "two-factor")
    const authenticator = new SoftwareAuthenticator()
    const registering = new Client(appConfig, ORIGIN)
    expect((await register(registering, authenticator)).headers.get("location")).toBe(ORIGIN)
    expect(registering.jar.get(PENDING)).toBeUndefined()
    expect(((await registering.session()) as { authentication: unknown }).authentication).toMatchObject({ aal: 2, amr: ["hwk", "user", "mfa"] })

    const signingIn = new Client(appConfig, ORIGIN)
    expect((await authenticate(signingIn, authenticator)).headers.get("location")).toBe(ORIGIN)
    const session = (await signingIn.session()) as { authentication: { aal: number; amr: string[]; secondFactorAt: string | null } }
    expect(session.authentication).toMatchObject({ aal: 2, amr: ["hwk", "user", "mfa"] })
    expect(session.authentication.secondFactorAt).not.toBeNull()
  })

  it('with passkey: "one-factor", the same passkey gets no session until a second factor', async () => {
    const appConfig = config(strategy, "one-factor")
    const authenticator = new SoftwareAuthenticator()
    const client = new Client(appConfig, ORIGIN)
    const registered = await register(client, authenticator)
    expect(registered.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    expect(client.jar.get(SESSION)).toBeUndefined()
    expect(client.jar.get(PENDING)).toBeTruthy()
    expect(await client.session()).toBeNull()
  })
})
