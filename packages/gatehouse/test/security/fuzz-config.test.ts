/**
 * Fuzzing `Auth(request, config)` with broken and odd configurations: a fixed table of unusable
 * ones (no secret, bad basePath, wrong types, missing adapter, an object that throws when read),
 * and random mutations of the valid fuzz configurations (any option set to any value, callbacks
 * that throw or return junk).
 *
 * A misconfigured server answers 500 with the generic JSON message or the built-in error page,
 * never a stack trace, an internal message or the secret, and `Auth()` never throws or hangs.
 *
 * Runs and seed: GATEHOUSE_FUZZ_RUNS and GATEHOUSE_FUZZ_SEED, as described in fuzz-settings.ts.
 */
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { expectGenericConfigurationError, expectNoLeak, readAnswer, type Answer } from "./fuzz-checks.js"
import { makeFuzzConfigs, type FuzzConfig, type LoggedLine } from "./fuzz-configs.js"
import { buildRequest, requestSpec, type RequestSpec } from "./fuzz-requests.js"
import { fuzzParameters, fuzzTimeout, settleWithin, unhandledRejectionsDuring } from "./fuzz-settings.js"

const SECRET = "fuzz-secret-broken-config-0123456789abcdef"
const ORIGIN = "https://app.test"

/** Whatever the built-in logger prints while these tests run: silenced, and scanned for secrets. */
const printed: LoggedLine[] = []
beforeAll(() => {
  for (const level of ["error", "warn", "debug", "log", "info"] as const) {
    vi.spyOn(console, level).mockImplementation((...message: unknown[]) => void printed.push({ level: "error", code: `console.${level}`, message }))
  }
})
afterAll(() => vi.restoreAllMocks())

const authorize = () => null

/** A credentials provider, for configurations that need one to be otherwise valid. */
const credentials = () => Credentials({ authorize })

/** A configuration object whose every property read throws. */
function throwingConfig(): AuthConfig {
  return new Proxy({} as AuthConfig, {
    get() {
      throw new Error("config read exploded at /src/app/auth.ts:12:3")
    },
  })
}

/** Configurations no request can be served with, each made fresh (the core caches per object). */
const UNUSABLE: [string, () => unknown][] = [
  ["null", () => null],
  ["undefined", () => undefined],
  ["a number", () => 42],
  ["a string", () => "secret=abc"],
  ["an array", () => []],
  ["an object without a prototype", () => Object.create(null)],
  ["an object whose properties throw when read", throwingConfig],
  ["no secret", () => ({ trustHost: true, providers: [credentials()] })],
  ["an empty secret", () => ({ secret: "", trustHost: true, providers: [credentials()] })],
  ["a numeric secret", () => ({ secret: 12345678901234567890, trustHost: true, providers: [credentials()] })],
  ["a secret array of empty strings", () => ({ secret: ["", ""], trustHost: true, providers: [credentials()] })],
  ["a secret array with a number", () => ({ secret: [SECRET, 7], trustHost: true, providers: [credentials()] })],
  ["an untrusted host", () => ({ secret: SECRET, trustHost: false, providers: [credentials()] })],
  ["trustHost as the string \"true\"", () => ({ secret: SECRET, trustHost: "true", providers: [credentials()] })],
  ["debug as a string", () => ({ secret: SECRET, trustHost: true, debug: "yes", providers: [credentials()] })],
  ["useSecureCookies as a number", () => ({ secret: SECRET, trustHost: true, useSecureCookies: 1, providers: [credentials()] })],
  ["a basePath without a leading slash", () => ({ secret: SECRET, trustHost: true, basePath: "auth", providers: [credentials()] })],
  ["a basePath with a query", () => ({ secret: SECRET, trustHost: true, basePath: "/auth?x=1", providers: [credentials()] })],
  ["a basePath with a space", () => ({ secret: SECRET, trustHost: true, basePath: "/a uth", providers: [credentials()] })],
  ["a numeric basePath", () => ({ secret: SECRET, trustHost: true, basePath: 7, providers: [credentials()] })],
  ["an empty basePath", () => ({ secret: SECRET, trustHost: true, basePath: "", providers: [credentials()] })],
  ["providers as a string", () => ({ secret: SECRET, trustHost: true, providers: "credentials" })],
  ["providers as an object", () => ({ secret: SECRET, trustHost: true, providers: { credentials: credentials() } })],
  ["a null provider", () => ({ secret: SECRET, trustHost: true, providers: [null] })],
  ["a numeric provider", () => ({ secret: SECRET, trustHost: true, providers: [42] })],
  ["a provider of an unknown type", () => ({ secret: SECRET, trustHost: true, providers: [{ id: "x", name: "X", type: "saml" }] })],
  ["two providers with one id", () => ({ secret: SECRET, trustHost: true, providers: [credentials(), credentials()] })],
  ["credentials without authorize", () => ({ secret: SECRET, trustHost: true, providers: [{ id: "credentials", name: "C", type: "credentials", credentials: {} }] })],
  ["an OAuth provider without endpoints", () => ({ secret: SECRET, trustHost: true, providers: [{ id: "hub", name: "Hub", type: "oauth", clientId: "x" }] })],
  ["email without an adapter", () => ({ secret: SECRET, trustHost: true, providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} }] })],
  ["an unknown session strategy", () => ({ secret: SECRET, trustHost: true, session: { strategy: "cookie" }, providers: [credentials()] })],
  ["a negative session maxAge", () => ({ secret: SECRET, trustHost: true, session: { maxAge: -1 }, providers: [credentials()] })],
  ["a NaN session maxAge", () => ({ secret: SECRET, trustHost: true, session: { maxAge: Number.NaN }, providers: [credentials()] })],
  ["a string session maxAge", () => ({ secret: SECRET, trustHost: true, session: { maxAge: "30d" }, providers: [credentials()] })],
  ["database sessions without an adapter", () => ({ secret: SECRET, trustHost: true, session: { strategy: "database" }, providers: [credentials()] })],
  ["database sessions with an empty adapter", () => ({ secret: SECRET, trustHost: true, session: { strategy: "database" }, adapter: {}, providers: [credentials()] })],
  ["a session cookie name that cannot be a cookie name", () => ({ secret: SECRET, trustHost: true, cookies: { sessionToken: { name: "session token;" } }, providers: [credentials()] })],
  ["a generateSessionToken that is not a function", () => ({ secret: SECRET, trustHost: true, session: { generateSessionToken: "abc" }, providers: [credentials()] })],
  ["passkeys without the experimental flag", () => ({ secret: SECRET, trustHost: true, adapter: MemoryAdapter(), providers: [{ id: "passkey", name: "Passkey", type: "webauthn" }] })],
  ["an email rate limit of NaN", () => ({
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: () => {}, rateLimit: { perEmail: { max: Number.NaN, windowSeconds: 60 } } }],
  })],
]

async function answer(config: unknown, path: string, init: RequestInit = {}): Promise<Answer> {
  const request = new Request(`${ORIGIN}${path}`, init)
  return settleWithin(Auth(request, config as AuthConfig & { raw?: undefined }).then(readAnswer), () => `${path} under ${String(config)}`)
}

function expectQuiet(result: Answer, input: string): void {
  expectNoLeak(result, { input, secrets: [SECRET], logged: printed })
}

describe("an unusable configuration", () => {
  const form = { "content-type": "application/x-www-form-urlencoded" }
  for (const [label, make] of UNUSABLE) {
    it(`(${label}) answers every route with the generic configuration error`, async () => {
      printed.length = 0
      const config = make()
      const answers = [
        await answer(config, "/auth/session"),
        await answer(config, "/auth/csrf"),
        await answer(config, "/auth/signin"),
        await answer(config, "/auth/error"),
        await answer(config, "/auth/signout", { method: "POST", headers: form, body: "csrfToken=x" }),
        await answer(config, "/auth/callback/credentials", { method: "POST", headers: form, body: "username=a&password=b" }),
      ]
      for (const result of answers) {
        expectGenericConfigurationError(result)
        expectQuiet(result, "")
        expect(result.setCookies).toEqual([])
      }
    })
  }
})

describe("random requests under an unusable configuration", () => {
  let configs: FuzzConfig[]
  beforeAll(async () => {
    configs = await makeFuzzConfigs()
  }, 30_000)

  const RUNS = 400
  it(
    "are answered 400 (unreadable request) or with the generic configuration error, never a throw",
    async () => {
      const unusable = fc.constantFrom(...UNUSABLE.map(([label]) => label))
      await fc.assert(
        fc.asyncProperty(requestSpec(configs.length), unusable, async (spec, label) => {
          const built = buildRequest(spec, configs)
          fc.pre(built !== undefined)
          printed.length = 0
          const config = UNUSABLE.find(([name]) => name === label)![1]()
          const result = await settleWithin(Auth(built!.request, config as AuthConfig & { raw?: undefined }).then(readAnswer), () => `${label}: ${fc.stringify(spec)}`)
          if (result.status === 400) expect(result.body).toBe('"Bad request."')
          else expectGenericConfigurationError(result)
          expectQuiet(result, built!.input)
        }),
        fuzzParameters(RUNS),
      )
    },
    fuzzTimeout(RUNS),
  )
})

// ---- random mutations of valid configurations ----

/** Where a mutation lands: a property path into the configuration. */
const MUTATION_PATHS: (string | number)[][] = [
  ["secret"],
  ["basePath"],
  ["trustHost"],
  ["useSecureCookies"],
  ["debug"],
  ["providers"],
  ["providers", 0],
  ["providers", 0, "id"],
  ["providers", 0, "type"],
  ["providers", 0, "authorize"],
  ["providers", 1, "sendVerificationRequest"],
  ["providers", 0, "authorization"],
  ["providers", 1, "issuer"],
  ["providers", 0, "profile"],
  ["providers", 0, "checks"],
  ["providers", 0, "token"],
  ["providers", 0, "userinfo"],
  ["providers", 0, "credentials"],
  ["providers", 0, "relyingParty"],
  ["providers", 0, "getUserInfo"],
  ["providers", 0, "simpleWebAuthn"],
  ["providers", 0, "formFields"],
  ["providers", 0, "normalizeIdentifier"],
  ["providers", 0, "generateVerificationToken"],
  ["providers", 0, "sendVerificationRequest"],
  ["providers", 0, "rateLimit"],
  ["providers", 0, "maxAge"],
  ["providers", 1, "normalizeIdentifier"],
  ["providers", 1, "generateVerificationToken"],
  ["providers", 1, "rateLimit"],
  ["providers", 1, "maxAge"],
  ["providers", 1, "id"],
  ["providers", 2, "authorize"],
  ["adapter"],
  ["adapter", "getSessionAndUser"],
  ["adapter", "createVerificationToken"],
  ["adapter", "getUserByEmail"],
  ["adapter", "getUser"],
  ["adapter", "createUser"],
  ["adapter", "createSession"],
  ["adapter", "updateSession"],
  ["adapter", "deleteSession"],
  ["adapter", "useVerificationToken"],
  ["adapter", "getAuthenticator"],
  ["adapter", "hitRateLimit"],
  ["session"],
  ["session", "strategy"],
  ["session", "maxAge"],
  ["session", "updateAge"],
  ["session", "generateSessionToken"],
  ["jwt"],
  ["jwt", "maxAge"],
  ["jwt", "encode"],
  ["jwt", "decode"],
  ["callbacks"],
  ["callbacks", "redirect"],
  ["callbacks", "signIn"],
  ["callbacks", "jwt"],
  ["callbacks", "session"],
  ["events", "signIn"],
  ["events", "signOut"],
  ["events", "session"],
  ["events", "createUser"],
  ["cookies"],
  ["cookies", "sessionToken"],
  ["cookies", "sessionToken", "name"],
  ["cookies", "sessionToken", "options"],
  ["cookies", "csrfToken", "options", "domain"],
  ["cookies", "callbackUrl", "options", "maxAge"],
  ["pages"],
  ["pages", "signIn"],
  ["pages", "error"],
  ["pages", "verifyRequest"],
  ["theme"],
  ["theme", "brandColor"],
  ["theme", "logo"],
  ["theme", "colorScheme"],
  ["logger"],
  ["logger", "error"],
  ["experimental"],
  ["redirectProxyUrl"],
]

/** An async configuration function that fails. */
const rejecting = () => Promise.reject(new TypeError("rejected from a configuration function"))

/** A function the configuration might hold: returning junk or throwing (never hanging). */
const junkFunction = fc.constantFrom<[string, (...args: unknown[]) => unknown]>(
  ["returns undefined", () => undefined],
  ["returns null", () => null],
  ["returns 42", () => 42],
  ["returns an empty string", () => ""],
  ["returns javascript:", () => "javascript:alert(1)"],
  ["returns a foreign URL", () => "https://evil.test/x"],
  ["returns an object", () => ({ user: { id: 1 }, expires: "never" })],
  ["returns an array", () => [1, 2]],
  ["returns a cycle", () => {
    const cycle: Record<string, unknown> = { name: "loop" }
    cycle.self = cycle
    return cycle
  }],
  ["throws", () => {
    throw new Error("thrown from a configuration function at /src/app/auth.ts:3:9")
  }],
  ["throws a string", () => {
    throw "thrown string"
  }],
  ["rejects", rejecting],
  ["resolves to junk", () => Promise.resolve({ toString: 1 })],
)

const junkValue = fc.oneof(
  { weight: 3, arbitrary: fc.anything({ maxDepth: 2, maxKeys: 4 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(undefined, null, "", "false", "/", "auth", "/x?y", "https://evil.test", 0, -1, 1e300, Number.NaN, Number.POSITIVE_INFINITY, [], {}, [null], true, false, "\r\nx"),
  },
  { weight: 2, arbitrary: junkFunction.map(([, fn]) => fn) },
)

interface Mutation {
  path: (string | number)[]
  value: unknown
}

/** `target` with the value at `path` replaced; every container on the way is copied, nothing shared is touched. */
function mutated(target: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value
  const [key, ...rest] = path
  const container = (Array.isArray(target) ? [...target] : target !== null && typeof target === "object" ? { ...target } : {}) as Record<string | number, unknown>
  container[key!] = mutated(container[key!], rest, value)
  return container
}

const mutations = fc.array(
  fc.record({ path: fc.constantFrom(...MUTATION_PATHS), value: junkValue }),
  { minLength: 1, maxLength: 3 },
)

describe("random mutations of valid configurations", () => {
  let configs: FuzzConfig[]
  beforeAll(async () => {
    configs = await makeFuzzConfigs()
  }, 30_000)

  const RUNS = 800
  it(
    "never throw, hang or leak, and answer any 5xx with the generic configuration error",
    async () => {
      await fc.assert(
        fc.asyncProperty(requestSpec(configs.length), mutations, async (spec: RequestSpec, changes: Mutation[]) => {
          const built = buildRequest(spec, configs)
          fc.pre(built !== undefined)
          const { request, entry, input } = built!
          entry.reset()
          printed.length = 0
          const config = changes.reduce<unknown>((current, change) => mutated(current, change.path, change.value), entry.config)
          const { value: result, unhandled } = await unhandledRejectionsDuring(() =>
            settleWithin(Auth(request, config as AuthConfig & { raw?: undefined }).then(readAnswer), () => `${fc.stringify(changes)} ${fc.stringify(spec)}`),
          )
          expect(unhandled, "rejections left unhandled").toEqual([])
          if (result.status >= 500) {
            // The built-in error page is also what a client gets who asks for ?error=Configuration.
            expectGenericConfigurationError(result)
          }
          expectNoLeak(result, { input, secrets: [...entry.secrets, SECRET], logged: [...entry.logged, ...printed] })
        }),
        fuzzParameters(RUNS),
      )
    },
    fuzzTimeout(RUNS),
  )
})
