/**
 * Fuzzing `Auth(request, config)` with random and adversarial requests under valid
 * configurations (JWT and database sessions, credentials, email, OAuth/OIDC at a dead loopback
 * port, passkeys, custom pages, CSRF checks off): odd methods, paths in and out of the base path,
 * queries, headers, genuine / tampered / foreign / re-chunked cookies, and every kind of body.
 *
 * Every answer must come within a bound, be a `Response`, never a 5xx (but for the error page a
 * client asks to render as `?error=Configuration`), show no stack trace, internal message or
 * secret, put no input into a page as markup, redirect only to its own origin or a configured provider, and set only its own cookies.
 *
 * Runs: GATEHOUSE_FUZZ_RUNS=<n> (runs per property) or GATEHOUSE_FUZZ_RUNS=x<k> (k times the
 * defaults); GATEHOUSE_FUZZ_SEED=<seed> replays the seed a failure printed, e.g.
 *   GATEHOUSE_FUZZ_RUNS=20000 npx vitest run packages/gatehouse/test/security/fuzz-requests.test.ts
 * A replay is exact for a single property run from a fresh process; the configurations keep state
 * between runs (email throttling, spent tokens), so a long session may not replay bit for bit.
 */
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { expectNoLeak, expectNoMarkupInjection, expectOwnCookies, expectRedirectsStay, isRequestedConfigurationPage, readAnswer } from "./fuzz-checks.js"
import { makeFuzzConfigs, type FuzzConfig } from "./fuzz-configs.js"
import { buildRequest, MARKUP_PAYLOADS, requestSpec, type RequestSpec } from "./fuzz-requests.js"
import { fuzzParameters, fuzzTimeout, settleWithin } from "./fuzz-settings.js"

let configs: FuzzConfig[]
beforeAll(async () => {
  configs = await makeFuzzConfigs()
}, 30_000)

function describeSpec(spec: RequestSpec): string {
  return fc.stringify(spec).slice(0, 4_000)
}

/** Sends `spec` and checks everything a client-side input must never cause. */
async function holdsFor(spec: RequestSpec): Promise<void> {
  const built = buildRequest(spec, configs)
  fc.pre(built !== undefined)
  const { request, entry, input, fromLink } = built!
  entry.reset()
  const answer = await settleWithin(
    Auth(request, entry.config).then(readAnswer),
    () => describeSpec(spec),
  )
  if (answer.status >= 500) {
    expect(isRequestedConfigurationPage(answer, request, entry.basePath), `${answer.status} for client input: ${answer.body.slice(0, 500)}`).toBe(true)
  }
  expect(answer.status).toBeGreaterThanOrEqual(200)
  expectNoLeak(answer, { input, secrets: entry.secrets, logged: entry.logged })
  expectNoMarkupInjection(answer)
  expectRedirectsStay(answer, request.url, entry.providerOrigins)
  expectOwnCookies(answer, entry.setsCookie)
  // A sign-in link always points back at the site the request came to.
  for (const link of entry.sentLinks) expect(new URL(link).origin).toBe(new URL(request.url).origin)
  // A link whose token was replaced signs nobody in.
  if (fromLink && spec.link?.param === "token") {
    const issued = answer.setCookies.filter((line) => /^(__Secure-)?(authjs\.session-token|sid)(\.\d+)?=[^;]/.test(line))
    expect(issued, `a session from a link with token ${JSON.stringify(spec.link.value)}`).toEqual([])
  }
}

describe("Auth() under valid configurations", () => {
  const RUNS = 1000
  it(
    "answers any request within the bound, never with a 5xx, a leak, a foreign redirect or a foreign cookie",
    async () => {
      await fc.assert(fc.asyncProperty(requestSpec(configs.length), holdsFor), fuzzParameters(RUNS))
    },
    fuzzTimeout(RUNS),
  )

  const POST_RUNS = 800
  it(
    "holds for POSTs that carry the genuine CSRF pair, so the garbage reaches the actions",
    async () => {
      const deep = requestSpec(configs.length).map((spec): RequestSpec => ({ ...spec, method: "POST", prefix: "base", withCsrf: true }))
      await fc.assert(fc.asyncProperty(deep, holdsFor), fuzzParameters(POST_RUNS))
    },
    fuzzTimeout(POST_RUNS),
  )

  const SESSION_RUNS = 500
  it(
    "holds for session reads and updates with genuine, tampered, foreign and re-chunked session cookies",
    async () => {
      const sessions = requestSpec(configs.length).map(
        (spec): RequestSpec => ({ ...spec, prefix: "base", segments: ["session"], link: null, method: spec.method.toUpperCase() === "POST" ? "POST" : "GET" }),
      )
      await fc.assert(fc.asyncProperty(sessions, holdsFor), fuzzParameters(SESSION_RUNS))
    },
    fuzzTimeout(SESSION_RUNS),
  )
})

describe("built-in pages under valid configurations", () => {
  const RUNS = 300
  it(
    "show text from the query and the callback-url cookie only escaped",
    async () => {
      const reflected = fc.tuple(
        requestSpec(configs.length),
        fc.constantFrom("signin", "signout", "error", "verify-request"),
        fc.array(fc.tuple(fc.constantFrom("callbackUrl", "email", "error", "provider", "type"), fc.constantFrom(...MARKUP_PAYLOADS)), { minLength: 1, maxLength: 3 }),
        fc.option(fc.constantFrom(...MARKUP_PAYLOADS)),
      )
      await fc.assert(
        fc.asyncProperty(reflected, async ([spec, page, query, cookiePayload]) => {
          const cookies: RequestSpec["cookies"] = cookiePayload === null ? spec.cookies : [...spec.cookies, { kind: "known", name: spec.origin.startsWith("https") ? "__Secure-authjs.callback-url" : "authjs.callback-url", value: encodeURIComponent(`${spec.origin}/${cookiePayload}`) }]
          await holdsFor({ ...spec, method: "GET", prefix: "base", segments: [page], trailing: "", query, rawQuery: "", cookies, contentLength: null, link: null })
        }),
        fuzzParameters(RUNS),
      )
    },
    fuzzTimeout(RUNS),
  )
})

describe("Auth() given something that is not a Request", () => {
  /** Objects shaped somewhat like a request, as a broken integration might pass them. */
  const requestLike = fc.record(
    {
      method: fc.oneof(fc.constantFrom<unknown>("GET", "POST", "get", "", " ", "GET ", "PROPFIND", null, 42, {}), fc.string({ maxLength: 8 })),
      url: fc.oneof(
        fc.constantFrom<unknown>("https://app.test/auth/session", "https://app.test/auth/csrf", "https://app.test/auth/signin", "/auth/session", "not a url", "", null, 42, new URL("https://app.test/auth/session")),
        fc.webUrl(),
      ),
      headers: fc.oneof(
        fc.constantFrom<unknown>(undefined, null, "cookie: a=b", 42, [], {}),
        fc.dictionary(fc.constantFrom("cookie", "content-type", "host", "x-auth-return-redirect"), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
        fc.array(fc.tuple(fc.constantFrom("cookie", "content-type", "host"), fc.string({ maxLength: 20 })), { maxLength: 3 }).map((pairs) => {
          const headers = new Headers()
          for (const [name, value] of pairs) {
            try {
              headers.append(name, value)
            } catch {
              // A value Headers refuses is left out.
            }
          }
          return headers
        }),
      ),
      body: fc.constantFrom<unknown>(undefined, null, "csrfToken=x", 42, {}, new ReadableStream()),
    },
    { requiredKeys: [] },
  )

  const RUNS = 300
  it(
    "answers it within the bound without throwing, a 5xx or a stack trace",
    async () => {
      await fc.assert(
        fc.asyncProperty(requestLike, async (like) => {
          const entry = configs[0]!
          entry.reset()
          const answer = await settleWithin(Auth(like as unknown as Request, entry.config).then(readAnswer), () => fc.stringify(like))
          expect(answer.status).toBeGreaterThanOrEqual(200)
          expect(answer.status).toBeLessThan(500)
          expectNoLeak(answer, { input: fc.stringify(like), secrets: entry.secrets, logged: entry.logged })
        }),
        fuzzParameters(RUNS),
      )
    },
    fuzzTimeout(RUNS),
  )
})
