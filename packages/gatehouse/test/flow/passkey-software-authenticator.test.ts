/**
 * Passkey ceremonies with real signatures from a software authenticator, through `Auth()`: the
 * attacks a browser would never attempt, because an attacker's authenticator says whatever they
 * want (a credential id that is someone else's, a counter that never moves).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { Passkey } from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { SoftwareAuthenticator, type CredentialJSON } from "../support/software-authenticator.js"
import { Client, failureMessage, isFailure, recordingLogger, secret } from "./flow-helpers.js"
import { storedAdapters, type OpenStore } from "./stored-adapters.js"

const ORIGIN = "https://app.test"
const ERROR_PAGE = `${ORIGIN}/auth/error?error=WebAuthnVerificationError`

interface OptionsAnswer {
  action: "register" | "authenticate"
  options: { challenge: string; allowCredentials?: { id: string }[] }
}

async function optionsFor(client: Client, query: Record<string, string>): Promise<OptionsAnswer> {
  const response = await client.get(`webauthn-options/passkey?${new URLSearchParams(query)}`)
  expect(response.status).toBe(200)
  return (await response.json()) as OptionsAnswer
}

function answer(client: Client, action: string, credential: CredentialJSON): Promise<Response> {
  return client.postForm("callback/passkey", { action, data: JSON.stringify(credential) })
}

/** Creates a passkey for `email` with `authenticator` on a fresh client; returns the signed-in client. */
async function registerNew(config: AuthConfig, email: string, authenticator: SoftwareAuthenticator): Promise<Client> {
  const client = new Client(config, ORIGIN)
  const { action, options } = await optionsFor(client, { action: "register", email })
  expect(action).toBe("register")
  const response = await answer(client, "register", authenticator.register({ challenge: options.challenge, origin: ORIGIN, rpId: "app.test" }))
  expect(response.headers.get("location")).toBe(ORIGIN)
  return client
}

/** Posts a signed answer again with an earlier request's cookies, as someone who captured both would. */
function replay(config: AuthConfig, cookie: string, credential: CredentialJSON): Promise<Response> {
  return new Client(config, ORIGIN).send(
    new Request(`${ORIGIN}/auth/callback/passkey`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ action: "authenticate", data: JSON.stringify(credential) }),
    }),
  )
}

const cases = storedAdapters.flatMap((store) => (["jwt", "database"] as const).map((strategy) => ({ store, strategy })))

describe.each(cases)("passkeys from a software authenticator on $store.name, $strategy sessions", ({ store, strategy }) => {
  let opened: OpenStore
  let config: AuthConfig
  let log: ReturnType<typeof recordingLogger>

  beforeAll(async () => {
    opened = await store.open()
  })
  afterAll(async () => {
    await opened?.close()
  })
  const freshConfig = () => {
    log = recordingLogger()
    config = {
      secret,
      trustHost: true,
      logger: log.logger,
      adapter: opened.adapter,
      session: { strategy },
      experimental: { enableWebAuthn: true },
      providers: [Passkey()],
    }
    return config
  }
  const lastError = () => {
    const line = log.lines.filter(isFailure).at(-1)
    return line && `${line.code}: ${failureMessage(line)}`
  }

  it("signs up and back in with real signatures", async () => {
    const authenticator = new SoftwareAuthenticator()
    const email = `soft.${strategy}@example.com`
    const client = await registerNew(freshConfig(), email, authenticator)
    expect(((await client.session()) as { user: { email: string } }).user.email).toBe(email)

    const later = new Client(config, ORIGIN)
    const { action, options } = await optionsFor(later, {})
    expect(action).toBe("authenticate")
    const response = await answer(later, "authenticate", authenticator.authenticate({ challenge: options.challenge, origin: ORIGIN, rpId: "app.test" }))
    expect(response.headers.get("location")).toBe(ORIGIN)
    expect(((await later.session()) as { user: { email: string } }).user.email).toBe(email)
  })

  it("refuses a registration that reports someone's credential id, and signs in nobody", async () => {
    const victimEmail = `victim.${strategy}@example.com`
    const victimKey = new SoftwareAuthenticator()
    await registerNew(freshConfig(), victimEmail, victimKey)

    // Auth.js hands the victim's credential ids to anyone who asks with their address; Gatehouse lists none.
    const attacker = new Client(config, ORIGIN)
    const { options: probe } = await optionsFor(attacker, { email: victimEmail })
    expect(probe.allowCredentials).toBeUndefined()

    const fresh = new Client(config, ORIGIN)
    const attackerEmail = `attacker.${strategy}@example.com`
    const { action, options } = await optionsFor(fresh, { action: "register", email: attackerEmail })
    expect(action).toBe("register")
    const forged = new SoftwareAuthenticator({ credentialId: victimKey.credentialId })
    const response = await answer(fresh, "register", forged.register({ challenge: options.challenge, origin: ORIGIN, rpId: "app.test" }))

    expect(response.headers.get("location")).toBe(ERROR_PAGE)
    expect(response.headers.getSetCookie().join("\n")).not.toContain("session-token")
    expect(await fresh.session()).toBeNull()
    const victimPasskey = await opened.adapter.getAuthenticator!(victimKey.credentialId.toString("base64"))
    expect((await opened.adapter.getUser!(victimPasskey!.userId))?.email).toBe(victimEmail)
    expect(lastError()).toBe("WebAuthnVerificationError: A passkey with this credential id is already registered")
  })

  it("never turns a registration into a sign-in, even for an account left without its authenticator", async () => {
    const owner = await opened.adapter.createUser({ id: crypto.randomUUID(), email: `orphan.${strategy}@example.com`, emailVerified: null })
    const orphanKey = new SoftwareAuthenticator()
    await opened.adapter.linkAccount!({
      userId: owner.id,
      type: "webauthn",
      provider: "passkey",
      providerAccountId: orphanKey.credentialId.toString("base64"),
    })
    const client = new Client(freshConfig(), ORIGIN)
    const { options } = await optionsFor(client, { action: "register", email: `claimant.${strategy}@example.com` })
    const forged = new SoftwareAuthenticator({ credentialId: orphanKey.credentialId })
    const response = await answer(client, "register", forged.register({ challenge: options.challenge, origin: ORIGIN, rpId: "app.test" }))

    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=AccountNotLinked`)
    expect(await client.session()).toBeNull()
    expect(await opened.adapter.getUserByEmail!(`claimant.${strategy}@example.com`)).toBeNull()
  })

  it("refuses a replayed challenge and response from an authenticator whose counter never moves", async () => {
    const still = new SoftwareAuthenticator({ countSignatures: false })
    await registerNew(freshConfig(), `still.${strategy}@example.com`, still)
    const client = new Client(config, ORIGIN)
    const { options } = await optionsFor(client, {})
    const signed = still.authenticate({ challenge: options.challenge, origin: ORIGIN, rpId: "app.test" })
    const cookie = client.jar.header()

    expect((await answer(client, "authenticate", signed)).headers.get("location")).toBe(ORIGIN)
    const replayed = await replay(config, cookie, signed)
    expect(replayed.headers.get("location")).toBe(ERROR_PAGE)
    expect(replayed.headers.getSetCookie().join("\n")).not.toContain("session-token")
    expect(lastError()).toBe("WebAuthnVerificationError: This challenge was already used")
  })
})

describe("a spent challenge", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("stays spent for as long as a cookie holding it can still be decoded", async () => {
    const [memory] = storedAdapters
    const opened = await memory!.open()
    const { logger } = recordingLogger()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger,
      adapter: opened.adapter,
      experimental: { enableWebAuthn: true },
      providers: [Passkey()],
    }
    const still = new SoftwareAuthenticator({ countSignatures: false })
    await registerNew(config, "late@example.com", still)

    vi.useFakeTimers({ toFake: ["Date"] })
    const issuedAt = Date.now()
    const client = new Client(config, ORIGIN)
    const { options } = await optionsFor(client, {})
    const signed = still.authenticate({ challenge: options.challenge, origin: ORIGIN, rpId: "app.test" })
    const cookie = client.jar.header()
    vi.setSystemTime(issuedAt + 2_000)
    expect((await answer(client, "authenticate", signed)).headers.get("location")).toBe(ORIGIN)

    // 900 s after it was spent, the cookie (issued 2 s before) still decodes for a few seconds.
    vi.setSystemTime(issuedAt + 2_000 + 910_000)
    expect((await replay(config, cookie, signed)).headers.get("location")).toBe(ERROR_PAGE)
    await opened.close()
  })
})
