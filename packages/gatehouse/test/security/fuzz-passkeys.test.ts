/**
 * Fuzzing the passkey callback with answers from a software authenticator (real P-256
 * signatures, verified by the real `@simplewebauthn/server`): the genuine answer signs in, and
 * every change to what the signature or the server's checks cover (ids, type, client data,
 * authenticator data, signature, a challenge, origin or RP id the ceremony did not ask for) is
 * refused without a session. The one exception is the signature's outer DER envelope, which the
 * verifier does not read (see SIGNATURE_ENVELOPE_BYTES): a change there may be accepted, and
 * fuzz-regressions.test.ts shows it buys no second sign-in. Registrations with damaged or random
 * attestation objects (CBOR from the client) are answered without a 5xx, a leak or a hang.
 *
 * Runs and seed: GATEHOUSE_FUZZ_RUNS and GATEHOUSE_FUZZ_SEED, as described in fuzz-settings.ts.
 */
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { Client } from "../flow/flow-helpers.js"
import { SoftwareAuthenticator, type CredentialJSON } from "../support/software-authenticator.js"
import { expectNoLeak, expectOwnCookies, expectRedirectsStay, readAnswer, type Answer } from "./fuzz-checks.js"
import type { LoggedLine } from "./fuzz-configs.js"
import { fuzzParameters, fuzzTimeout, settleWithin } from "./fuzz-settings.js"

const ORIGIN = "https://app.test"
const RP_ID = "app.test"
const SECRET = "fuzz-secret-passkeys-0123456789abcdef0123"
const SESSION_COOKIE = "__Secure-authjs.session-token"

const logged: LoggedLine[] = []
const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  adapter: MemoryAdapter(),
  experimental: { enableWebAuthn: true },
  providers: [Passkey()],
  logger: {
    error: (code, ...message) => void logged.push({ level: "error", code, message }),
    warn: (code, ...message) => void logged.push({ level: "warn", code, message }),
    debug: (code, ...message) => void logged.push({ level: "debug", code, message }),
  },
}

interface Options {
  action: string
  options: { challenge: string }
}

async function ceremony(client: Client, query: Record<string, string> = {}): Promise<Options> {
  const response = await client.get(`webauthn-options/passkey?${new URLSearchParams(query)}`)
  expect(response.status).toBe(200)
  return (await response.json()) as Options
}

const authenticator = new SoftwareAuthenticator()

beforeAll(async () => {
  const client = new Client(config, ORIGIN)
  const { action, options } = await ceremony(client, { action: "register", email: "owner@app.test" })
  expect(action).toBe("register")
  const registered = await client.postForm("callback/passkey", { action: "register", data: JSON.stringify(authenticator.register({ challenge: options.challenge, origin: ORIGIN, rpId: RP_ID })) })
  expect(registered.headers.get("location")).toBe(ORIGIN)
})

// ---- changes to a genuine answer ----

type BytesField = "clientDataJSON" | "authenticatorData" | "signature"

type Change =
  /** The ceremony signed by the authenticator, but for another challenge, origin or RP id. */
  | { kind: "signedFor"; challenge: string | null; origin: string | null; rpId: string | null }
  | { kind: "flipByte"; field: BytesField; at: number; mask: number }
  | { kind: "truncate"; field: BytesField; at: number }
  | { kind: "replaceBytes"; field: BytesField; bytes: Uint8Array }
  | { kind: "setValue"; field: "id" | "rawId" | "type" | BytesField; value: unknown }
  | { kind: "drop"; field: "id" | "rawId" | "type" | "response" | BytesField }
  | { kind: "action"; action: string }

const junk = fc.oneof(
  fc.constantFrom<unknown>(null, 0, 1, true, [], {}, "", "AAAA", "not base64!", "A".repeat(40_000)),
  fc.string({ maxLength: 30 }),
  fc.jsonValue({ maxDepth: 2 }),
)

const bytesField = fc.constantFrom<BytesField>("clientDataJSON", "authenticatorData", "signature")

const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc
      .record({
        kind: fc.constant("signedFor" as const),
        challenge: fc.option(fc.oneof(fc.constantFrom("", "AAAA", "challenge"), fc.base64String({ maxLength: 44 }).map((text) => text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")))),
        origin: fc.option(fc.constantFrom("https://evil.test", "http://app.test", "https://app.test:8443", "https://sub.app.test", "null", "")),
        rpId: fc.option(fc.constantFrom("evil.test", "sub.app.test", "test", "APP.TEST", "")),
      })
      .filter((signed) => signed.challenge !== null || signed.origin !== null || signed.rpId !== null),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("flipByte" as const), field: bytesField, at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), field: bytesField, at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("replaceBytes" as const), field: bytesField, bytes: fc.uint8Array({ maxLength: 120 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("setValue" as const), field: fc.constantFrom("id" as const, "rawId" as const, "type" as const, "clientDataJSON" as const, "authenticatorData" as const, "signature" as const), value: junk }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop" as const), field: fc.constantFrom("id" as const, "rawId" as const, "type" as const, "response" as const, "clientDataJSON" as const, "authenticatorData" as const, "signature" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("action" as const), action: fc.constantFrom("register", "Authenticate", "", "authenticate ", "__proto__") }) },
)

function changeBytes(encoded: string, edit: (bytes: Buffer) => Buffer): string {
  return edit(Buffer.from(encoded, "base64url")).toString("base64url")
}

/** What the server must do with an answer: sign in, refuse, or either (a change nothing relies on). */
type Expected = "signs in" | "refused" | "either"

/**
 * The DER envelope of an ES256 signature: the SEQUENCE tag and length. `@simplewebauthn/server`
 * reads the two INTEGERs inside whatever these say (any context-class tag, any length up to the
 * real one), so a change here is the same (r, s) re-wrapped: not a forgery, accepted or not.
 */
const SIGNATURE_ENVELOPE_BYTES = 2

/** The genuine answer to `challenge`, then `change` applied to it, and what the server must do. */
function answerWith(challenge: string, how: Change | null): { action: string; data: Record<string, unknown>; expected: Expected } {
  const signed = how?.kind === "signedFor"
    ? authenticator.authenticate({ challenge: how.challenge ?? challenge, origin: how.origin ?? ORIGIN, rpId: how.rpId ?? RP_ID })
    : authenticator.authenticate({ challenge, origin: ORIGIN, rpId: RP_ID })
  const credential: Record<string, unknown> = { ...signed, response: { ...signed.response } }
  const response = credential.response as Record<string, unknown>
  const answer = (expected: Expected, action = "authenticate") => ({ action, data: credential, expected })
  if (!how) return answer("signs in")
  switch (how.kind) {
    case "signedFor":
      return answer("refused")
    case "flipByte": {
      let envelope = false
      response[how.field] = changeBytes(String(response[how.field]), (bytes) => {
        if (bytes.length === 0) return Buffer.from([how.mask])
        const copy = Buffer.from(bytes)
        const at = how.at % copy.length
        envelope = how.field === "signature" && at < SIGNATURE_ENVELOPE_BYTES
        copy[at] = copy[at]! ^ how.mask
        return copy
      })
      return answer(envelope ? "either" : "refused")
    }
    case "truncate":
      response[how.field] = changeBytes(String(response[how.field]), (bytes) => bytes.subarray(0, how.at % Math.max(bytes.length, 1)))
      return answer("refused")
    case "replaceBytes":
      response[how.field] = Buffer.from(how.bytes).toString("base64url")
      return answer("refused")
    case "setValue":
      if (how.field === "id" || how.field === "rawId" || how.field === "type") credential[how.field] = how.value
      else response[how.field] = how.value
      return answer("refused")
    case "drop":
      if (how.field === "id" || how.field === "rawId" || how.field === "type" || how.field === "response") delete credential[how.field]
      else delete response[how.field]
      return answer("refused")
    case "action":
      return answer("refused", how.action)
  }
}

function hasSession(answer: Answer): boolean {
  return answer.setCookies.some((line) => line.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/.test(line))
}

describe("passkey sign-in answers", () => {
  const RUNS = 250
  it(
    "sign in when genuine and never when anything signed or checked was changed",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.option(change, { freq: 8 }), fc.boolean(), async (how, asJson) => {
          logged.length = 0
          const client = new Client(config, ORIGIN)
          const { action, options } = await ceremony(client)
          expect(action).toBe("authenticate")
          const body = answerWith(options.challenge, how)
          const data = JSON.stringify(body.data)
          const pending = asJson ? client.postJson("callback/passkey", { action: body.action, data }) : client.postForm("callback/passkey", { action: body.action, data })
          const answer = await settleWithin(pending.then(readAnswer), () => fc.stringify(how))
          expect(answer.status).toBeLessThan(500)
          expectNoLeak(answer, { input: data, secrets: [SECRET], logged })
          expectRedirectsStay(answer, `${ORIGIN}/auth/callback/passkey`, [])
          expectOwnCookies(answer, (name) => name.startsWith("__Secure-authjs.") || name.startsWith("__Host-authjs."))
          if (body.expected === "signs in") {
            expect(answer.location).toBe(ORIGIN)
            expect(hasSession(answer)).toBe(true)
          } else if (body.expected === "refused") {
            expect(hasSession(answer), `signed in despite ${fc.stringify(how)}`).toBe(false)
            expect(answer.location ?? "").toMatch(/^https:\/\/app\.test\/auth\/(error|signin)\?error=/)
          }
        }),
        fuzzParameters(RUNS),
      )
    },
    fuzzTimeout(RUNS),
  )
})

// ---- registrations with damaged attestation ----

/** CBOR heads that claim far more than follows: lengths up to 2^64, nested maps and arrays. */
const hostileCbor = fc.array(
  fc.oneof(
    fc.constantFrom(
      [0xbf],
      [0x9f],
      [0xff],
      [0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0x7a, 0xff, 0xff, 0xff, 0xff],
      [0x9a, 0x7f, 0xff, 0xff, 0xff],
      [0xba, 0x7f, 0xff, 0xff, 0xff],
      [0xa1, 0x63, 0x66, 0x6d, 0x74],
      [0xc6, 0xc6, 0xc6],
      [0xf9, 0x7c, 0x00],
      [0xfb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0],
    ),
    fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 8 }),
  ),
  { maxLength: 12 },
).map((parts) => new Uint8Array(parts.flat()))

const registrationChange = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant("cbor" as const), bytes: hostileCbor }),
  fc.record({ kind: fc.constant("random" as const), bytes: fc.uint8Array({ maxLength: 300 }) }),
  fc.record({ kind: fc.constant("deep" as const), depth: fc.integer({ min: 10, max: 20_000 }), opener: fc.constantFrom(0x81, 0xa1, 0x9f, 0xc6) }),
)

describe("passkey registration answers", () => {
  const RUNS = 150
  it(
    "with damaged or hostile attestation objects are answered without a 5xx, a leak or a hang",
    async () => {
      let registration = 0
      await fc.assert(
        fc.asyncProperty(registrationChange, async (how) => {
          logged.length = 0
          const client = new Client(config, ORIGIN)
          const { action, options } = await ceremony(client, { action: "register", email: `new-${registration++}@app.test` })
          expect(action).toBe("register")
          const fresh = new SoftwareAuthenticator()
          const credential: CredentialJSON = fresh.register({ challenge: options.challenge, origin: ORIGIN, rpId: RP_ID })
          const attestation = Buffer.from(String(credential.response.attestationObject), "base64url")
          const damaged =
            how.kind === "flip"
              ? Buffer.from(attestation.map((byte, index) => (index === how.at % attestation.length ? byte ^ how.mask : byte)))
              : how.kind === "deep"
                ? Buffer.alloc(how.depth, how.opener)
                : Buffer.from(how.bytes)
          const data = JSON.stringify({ ...credential, response: { ...credential.response, attestationObject: damaged.toString("base64url") } })
          const answer = await settleWithin(client.postForm("callback/passkey", { action: "register", data }).then(readAnswer), () => fc.stringify(how))
          expect(answer.status).toBeLessThan(500)
          expectNoLeak(answer, { input: data, secrets: [SECRET], logged })
          expectRedirectsStay(answer, `${ORIGIN}/auth/callback/passkey`, [])
          // A refused registration leaves no session; an accepted one (a flip in unsigned data) is a normal sign-in.
          if (answer.location !== ORIGIN) expect(hasSession(answer)).toBe(false)
        }),
        fuzzParameters(RUNS),
      )
    },
    fuzzTimeout(RUNS),
  )
})
