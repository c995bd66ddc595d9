/**
 * Passkey ceremonies through `Auth()`, without a browser: the `webauthn-options` route (which
 * ceremony, which options, the challenge cookie), the callback's refusals, registration stored
 * all or nothing, the challenge cookie's Auth.js format, and the configuration errors. The
 * `@simplewebauthn/server` verifications are stubbed (the option generators are the real ones);
 * real signatures are checked in passkey-browser.test.ts.
 */
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt"
import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, AdapterAccount, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import { getSession } from "../../src/framework/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Passkey } from "../../src/providers/passkey.js"
import type {
  SimpleWebAuthnServer,
  VerifiedWebAuthnRegistration,
  WebAuthnConfig,
} from "../../src/providers/types.js"
import { WebAuthn } from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, failureMessage, isFailure, recordingLogger, secret } from "./flow-helpers.js"
import { storedAdapters, type FlowAdapter } from "./stored-adapters.js"

const APP = "https://app.test"
const BASE = `${APP}/auth`
const DASHBOARD = `${APP}/dashboard`
const CHALLENGE_COOKIE = "__Secure-authjs.challenge"
const SESSION_COOKIE = "__Secure-authjs.session-token"
const CHALLENGE_SALT = "encodedWebauthnChallenge"
const VERIFICATION_ERROR = `${BASE}/error?error=WebAuthnVerificationError`
const CONFIGURATION_MESSAGE = "There was a problem with the server configuration. Check the server logs for more information."

type VerifyRegistration = SimpleWebAuthnServer["verifyRegistrationResponse"]
type VerifyAuthentication = SimpleWebAuthnServer["verifyAuthenticationResponse"]

/**
 * `@simplewebauthn/server` with the real option generators and verifications that record what
 * they were asked. By default a registration verifies as the credential the response names, and a
 * sign-in verifies and moves the counter on by one.
 */
function stubWebAuthn(overrides: { verifyRegistrationResponse?: VerifyRegistration; verifyAuthenticationResponse?: VerifyAuthentication } = {}) {
  const registrations: Parameters<VerifyRegistration>[0][] = []
  const authentications: Parameters<VerifyAuthentication>[0][] = []
  const server: SimpleWebAuthnServer = {
    generateAuthenticationOptions,
    generateRegistrationOptions,
    verifyRegistrationResponse: async (options) => {
      registrations.push(options)
      if (overrides.verifyRegistrationResponse) return overrides.verifyRegistrationResponse(options)
      return verifiedRegistration(options.response.id)
    },
    verifyAuthenticationResponse: async (options) => {
      authentications.push(options)
      if (overrides.verifyAuthenticationResponse) return overrides.verifyAuthenticationResponse(options)
      return { verified: true, authenticationInfo: { newCounter: options.credential.counter + 1 } }
    },
  }
  return { server, registrations, authentications }
}

const PUBLIC_KEY = Uint8Array.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0xfb, 0xff])

function verifiedRegistration(id: string): VerifiedWebAuthnRegistration {
  return {
    verified: true,
    registrationInfo: {
      credential: { id, publicKey: PUBLIC_KEY, counter: 0, transports: ["internal"] },
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
    },
  }
}

/** A new base64url credential id whose standard base64 has `+`, `/` and padding. */
function newCredentialId(): string {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  bytes.set([0xfb, 0xff, 0xbf])
  return Buffer.from(bytes).toString("base64url")
}

/** The stored (standard, padded base64) form of a base64url credential id. */
const stored = (base64urlId: string) => Buffer.from(base64urlId, "base64url").toString("base64")

/** What `navigator.credentials.create()` gives, as JSON (only its id matters to the stubbed verification). */
function registrationData(id: string): string {
  return JSON.stringify({
    id,
    rawId: id,
    type: "public-key",
    response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", attestationObject: "o2NmbXRkbm9uZQ", transports: ["internal"] },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  })
}

/** What `navigator.credentials.get()` gives, as JSON. */
function authenticationData(id: string): string {
  return JSON.stringify({
    id,
    rawId: id,
    type: "public-key",
    response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", authenticatorData: "SZYN5YgO", signature: "MEUCIQ" },
    clientExtensionResults: {},
  })
}

interface Setup {
  adapter?: Adapter
  strategy?: "jwt" | "database"
  stub?: ReturnType<typeof stubWebAuthn>
  providers?: AuthConfig["providers"]
  extra?: Partial<AuthConfig>
}

function setup({ adapter = MemoryAdapter(), strategy = "jwt", stub = stubWebAuthn(), providers, extra = {} }: Setup = {}) {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    providers: providers ?? [Passkey({ simpleWebAuthn: stub.server })],
    ...extra,
  }
  // Refusals are one warning line each, faults an error with its object: both are failures.
  const errors = () => log.lines.filter(isFailure)
  const lastError = () => {
    const line = errors().at(-1)
    return line && { code: line.code, message: failureMessage(line) }
  }
  return { config, stub, log, errors, lastError, client: () => new Client(config, APP) }
}

interface OptionsJSON {
  action?: "register" | "authenticate"
  error?: string
  options?: Record<string, unknown> & { challenge: string }
}

async function optionsFor(client: Client, query: Record<string, string> = {}, provider = "passkey") {
  const search = new URLSearchParams(query).toString()
  const response = await client.get(`webauthn-options/${provider}${search ? `?${search}` : ""}`)
  const body = response.headers.get("content-type")?.includes("json") ? ((await response.json()) as OptionsJSON) : undefined
  return { response, body }
}

function postCallback(client: Client, fields: Record<string, string>, provider = "passkey") {
  return client.postForm(`callback/${provider}`, { callbackUrl: DASHBOARD, ...fields })
}

/** Registers a new passkey for `email` (options, then the browser's answer); returns the answer and the credential id. */
async function registerNew(client: Client, email: string) {
  const { body } = await optionsFor(client, { action: "register", email })
  expect(body?.action).toBe("register")
  const id = newCredentialId()
  const response = await postCallback(client, { action: "register", data: registrationData(id) })
  return { response, id }
}

/** The user a passkey (its base64url id) belongs to. */
function userOfPasskey(adapter: Adapter, id: string) {
  return adapter.getUserByAccount!({ provider: "passkey", providerAccountId: stored(id) })
}

function setsSession(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/i.test(line))
}

function setCookieLine(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
}

/** The challenge cookie's contents, read with Auth.js's own `decode`. */
async function challengeOf(client: Client) {
  const outer = await authjsDecode<{ value: string; provider: string }>({ token: client.jar.get(CHALLENGE_COOKIE), secret, salt: CHALLENGE_COOKIE })
  const inner = await authjsDecode<{ challenge: string; registerData?: Record<string, unknown> }>({ token: outer!.value, secret, salt: CHALLENGE_SALT })
  return { outer: outer!, inner: inner! }
}

/** A challenge cookie made as Auth.js makes it. */
async function authjsChallengeCookie(data: { challenge: string; registerData?: Record<string, unknown> }, provider = "passkey"): Promise<string> {
  const value = await authjsEncode({ token: data, secret, salt: CHALLENGE_SALT, maxAge: 900 })
  return authjsEncode({ token: { value, provider }, secret, salt: CHALLENGE_COOKIE, maxAge: 900 })
}

/** A user with two passkeys stored directly, as Auth.js would have stored them. */
async function seedUserWithPasskeys(adapter: Adapter, email: string) {
  const user = await adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: null, name: "Seeded" } as AdapterUser)
  const ids = [newCredentialId(), newCredentialId()]
  const transports = ["usb,nfc", null]
  for (const [index, id] of ids.entries()) {
    const credentialID = stored(id)
    await adapter.linkAccount!({ userId: user.id, provider: "passkey", providerAccountId: credentialID, type: "webauthn" } as AdapterAccount)
    await adapter.createAuthenticator!({
      credentialID,
      providerAccountId: credentialID,
      userId: user.id,
      credentialPublicKey: Buffer.from(PUBLIC_KEY).toString("base64"),
      counter: 7,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: transports[index],
    })
  }
  return { user, ids }
}

describe("GET webauthn-options/passkey", () => {
  it("answers 400 Invalid action for an action other than register or authenticate, setting no cookie", async () => {
    const { client } = setup()
    const { response, body } = await optionsFor(client(), { action: "nonsense", email: "new@example.com" })
    expect(response.status).toBe(400)
    expect(body).toEqual({ error: "Invalid action" })
    expect(setCookieLine(response, CHALLENGE_COOKIE)).toBeUndefined()
  })

  it("answers a known and an unknown address alike, and never with anyone's credential ids (no enumeration)", async () => {
    const adapter = MemoryAdapter()
    const { ids } = await seedUserWithPasskeys(adapter, "taken@example.com")
    const { client } = setup({ adapter })
    /** The answer with what is random in it (challenge, user handle) blanked. */
    const shapeOf = async (query: Record<string, string>) => {
      const { response, body } = await optionsFor(client(), query)
      const options = { ...body?.options, challenge: "*", ...(body?.options?.user ? { user: { ...(body.options.user as object), id: "*" } } : {}) }
      return JSON.stringify({ status: response.status, action: body?.action, options }).replaceAll("taken@example.com", "<address>").replaceAll("free@example.com", "<address>")
    }
    for (const action of [undefined, "authenticate", "register"]) {
      const query = (email: string): Record<string, string> => (action ? { action, email } : { email })
      const known = await shapeOf(query("taken@example.com"))
      expect(known).toBe(await shapeOf(query("free@example.com")))
      for (const id of ids) expect(known).not.toContain(id)
    }
    // Without action, signed out, it is always a sign-in with whatever passkey the device holds.
    expect((await optionsFor(client(), { email: "taken@example.com" })).body).toMatchObject({ action: "authenticate" })
    expect((await optionsFor(client(), { email: "free@example.com" })).body).toMatchObject({ action: "authenticate" })
  })

  it("answers 400 Invalid request when asked to register, signed out, without an address", async () => {
    const { client } = setup()
    const { response, body } = await optionsFor(client(), { action: "register" })
    expect(response.status).toBe(400)
    expect(body).toEqual({ error: "Invalid request" })
  })

  it("offers registration for a new address, with the request URL's relying party, uncached, with a challenge cookie", async () => {
    const { client } = setup()
    const browser = client()
    const { response, body } = await optionsFor(browser, { action: "register", email: "  New.Person@Example.COM " })
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toContain("no-store")
    expect(body?.action).toBe("register")
    const options = body!.options!
    expect(options).toMatchObject({
      rp: { id: "app.test", name: "app.test" },
      user: { name: "new.person@example.com", displayName: "new.person@example.com" },
      excludeCredentials: [],
      // Passkey's defaults: a discoverable credential and user verification.
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      timeout: 300_000,
    })
    // A random 32-byte user handle.
    expect(Buffer.from((options.user as { id: string }).id, "base64url")).toHaveLength(32)
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/)

    const cookie = setCookieLine(response, CHALLENGE_COOKIE)
    expect(cookie).toBeDefined()
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/Secure/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    const { inner } = await challengeOf(browser)
    // The address labels the passkey and becomes the new user's (unproven) address, as in Auth.js.
    expect(inner).toMatchObject({ challenge: options.challenge, registerData: { email: "new.person@example.com" } })
    expect(inner.registerData).not.toHaveProperty("name")
  })

  it("gives each request its own challenge and user handle", async () => {
    const { client } = setup()
    const first = (await optionsFor(client(), { action: "register", email: "same@example.com" })).body!.options!
    const second = (await optionsFor(client(), { action: "register", email: "same@example.com" })).body!.options!
    expect(first.challenge).not.toBe(second.challenge)
    expect((first.user as { id: string }).id).not.toBe((second.user as { id: string }).id)
  })

  it("offers an existing user's email a sign-in with any passkey, listing none of theirs", async () => {
    const adapter = MemoryAdapter()
    await seedUserWithPasskeys(adapter, "seeded@example.com")
    const { client } = setup({ adapter })
    const browser = client()
    const { response, body } = await optionsFor(browser, { email: "seeded@example.com" })
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toContain("no-store")
    expect(body?.action).toBe("authenticate")
    expect(body!.options).toMatchObject({ rpId: "app.test", userVerification: "required", timeout: 300_000 })
    expect(body!.options!.allowCredentials).toBeUndefined()
    const { inner } = await challengeOf(browser)
    expect(inner.challenge).toBe(body!.options!.challenge)
    expect(inner.registerData).toBeUndefined()
  })

  it("offers a sign-in with any passkey when the request names nobody", async () => {
    const { client } = setup()
    const browser = client()
    const { response, body } = await optionsFor(browser)
    expect(response.status).toBe(200)
    expect(body?.action).toBe("authenticate")
    expect(body!.options!.allowCredentials).toBeUndefined()
    expect(body!.options!.rpId).toBe("app.test")
    expect(setCookieLine(response, CHALLENGE_COOKIE)).toBeDefined()
    expect((await challengeOf(browser)).inner).toEqual(expect.objectContaining({ challenge: body!.options!.challenge }))
  })

  it("offers a sign-in when action=authenticate names a new address", async () => {
    const { client } = setup()
    const { body } = await optionsFor(client(), { action: "authenticate", email: "new@example.com" })
    expect(body?.action).toBe("authenticate")
    expect(body!.options!.allowCredentials).toBeUndefined()
  })

  it("takes the relying party from the provider's configuration when it has one", async () => {
    const stub = stubWebAuthn()
    const { client } = setup({
      providers: [Passkey({ simpleWebAuthn: stub.server, relyingParty: { id: ["other.test", "app.test"], name: "The App" } })],
    })
    const { body } = await optionsFor(client(), { action: "register", email: "rp@example.com" })
    expect(body!.options).toMatchObject({ rp: { id: "app.test", name: "The App" } })
  })

  it("redirects an invalid email to the sign-in page with InvalidEmail", async () => {
    const { client } = setup()
    const { response } = await optionsFor(client(), { action: "register", email: "not an address" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${BASE}/signin?error=InvalidEmail`)
    expect(setCookieLine(response, CHALLENGE_COOKIE)).toBeUndefined()
  })

  it("refuses a provider that is not a WebAuthn provider, and one that does not exist", async () => {
    const stub = stubWebAuthn()
    const { client, lastError } = setup({
      providers: [Passkey({ simpleWebAuthn: stub.server }), Credentials({ credentials: {}, authorize: () => null })],
    })
    const credentials = await optionsFor(client(), {}, "credentials")
    expect(credentials.response.status).toBe(302)
    expect(credentials.response.headers.get("location")).toBe(`${BASE}/error?error=InvalidProvider`)
    expect(lastError()).toEqual({ code: "InvalidProvider", message: 'Provider "credentials" is not a WebAuthn provider' })
    expect(setCookieLine(credentials.response, CHALLENGE_COOKIE)).toBeUndefined()

    const missing = await optionsFor(client(), {}, "nope")
    expect(missing.response.headers.get("location")).toBe(`${BASE}/error?error=InvalidProvider`)
    expect(lastError()?.code).toBe("InvalidProvider")
  })

  it("never asks getUserInfo (Auth.js's lookup of who has an address): a stored name would tell who has an account", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ email: "alice@example.com", emailVerified: new Date(), name: "Alice Secretname" })
    const asked: string[] = []
    const stub = stubWebAuthn()
    const provider = Passkey({
      simpleWebAuthn: stub.server,
      getUserInfo: async (request) => {
        asked.push(request.url)
        const user = await adapter.getUserByEmail(new URL(request.url).searchParams.get("email") ?? "")
        return user ? { user, exists: true } : null
      },
    })
    const { client } = setup({ adapter, providers: [provider] })
    const { body } = await optionsFor(client(), { action: "register", email: "alice@example.com" })
    expect(JSON.stringify(body)).not.toContain("Secretname")
    expect(body!.options).toMatchObject({ user: { name: "alice@example.com", displayName: "alice@example.com" } })
    expect(asked).toEqual([])
  })

  it("labels a new passkey with the form's name or username when there is no email, invisible characters dropped", async () => {
    const { client } = setup()
    const { body } = await optionsFor(client(), { action: "register", username: "grace\u200b " })
    expect(body!.options).toMatchObject({ user: { name: "grace", displayName: "grace" } })
    const { response } = await optionsFor(client(), { action: "register", username: "\u200b" })
    expect(response.status).toBe(400)
  })

  describe("signed in", () => {
    it("refuses a request without action (400 Invalid request)", async () => {
      const { client } = setup()
      const browser = client()
      expect(setsSession((await registerNew(browser, "signed-in@example.com")).response)).toBe(true)
      const { response, body } = await optionsFor(browser)
      expect(response.status).toBe(400)
      expect(body).toEqual({ error: "Invalid request" })
    })

    it("offers to add a passkey on action=register, excluding the user's passkeys, for the signed-in user", async () => {
      const adapter = MemoryAdapter()
      const { client } = setup({ adapter })
      const browser = client()
      const { id } = await registerNew(browser, "adder@example.com")
      const user = await userOfPasskey(adapter, id)

      // An email in the query does not change who the passkey is for.
      const { response, body } = await optionsFor(browser, { action: "register", email: "someone-else@example.com" })
      expect(response.status).toBe(200)
      expect(body?.action).toBe("register")
      expect(body!.options).toMatchObject({ user: { name: "adder@example.com" } })
      expect(body!.options!.excludeCredentials).toEqual([expect.objectContaining({ id, transports: ["internal"] })])
      expect((await challengeOf(browser)).inner.registerData).toEqual({ id: user!.id })
    })

    it("never offers another user's passkeys, whatever the adapter lists (a buggy or shared store)", async () => {
      const adapter = MemoryAdapter()
      const { client } = setup({ adapter })
      const theirs = await registerNew(client(), "theirs@example.com")
      const owner = await userOfPasskey(adapter, theirs.id)
      const leaky: typeof adapter = {
        ...adapter,
        listAuthenticatorsByUserId: async (userId) => [...(await adapter.listAuthenticatorsByUserId(userId)), ...(await adapter.listAuthenticatorsByUserId(owner!.id))],
      }
      const { client: leakyClient } = setup({ adapter: leaky })
      const browser = leakyClient()
      const mine = await registerNew(browser, "mine@example.com")
      const { body } = await optionsFor(browser, { action: "register" })
      expect(body!.options!.excludeCredentials).toEqual([expect.objectContaining({ id: mine.id })])
    })

    it("offers a sign-in on action=authenticate", async () => {
      const { client } = setup()
      const browser = client()
      await registerNew(browser, "auth-again@example.com")
      expect((await optionsFor(browser, { action: "authenticate" })).body?.action).toBe("authenticate")
    })
  })
})

describe("the challenge cookie, in Auth.js's format", () => {
  it("decodes with @auth/core's decode: {value, provider} under the cookie's name, then {challenge, registerData}", async () => {
    const { client } = setup()
    const browser = client()
    const { body } = await optionsFor(browser, { action: "register", email: "interop@example.com" })
    const { outer, inner } = await challengeOf(browser)
    expect(outer.provider).toBe("passkey")
    expect(typeof outer.value).toBe("string")
    expect(inner.challenge).toBe(body!.options!.challenge)
    expect(inner.registerData).toEqual({ email: "interop@example.com" })
    // An expiry 15 minutes out, as Auth.js gives it.
    const expires = (inner as { exp?: number }).exp!
    expect(expires - Date.now() / 1000).toBeGreaterThan(890)
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(900)
  })

  it("accepts a registration challenge Auth.js made, checking the response against its challenge", async () => {
    const adapter = MemoryAdapter()
    const { client, stub } = setup({ adapter })
    const browser = client()
    browser.jar.cookies.set(
      CHALLENGE_COOKIE,
      await authjsChallengeCookie({ challenge: "challenge-from-authjs", registerData: { email: "from-authjs@example.com", name: "From Auth.js" } }),
    )
    const id = newCredentialId()
    const response = await postCallback(browser, { action: "register", data: registrationData(id) })
    expect(response.headers.get("location")).toBe(DASHBOARD)
    expect(setsSession(response)).toBe(true)
    expect(stub.registrations).toHaveLength(1)
    expect(stub.registrations[0]).toMatchObject({ expectedChallenge: "challenge-from-authjs", expectedOrigin: [APP], expectedRPID: ["app.test"] })
    // Auth.js's registerData is read as Auth.js reads it: the address, not proven, and the name.
    expect(await userOfPasskey(adapter, id)).toMatchObject({ email: "from-authjs@example.com", emailVerified: null, name: "From Auth.js" })
    // The challenge cookie is cleared once used.
    expect(setCookieLine(response, CHALLENGE_COOKIE)).toMatch(/Max-Age=0/i)
  })

  it("accepts a sign-in challenge Auth.js made", async () => {
    const adapter = MemoryAdapter()
    const { ids } = await seedUserWithPasskeys(adapter, "seeded-authjs@example.com")
    const { client, stub } = setup({ adapter })
    const browser = client()
    browser.jar.cookies.set(CHALLENGE_COOKIE, await authjsChallengeCookie({ challenge: "sign-in-challenge-from-authjs" }))
    const response = await postCallback(browser, { action: "authenticate", data: authenticationData(ids[0]!) })
    expect(response.headers.get("location")).toBe(DASHBOARD)
    expect(stub.authentications[0]?.expectedChallenge).toBe("sign-in-challenge-from-authjs")
  })
})

describe("POST callback/passkey refusals", () => {
  async function expectRefused(response: Response, lastError: () => { code: string; message: string } | undefined, message?: RegExp) {
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expect(setsSession(response)).toBe(false)
    expect(lastError()?.code).toBe("WebAuthnVerificationError")
    if (message) expect(lastError()?.message).toMatch(message)
  }

  it.each([
    ["no action", {}],
    ["an unknown action", { action: "login" }],
  ])("refuses %s", async (_case, fields: Record<string, string>) => {
    const { client, stub, lastError } = setup()
    const browser = client()
    await optionsFor(browser, { action: "register", email: "no-action@example.com" })
    await expectRefused(await postCallback(browser, { ...fields, data: registrationData(newCredentialId()) }), lastError, /Invalid action/)
    expect(stub.registrations).toHaveLength(0)
  })

  it.each([
    ["missing", undefined],
    ["not JSON", "{not json"],
    ["over 32 KiB", JSON.stringify({ ...JSON.parse(registrationData("AAAA")), padding: "x".repeat(33 * 1024) })],
  ])("refuses data that is %s", async (_case, data) => {
    const { client, stub, lastError } = setup()
    const browser = client()
    await optionsFor(browser, { action: "register", email: "bad-data@example.com" })
    await expectRefused(await postCallback(browser, { action: "register", ...(data !== undefined && { data }) }), lastError)
    expect(stub.registrations).toHaveLength(0)
  })

  it.each([
    ["JSON null", "null"],
    ["a string", '"public-key"'],
    ["of another type", JSON.stringify({ ...JSON.parse(registrationData("AAAA")), type: "password" })],
    ["without rawId", JSON.stringify({ ...JSON.parse(registrationData("AAAA")), rawId: undefined })],
    ["without response", JSON.stringify({ ...JSON.parse(registrationData("AAAA")), response: null })],
    ["without attestationObject", JSON.stringify({ ...JSON.parse(registrationData("AAAA")), response: { clientDataJSON: "e30" } })],
  ])("refuses data that is not a public-key credential: %s", async (_case, data) => {
    const { client, stub, lastError } = setup()
    const browser = client()
    await optionsFor(browser, { action: "register", email: "not-credential@example.com" })
    await expectRefused(await postCallback(browser, { action: "register", data }), lastError)
    expect(stub.registrations).toHaveLength(0)
  })

  it("refuses a response without a challenge cookie", async () => {
    const adapter = MemoryAdapter()
    const { client, stub, lastError } = setup({ adapter })
    await expectRefused(
      await postCallback(client(), { action: "register", data: registrationData(newCredentialId()) }),
      lastError,
      /challenge cookie is missing/,
    )
    expect(stub.registrations).toHaveLength(0)
  })

  it("refuses a challenge cookie made for another provider id", async () => {
    const adapter = MemoryAdapter()
    const { ids } = await seedUserWithPasskeys(adapter, "two-providers@example.com")
    const stub = stubWebAuthn()
    const { client, lastError } = setup({
      adapter,
      providers: [Passkey({ simpleWebAuthn: stub.server }), WebAuthn({ simpleWebAuthn: stub.server, enableConditionalUI: false })],
    })
    const browser = client()
    await optionsFor(browser, {}, "webauthn")
    expect(browser.jar.get(CHALLENGE_COOKIE)).toBeTruthy()
    await expectRefused(await postCallback(browser, { action: "authenticate", data: authenticationData(ids[0]!) }, "passkey"), lastError, /not for this provider/)
    expect(stub.authentications).toHaveLength(0)
  })

  it("refuses a sign-in with a credential id no passkey has", async () => {
    const adapter = MemoryAdapter()
    await seedUserWithPasskeys(adapter, "known@example.com")
    const { client, stub, lastError } = setup({ adapter })
    const browser = client()
    await optionsFor(browser)
    await expectRefused(
      await postCallback(browser, { action: "authenticate", data: authenticationData(newCredentialId()) }),
      lastError,
      /No passkey is registered with this credential id/,
    )
    expect(stub.authentications).toHaveLength(0)
  })

  it("refuses a sign-in with a credential id that is not base64url", async () => {
    const { client, lastError } = setup()
    const browser = client()
    await optionsFor(browser)
    await expectRefused(await postCallback(browser, { action: "authenticate", data: authenticationData("+/8=") }), lastError, /not base64url/)
  })

  it("refuses to register with a challenge issued for signing in (no registerData)", async () => {
    const adapter = MemoryAdapter()
    const { client, stub, lastError } = setup({ adapter })
    const browser = client()
    expect((await optionsFor(browser)).body?.action).toBe("authenticate")
    const id = newCredentialId()
    await expectRefused(await postCallback(browser, { action: "register", data: registrationData(id) }), lastError, /issued for signing in/)
    expect(stub.registrations).toHaveLength(0)
    expect(await adapter.getAccount(stored(id), "passkey")).toBeNull()
  })

  it("refuses a response the verification rejects or throws on, storing nothing", async () => {
    const adapter = MemoryAdapter()
    for (const verify of [
      async () => ({ verified: false }),
      async () => {
        throw new Error("Unexpected registration response origin")
      },
    ] satisfies VerifyRegistration[]) {
      const { client, lastError } = setup({ adapter, stub: stubWebAuthn({ verifyRegistrationResponse: verify }) })
      const browser = client()
      await optionsFor(browser, { action: "register", email: "unverified@example.com" })
      const id = newCredentialId()
      await expectRefused(await postCallback(browser, { action: "register", data: registrationData(id) }), lastError, /did not verify/)
      expect(await userOfPasskey(adapter, id)).toBeNull()
    }
  })

  it("refuses a sign-in the verification rejects, leaving the counter alone", async () => {
    const adapter = MemoryAdapter()
    const { ids } = await seedUserWithPasskeys(adapter, "rejected@example.com")
    const { client, lastError } = setup({
      adapter,
      stub: stubWebAuthn({ verifyAuthenticationResponse: async () => ({ verified: false, authenticationInfo: { newCounter: 99 } }) }),
    })
    const browser = client()
    await optionsFor(browser, { email: "rejected@example.com" })
    await expectRefused(await postCallback(browser, { action: "authenticate", data: authenticationData(ids[0]!) }), lastError, /did not verify/)
    expect((await adapter.getAuthenticator(stored(ids[0]!)))?.counter).toBe(7)
  })

  it("refuses a challenge cookie and response replayed after they signed in once", async () => {
    const adapter = MemoryAdapter()
    const { ids } = await seedUserWithPasskeys(adapter, "replayed@example.com")
    const { client, lastError } = setup({ adapter })
    const browser = client()
    await optionsFor(browser, { email: "replayed@example.com" })
    const cookie = browser.jar.header()
    const body = { action: "authenticate", data: authenticationData(ids[0]!) }
    expect((await postCallback(browser, body)).headers.get("location")).toBe(DASHBOARD)

    const attacker = client()
    attacker.jar.cookies.set(CHALLENGE_COOKIE, cookie.split("; ").find((pair) => pair.startsWith(`${CHALLENGE_COOKIE}=`))!.slice(CHALLENGE_COOKIE.length + 1))
    await expectRefused(await postCallback(attacker, body), lastError, /already used/)
  })
})

describe("the challenge cookie once the callback has ended the ceremony", () => {
  /** The challenge cookie's deletion in `response`, and that the browser no longer holds one. */
  function expectChallengeGone(response: Response, browser: Client) {
    expect(setCookieLine(response, CHALLENGE_COOKIE)).toMatch(/Max-Age=0/i)
    expect(browser.jar.get(CHALLENGE_COOKIE)).toBeUndefined()
  }

  it("is deleted by a sign-in that succeeded", async () => {
    const adapter = MemoryAdapter()
    const { ids } = await seedUserWithPasskeys(adapter, "signed-in@example.com")
    const { client } = setup({ adapter })
    const browser = client()
    await optionsFor(browser)
    const response = await postCallback(browser, { action: "authenticate", data: authenticationData(ids[0]!) })
    expect(response.headers.get("location")).toBe(DASHBOARD)
    expectChallengeGone(response, browser)
  })

  it.each([
    ["an unknown action", { action: "login", data: authenticationData("AAAA") }],
    ["data that is not JSON", { action: "authenticate", data: "{not json" }],
    ["a credential id no passkey has", { action: "authenticate", data: authenticationData(newCredentialId()) }],
    ["a registration answering a sign-in's challenge", { action: "register", data: registrationData(newCredentialId()) }],
  ])("is deleted by a refusal: %s", async (_case, fields: Record<string, string>) => {
    const { client } = setup()
    const browser = client()
    await optionsFor(browser)
    expect(browser.jar.get(CHALLENGE_COOKIE)).toBeTruthy()
    const response = await postCallback(browser, fields)
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expectChallengeGone(response, browser)
  })

  it("is deleted when the verification rejects the answer or throws", async () => {
    for (const verify of [async () => ({ verified: false }), async () => Promise.reject(new Error("Unexpected registration response origin"))] satisfies VerifyRegistration[]) {
      const { client } = setup({ stub: stubWebAuthn({ verifyRegistrationResponse: verify }) })
      const browser = client()
      await optionsFor(browser, { action: "register", email: "rejected-challenge@example.com" })
      const response = await postCallback(browser, { action: "register", data: registrationData(newCredentialId()) })
      expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
      expectChallengeGone(response, browser)
    }
  })

  it("is deleted when it no longer decodes (another secret, tampered)", async () => {
    const { client } = setup()
    const browser = client()
    browser.jar.cookies.set(CHALLENGE_COOKIE, "not-a-token")
    const response = await postCallback(browser, { action: "authenticate", data: authenticationData(newCredentialId()) })
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expectChallengeGone(response, browser)
  })

  it("stays when it is another provider's, or when the callback was a GET any page can send the browser to", async () => {
    const stub = stubWebAuthn()
    const { client } = setup({ providers: [Passkey({ simpleWebAuthn: stub.server }), WebAuthn({ simpleWebAuthn: stub.server, enableConditionalUI: false })] })
    const browser = client()
    await optionsFor(browser, {}, "webauthn")
    const held = browser.jar.get(CHALLENGE_COOKIE)
    const other = await postCallback(browser, { action: "authenticate", data: authenticationData(newCredentialId()) }, "passkey")
    expect(setCookieLine(other, CHALLENGE_COOKIE)).toBeUndefined()
    const get = await browser.get(`callback/webauthn?action=authenticate`)
    expect(setCookieLine(get, CHALLENGE_COOKIE)).toBeUndefined()
    expect(browser.jar.get(CHALLENGE_COOKIE)).toBe(held)
  })
})

describe("signed-in registration while the session changed", () => {
  it("refuses a registration begun signed out and finished signed in as someone", async () => {
    const adapter = MemoryAdapter()
    const { client, stub, lastError } = setup({ adapter })
    const someone = client()
    const { id: someoneId } = await registerNew(someone, "someone@example.com")
    const victimSession = someone.jar.cookies.get(SESSION_COOKIE)
    expect(victimSession).toBeTruthy()

    const browser = client()
    expect((await optionsFor(browser, { action: "register", email: "begun-signed-out@example.com" })).body?.action).toBe("register")
    browser.jar.cookies.set(SESSION_COOKIE, victimSession!)
    const id = newCredentialId()
    const response = await postCallback(browser, { action: "register", data: registrationData(id) })
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expect(lastError()).toEqual({ code: "WebAuthnVerificationError", message: "The session changed while the passkey was being created" })
    expect(stub.registrations).toHaveLength(1)
    const someoneUser = await userOfPasskey(adapter, someoneId)
    expect(await adapter.listAuthenticatorsByUserId(someoneUser!.id)).toHaveLength(1)
    expect(await adapter.getAccount(stored(id), "passkey")).toBeNull()
  })

  it("refuses a passkey begun for the signed-in user and finished signed out", async () => {
    const adapter = MemoryAdapter()
    const { client, lastError } = setup({ adapter })
    const browser = client()
    await registerNew(browser, "was-signed-in@example.com")
    expect((await optionsFor(browser, { action: "register" })).body?.action).toBe("register")
    browser.jar.cookies.delete(SESSION_COOKIE)
    const id = newCredentialId()
    const response = await postCallback(browser, { action: "register", data: registrationData(id) })
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expect(lastError()?.message).toBe("The session changed while the passkey was being created")
    expect(await adapter.getAccount(stored(id), "passkey")).toBeNull()
  })
})

describe("passkeys and other users", () => {
  it("gives the address to the first of two signed-out registrations naming it, and refuses the second once its passkey exists: never joined", async () => {
    const adapter = MemoryAdapter()
    const { client, lastError } = setup({ adapter })
    const first = client()
    const second = client()
    expect((await optionsFor(first, { action: "register", email: "race@example.com" })).body?.action).toBe("register")
    expect((await optionsFor(second, { action: "register", email: "race@example.com" })).body?.action).toBe("register")
    const firstId = newCredentialId()
    const secondId = newCredentialId()
    expect((await postCallback(first, { action: "register", data: registrationData(firstId) })).headers.get("location")).toBe(DASHBOARD)
    const refused = await postCallback(second, { action: "register", data: registrationData(secondId) })
    expect(refused.headers.get("location")).toBe(`${BASE}/signin?error=AccountNotLinked`)
    expect(setsSession(refused)).toBe(false)
    expect(lastError()?.code).toBe("AccountNotLinked")
    const one = await userOfPasskey(adapter, firstId)
    expect(one).toMatchObject({ email: "race@example.com", emailVerified: null })
    expect((await adapter.getUserByEmail("race@example.com"))?.id).toBe(one!.id)
    expect(await userOfPasskey(adapter, secondId)).toBeNull()
    expect(await adapter.getAuthenticator(stored(secondId))).toBeNull()
    expect((await adapter.listAuthenticatorsByUserId(one!.id)).map((a) => a.credentialID)).toEqual([stored(firstId)])
  })

  it("refuses to register, signed out, a credential id that is already someone's passkey, and signs nobody in as its owner", async () => {
    const adapter = MemoryAdapter()
    const { user: owner, ids } = await seedUserWithPasskeys(adapter, "owner@example.com")
    const { client, lastError } = setup({ adapter })
    const attacker = client()
    expect((await optionsFor(attacker, { action: "register", email: "attacker@example.com" })).body?.action).toBe("register")
    const response = await postCallback(attacker, { action: "register", data: registrationData(ids[0]!) })
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expect(setsSession(response)).toBe(false)
    expect(lastError()?.code).toBe("WebAuthnVerificationError")
    expect(await attacker.session()).toBeNull()
    expect(await adapter.getUserByAccount({ provider: "passkey", providerAccountId: stored(ids[0]!) })).toMatchObject({ id: owner.id })
    expect(await adapter.getAuthenticator(stored(ids[0]!))).toMatchObject({ userId: owner.id, counter: 7, credentialDeviceType: "singleDevice" })
  })

  it("refuses to add to the signed-in account a credential id that is already someone else's passkey", async () => {
    const adapter = MemoryAdapter()
    const { user: owner, ids } = await seedUserWithPasskeys(adapter, "owner@example.com")
    const { client, lastError } = setup({ adapter })
    const attacker = client()
    await registerNew(attacker, "signed-in-attacker@example.com")
    expect((await optionsFor(attacker, { action: "register" })).body?.action).toBe("register")
    const response = await postCallback(attacker, { action: "register", data: registrationData(ids[1]!) })
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expect(lastError()?.code).toBe("WebAuthnVerificationError")
    expect((await adapter.getAccount(stored(ids[1]!), "passkey"))?.userId).toBe(owner.id)
    expect((await adapter.getAuthenticator(stored(ids[1]!)))?.userId).toBe(owner.id)
  })

  it("refuses a sign-in through one WebAuthn provider with a passkey registered through another", async () => {
    const adapter = MemoryAdapter()
    const stub = stubWebAuthn()
    const { client, lastError } = setup({
      adapter,
      providers: [Passkey({ simpleWebAuthn: stub.server }), WebAuthn({ simpleWebAuthn: stub.server, enableConditionalUI: false })],
    })
    const registering = client()
    await optionsFor(registering, { action: "register", email: "via-webauthn@example.com" }, "webauthn")
    const id = newCredentialId()
    const registered = await postCallback(registering, { action: "register", data: registrationData(id) }, "webauthn")
    expect(registered.headers.get("location")).toBe(DASHBOARD)
    expect((await adapter.getAccount(stored(id), "webauthn"))?.type).toBe("webauthn")

    const browser = client()
    await optionsFor(browser)
    const response = await postCallback(browser, { action: "authenticate", data: authenticationData(id) })
    expect(response.headers.get("location")).toBe(VERIFICATION_ERROR)
    expect(setsSession(response)).toBe(false)
    expect(lastError()?.message).toMatch(/has no account of provider "passkey"/)
  })

  it("refuses a sign-in with someone else's passkey while signed in (AccountNotLinked)", async () => {
    const adapter = MemoryAdapter()
    const { ids } = await seedUserWithPasskeys(adapter, "owner@example.com")
    const { client, lastError } = setup({ adapter })
    const browser = client()
    await registerNew(browser, "intruder@example.com")
    await optionsFor(browser, { action: "authenticate" })
    const response = await postCallback(browser, { action: "authenticate", data: authenticationData(ids[0]!) })
    expect(response.headers.get("location")).toBe(`${BASE}/signin?error=AccountNotLinked`)
    expect(setsSession(response)).toBe(false)
    expect(lastError()?.message).toBe("The account is already associated with another user")
    expect(await browser.session()).toMatchObject({ user: { email: "intruder@example.com" } })
  })
})

describe.each(storedAdapters)("passkey registration and sign-in ($name)", (store) => {
  let adapter: FlowAdapter
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ adapter, close } = await store.open())
  })
  afterAll(() => close?.())
  /** Tells this store's addresses apart in a shared database (addresses are lower-cased when read). */
  const tag = store.name.replace(/\W/g, "").toLowerCase()

  for (const strategy of ["jwt", "database"] as const) {
    it(`registers a new user with a passkey and signs them in (${strategy} sessions)`, async () => {
      const { client, stub, errors } = setup({ adapter, strategy })
      const browser = client()
      const email = `new-${strategy}-${tag}@example.com`
      const { response, id } = await registerNew(browser, email)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(DASHBOARD)
      expect(setsSession(response)).toBe(true)
      expect(setCookieLine(response, CHALLENGE_COOKIE)).toMatch(/Max-Age=0/i)
      expect(errors()).toEqual([])

      const [verification] = stub.registrations
      expect(verification).toMatchObject({ expectedOrigin: [APP], expectedRPID: ["app.test"], requireUserVerification: true })
      expect(verification!.response.id).toBe(id)

      const credentialID = stored(id)
      expect(credentialID).toMatch(/^\+\/\+\//)
      const user = await userOfPasskey(adapter, id)
      // The address typed is the user's, not proven: a sign-in that proves it claims the account.
      expect(user).toMatchObject({ email, emailVerified: null })
      expect((await adapter.getUserByEmail!(email))?.id).toBe(user!.id)
      expect(await adapter.getAccount!(credentialID, "passkey")).toMatchObject({
        userId: user!.id,
        provider: "passkey",
        type: "webauthn",
        providerAccountId: credentialID,
      })
      expect(await adapter.getAuthenticator!(credentialID)).toMatchObject({
        credentialID,
        providerAccountId: credentialID,
        userId: user!.id,
        credentialPublicKey: Buffer.from(PUBLIC_KEY).toString("base64"),
        counter: 0,
        credentialDeviceType: "multiDevice",
        credentialBackedUp: true,
        transports: "internal",
      })
      expect(await browser.session()).toMatchObject({ user: { email } })
    })

    it(`signs a returning user in with their passkey, moving the counter on (${strategy} sessions)`, async () => {
      const { client, stub } = setup({ adapter, strategy })
      const email = `returning-${strategy}-${tag}@example.com`
      const { id } = await registerNew(client(), email)

      const browser = client()
      const { body } = await optionsFor(browser, { email })
      expect(body?.action).toBe("authenticate")
      expect(body!.options!.allowCredentials).toBeUndefined()
      const response = await postCallback(browser, { action: "authenticate", data: authenticationData(id) })
      expect(response.headers.get("location")).toBe(DASHBOARD)
      expect(setsSession(response)).toBe(true)
      expect(await browser.session()).toMatchObject({ user: { email } })

      const [verification] = stub.authentications
      expect(verification).toMatchObject({
        expectedChallenge: body!.options!.challenge,
        expectedOrigin: [APP],
        expectedRPID: ["app.test"],
        requireUserVerification: true,
        credential: { id, counter: 0, transports: ["internal"] },
      })
      expect(Uint8Array.from(verification!.credential.publicKey)).toEqual(PUBLIC_KEY)
      expect((await adapter.getAuthenticator!(stored(id)))?.counter).toBe(1)
    })

    it(`adds a second passkey to the signed-in user (${strategy} sessions)`, async () => {
      const { client } = setup({ adapter, strategy })
      const browser = client()
      const email = `second-${strategy}-${tag}@example.com`
      const first = await registerNew(browser, email)
      const { body } = await optionsFor(browser, { action: "register" })
      expect(body?.action).toBe("register")
      expect(body!.options!.excludeCredentials).toEqual([expect.objectContaining({ id: first.id })])
      const second = newCredentialId()
      const response = await postCallback(browser, { action: "register", data: registrationData(second) })
      expect(response.headers.get("location")).toBe(DASHBOARD)
      const user = await userOfPasskey(adapter, first.id)
      const ids = (await adapter.listAuthenticatorsByUserId!(user!.id)).map((a) => a.credentialID).sort()
      expect(ids).toEqual([stored(first.id), stored(second)].sort())
      expect((await adapter.getAccount!(stored(second), "passkey"))?.userId).toBe(user!.id)
    })
  }

  it("stores nothing when the authenticator cannot be stored: no user, no account (Configuration, AdapterError logged)", async () => {
    const failing: Adapter = {
      ...adapter,
      createAuthenticator: async () => {
        throw new Error("disk full")
      },
    }
    const { client, lastError, errors } = setup({ adapter: failing })
    const browser = client()
    const email = `all-or-nothing-${tag}@example.com`
    const { response, id } = await registerNew(browser, email)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${BASE}/error?error=Configuration`)
    expect(setsSession(response)).toBe(false)
    expect(lastError()).toEqual({ code: "AdapterError", message: "Adapter method createAuthenticator failed" })
    expect(errors()).toHaveLength(1)
    expect(((errors()[0]!.message[0] as Error).cause as { err?: Error }).err?.message).toBe("disk full")

    const credentialID = stored(id)
    expect(await adapter.getAccount!(credentialID, "passkey")).toBeNull()
    expect(await adapter.getUserByAccount!({ provider: "passkey", providerAccountId: credentialID })).toBeNull()
    expect(await adapter.getAuthenticator!(credentialID)).toBeNull()

    // A retry once the store works again succeeds: the address was not left taken.
    const { client: retryClient } = setup({ adapter })
    const retried = await registerNew(retryClient(), email)
    expect(retried.response.headers.get("location")).toBe(DASHBOARD)
  })

  it("keeps the signed-in user but not the new account when their second passkey cannot be stored", async () => {
    const { client } = setup({ adapter })
    const browser = client()
    const email = `second-fails-${tag}@example.com`
    const first = await registerNew(browser, email)
    const user = await userOfPasskey(adapter, first.id)

    const failing: Adapter = {
      ...adapter,
      createAuthenticator: async () => {
        throw new Error("disk full")
      },
    }
    const broken = setup({ adapter: failing })
    const sameBrowser = broken.client()
    for (const [name, value] of browser.jar.cookies) sameBrowser.jar.cookies.set(name, value)
    expect((await optionsFor(sameBrowser, { action: "register" })).body?.action).toBe("register")
    const second = newCredentialId()
    const response = await postCallback(sameBrowser, { action: "register", data: registrationData(second) })
    expect(response.headers.get("location")).toBe(`${BASE}/error?error=Configuration`)

    expect(await adapter.getUser!(user!.id)).toMatchObject({ email })
    expect(await adapter.getAccount!(stored(second), "passkey")).toBeNull()
    expect((await adapter.listAuthenticatorsByUserId!(user!.id)).map((a) => a.credentialID)).toEqual([stored(first.id)])
  })

  it("stores nothing and answers AccessDenied when the signIn callback says no", async () => {
    const seen: unknown[] = []
    const { client, stub } = setup({ adapter, extra: { callbacks: { signIn: (params) => (seen.push(params), false) } } })
    const browser = client()
    const email = `denied-${tag}@example.com`
    const { response, id } = await registerNew(browser, email)
    expect(response.headers.get("location")).toBe(`${BASE}/error?error=AccessDenied`)
    expect(setsSession(response)).toBe(false)
    expect(stub.registrations).toHaveLength(1)
    expect(seen[0]).toMatchObject({ account: { provider: "passkey", type: "webauthn", providerAccountId: stored(id) } })
    // The typed address, which nobody proved: a callback that trusts a domain must see that.
    expect((seen[0] as { user: unknown }).user).toEqual({ email, emailVerified: null })
    expect(await adapter.getAccount!(stored(id), "passkey")).toBeNull()
    expect(await adapter.getAuthenticator!(stored(id))).toBeNull()
  })
})

describe("the check of the passkey library's version", () => {
  it("asks the library once per configuration, on the auth routes only: a session read never calls it", async () => {
    let probes = 0
    const server: SimpleWebAuthnServer = {
      ...stubWebAuthn().server,
      generateRegistrationOptions: (options) => (probes++, generateRegistrationOptions(options)),
    }
    const config = { secret, trustHost: true, adapter: MemoryAdapter(), experimental: { enableWebAuthn: true }, providers: [Passkey({ simpleWebAuthn: server })] }
    // Reading sessions in-process (what auth() and locals.auth() do) starts no ceremony and asks nothing.
    for (let i = 0; i < 3; i++) expect(await getSession(new Request(`${BASE}/session`), config)).toMatchObject({ session: null })
    expect(probes).toBe(0)
    for (let i = 0; i < 3; i++) expect((await Auth(new Request(`${BASE}/session`), config)).status).toBe(200)
    expect(probes).toBe(1)
  })
})

describe("configuration errors answered by Auth()", () => {
  async function startupError(config: Partial<AuthConfig>) {
    const log = recordingLogger()
    const full = { secret, trustHost: true, logger: log.logger, ...config } as AuthConfig
    const response = await Auth(new Request(`${BASE}/webauthn-options/passkey`), full as Omit<AuthConfig, "raw">)
    const error = log.lines.find((line) => line.level === "error")
    return { response, body: await response.json(), code: error?.code, message: (error?.message[0] as Error | undefined)?.message }
  }
  const stub = stubWebAuthn()
  const enabled = { experimental: { enableWebAuthn: true } }

  it("answers ExperimentalFeatureNotEnabled with 500 JSON when WebAuthn is not switched on", async () => {
    for (const experimental of [undefined, { enableWebAuthn: false }]) {
      const { response, body, code } = await startupError({ adapter: MemoryAdapter(), providers: [Passkey({ simpleWebAuthn: stub.server })], ...(experimental && { experimental }) })
      expect(response.status).toBe(500)
      expect(body).toEqual({ message: CONFIGURATION_MESSAGE })
      expect(code).toBe("ExperimentalFeatureNotEnabled")
    }
  })

  it("answers MissingAdapter without an adapter", async () => {
    const { response, body, code } = await startupError({ ...enabled, providers: [Passkey({ simpleWebAuthn: stub.server })] })
    expect(response.status).toBe(500)
    expect(body).toEqual({ message: CONFIGURATION_MESSAGE })
    expect(code).toBe("MissingAdapter")
  })

  it("answers MissingAdapterMethods for an adapter that cannot store authenticators", async () => {
    const { createAuthenticator: _dropped, ...adapter } = MemoryAdapter()
    const { response, code, message } = await startupError({ ...enabled, adapter, providers: [Passkey({ simpleWebAuthn: stub.server })] })
    expect(response.status).toBe(500)
    expect(code).toBe("MissingAdapterMethods")
    expect(message).toBe("Required adapter methods were missing: createAuthenticator")
  })

  it("answers InvalidConfig for a hand-written WebAuthn provider without simpleWebAuthn", async () => {
    const handWritten: WebAuthnConfig = {
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      formFields: { email: { label: "Email", autocomplete: "username webauthn" } },
    }
    const { response, code, message } = await startupError({ ...enabled, adapter: MemoryAdapter(), providers: [handWritten] })
    expect(response.status).toBe(500)
    expect(code).toBe("InvalidConfig")
    expect(message).toMatch(/has no simpleWebAuthn functions/)
  })

  it.each([
    ["not a url", "not a url"],
    ["a path after the origin", "https://app.test/"],
    ["not http(s)", "ftp://app.test"],
  ])("answers InvalidConfig for relyingParty.origin that is %s", async (_case, origin) => {
    const provider = Passkey({ simpleWebAuthn: stub.server, relyingParty: { origin } })
    const { response, code, message } = await startupError({ ...enabled, adapter: MemoryAdapter(), providers: [provider] })
    expect(response.status).toBe(500)
    expect(code).toBe("InvalidConfig")
    expect(message).toContain(JSON.stringify(origin))
  })

  it("checks origins in a list and under Auth.js's relayingParty spelling too", async () => {
    const provider = Passkey({ simpleWebAuthn: stub.server, relayingParty: { origin: ["https://app.test", "not a url"] } })
    const { code } = await startupError({ ...enabled, adapter: MemoryAdapter(), providers: [provider] })
    expect(code).toBe("InvalidConfig")
  })

  it("serves a sound configuration, warning once that WebAuthn is experimental", async () => {
    const log = recordingLogger()
    // A base path no other configuration here has: a warning is shown once per process and configuration.
    const basePath = "/sound"
    const config = { secret, trustHost: true, basePath, logger: log.logger, adapter: MemoryAdapter(), ...enabled, providers: [Passkey({ simpleWebAuthn: stub.server })] }
    const first = await Auth(new Request(`${APP}${basePath}/webauthn-options/passkey`), config)
    await Auth(new Request(`${APP}${basePath}/webauthn-options/passkey`), { ...config })
    expect(first.status).toBe(200)
    expect(log.lines.filter((line) => line.code === "experimental-webauthn")).toHaveLength(1)
    expect(log.lines.filter((line) => line.level === "error")).toEqual([])
  })
})
