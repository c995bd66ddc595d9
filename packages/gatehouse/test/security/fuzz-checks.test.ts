/**
 * The fuzz suite's own checks, shown to fail on what they exist to catch: a fuzz property whose
 * check could never fail would pass whatever `Auth()` did.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { expectGenericConfigurationError, expectNoLeak, expectNoMarkupInjection, expectOwnCookies, expectRedirectsStay, isRequestedConfigurationPage, readAnswer, CONFIGURATION_MESSAGE } from "./fuzz-checks.js"
import { fuzzParameters, fuzzRuns, settleWithin, unhandledRejectionsDuring } from "./fuzz-settings.js"

const SECRET = "check-secret-0123456789abcdef0123456789"

function html(body: string, init: ResponseInit = {}) {
  return readAnswer(new Response(body, { ...init, headers: { "content-type": "text/html", ...(init.headers as Record<string, string>) } }))
}

function redirect(location: string) {
  return readAnswer(new Response(null, { status: 302, headers: { location } }))
}

const noLeak = { input: "", secrets: [SECRET], logged: [] }

describe("the leak check", () => {
  it.each([
    ["a stack frame", "Error: x\n    at handle (/app/dist/core/handler.js:97:16)"],
    ["a frame without a path in parentheses", "oops\n  at async Promise.all (index 0):1:2"],
    ["a node_modules path", "see node_modules/oauth4webapi/build/index.js"],
    ["a source path", "in /work/app/src/auth.ts"],
    ["a file URL", "file:///srv/app/index.mjs"],
    ["a TypeError", "TypeError: Cannot read properties of undefined"],
  ])("refuses a body with %s", async (_label, body) => {
    expect(() => expectNoLeak(awaitedAnswer(body), noLeak)).toThrow()
  })

  it("lets through a marker the request itself carried (a page echoing the email typed)", async () => {
    const answer = await html('<input value="node_modules@example.com">')
    expect(() => expectNoLeak(answer, { ...noLeak, input: "email=node_modules@example.com" })).not.toThrow()
  })

  it("refuses a secret in the body, in a header, and in the log", async () => {
    expect(() => expectNoLeak(awaitedAnswer(`token ${SECRET}`), noLeak)).toThrow()
    const inHeader = await readAnswer(new Response("ok", { headers: { "x-debug": SECRET } }))
    expect(() => expectNoLeak(inHeader, noLeak)).toThrow()
    const logged = [{ level: "error" as const, code: "Error", message: [new Error("wrapped", { cause: new Error(`secret was ${SECRET}`) })] }]
    expect(() => expectNoLeak(awaitedAnswer("ok"), { ...noLeak, logged })).toThrow()
  })

  it("refuses an internal error message that was logged and shown", async () => {
    const logged = [{ level: "error" as const, code: "InvalidProvider", message: [new Error("Provider with id \"x\" not found. Available: [a, b]")] }]
    const answer = await html('<p>Provider with id "x" not found. Available: [a, b]</p>')
    expect(() => expectNoLeak(answer, { ...noLeak, logged })).toThrow()
    expect(() => expectNoLeak(awaitedAnswer("<p>Sign in</p>"), { ...noLeak, logged })).not.toThrow()
  })
})

/** A body-only answer, built synchronously for checks that read only the text. */
function awaitedAnswer(body: string) {
  return { status: 200, headers: new Headers({ "content-type": "text/html" }), body, contentType: "text/html", location: null, setCookies: [] }
}

describe("the markup check", () => {
  it.each(['<input value=""><fz-x>">', "<p><fz-x></p>", '<a href="x" fz-on="1">'])("refuses %s", async (body) => {
    expect(() => expectNoMarkupInjection(awaitedAnswer(body))).toThrow()
  })

  it("accepts the escaped payloads", async () => {
    expect(() => expectNoMarkupInjection(awaitedAnswer('<input value="&quot;&gt;&lt;fz-x&gt;&quot; fz-on=&quot;1">'))).not.toThrow()
  })
})

describe("the redirect check", () => {
  const from = "https://app.test/auth/signin"
  it.each(["//evil.test", "https://evil.test/", "/\\evil.test", "https:evil.test", "http://app.test/x", "https://app.test.evil.test"])("refuses %s", async (location) => {
    const answer = await redirect(location)
    expect(() => expectRedirectsStay(answer, from, ["http://127.0.0.1:9"])).toThrow()
  })

  it.each(["/dashboard", "https://app.test", "https://app.test/auth/error?error=Configuration", "http://127.0.0.1:9/authorize?x=1"])("accepts %s", async (location) => {
    const answer = await redirect(location)
    expect(() => expectRedirectsStay(answer, from, ["http://127.0.0.1:9"])).not.toThrow()
  })

  it("refuses a foreign url in an X-Auth-Return-Redirect JSON answer", async () => {
    const answer = await readAnswer(Response.json({ url: "https://evil.test" }))
    expect(() => expectRedirectsStay(answer, from, [])).toThrow()
  })

  it("refuses a redirect without a Location", async () => {
    const answer = await readAnswer(new Response(null, { status: 302 }))
    expect(() => expectRedirectsStay(answer, from, [])).toThrow()
  })
})

describe("the cookie check", () => {
  it("refuses a cookie the configuration does not own", async () => {
    const answer = await readAnswer(new Response("ok", { headers: [["set-cookie", "evil=1; Path=/"]] }))
    expect(() => expectOwnCookies(answer, (name) => name.startsWith("authjs."))).toThrow()
    const own = await readAnswer(new Response("ok", { headers: [["set-cookie", "authjs.csrf-token=1; Path=/"]] }))
    expect(() => expectOwnCookies(own, (name) => name.startsWith("authjs."))).not.toThrow()
  })
})

describe("the configuration error checks", () => {
  it("accept only the generic JSON message or the built-in page, at 500", async () => {
    expect(() => expectGenericConfigurationError(awaitedJson({ message: CONFIGURATION_MESSAGE }, 500))).not.toThrow()
    expect(() => expectGenericConfigurationError(awaitedJson({ message: "MissingSecret: set AUTH_SECRET" }, 500))).toThrow()
    expect(() => expectGenericConfigurationError(awaitedJson({ message: CONFIGURATION_MESSAGE }, 502))).toThrow()
  })

  it("count a 500 as asked for only on GET error?error=Configuration", async () => {
    const page = await html("<h1>Server error</h1>", { status: 500 })
    expect(isRequestedConfigurationPage(page, new Request("https://app.test/auth/error?error=Configuration"), "/auth")).toBe(true)
    expect(isRequestedConfigurationPage(page, new Request("https://app.test/auth/signin?error=Configuration"), "/auth")).toBe(false)
    expect(isRequestedConfigurationPage(page, new Request("https://app.test/auth/error?error=Configuration&error=x"), "/auth")).toBe(false)
  })
})

function awaitedJson(body: unknown, status: number) {
  const text = JSON.stringify(body)
  return { status, headers: new Headers({ "content-type": "application/json" }), body: text, contentType: "application/json", location: null, setCookies: [] }
}

describe("the run settings", () => {
  afterEach(() => vi.unstubAllEnvs())

  it("take GATEHOUSE_FUZZ_RUNS as a count or as a multiple of the default", () => {
    vi.stubEnv("GATEHOUSE_FUZZ_RUNS", "")
    expect(fuzzRuns(300)).toBe(300)
    vi.stubEnv("GATEHOUSE_FUZZ_RUNS", "5000")
    expect(fuzzRuns(300)).toBe(5000)
    vi.stubEnv("GATEHOUSE_FUZZ_RUNS", "x4")
    expect(fuzzRuns(300)).toBe(1200)
    vi.stubEnv("GATEHOUSE_FUZZ_RUNS", "lots")
    expect(() => fuzzRuns(300)).toThrow(/GATEHOUSE_FUZZ_RUNS/)
  })

  it("replay GATEHOUSE_FUZZ_SEED", () => {
    vi.stubEnv("GATEHOUSE_FUZZ_RUNS", "")
    vi.stubEnv("GATEHOUSE_FUZZ_SEED", "1234")
    expect(fuzzParameters(10)).toMatchObject({ numRuns: 10, seed: 1234 })
    vi.stubEnv("GATEHOUSE_FUZZ_SEED", "abc")
    expect(() => fuzzParameters(10)).toThrow(/GATEHOUSE_FUZZ_SEED/)
  })

  it("name the input of a call that never settles", async () => {
    await expect(settleWithin(new Promise(() => {}), () => "the hanging input", 10)).rejects.toThrow(/the hanging input/)
  })

  it("catch a rejection nobody handled", async () => {
    const { unhandled } = await unhandledRejectionsDuring(async () => {
      void Promise.reject(new Error("dropped"))
    })
    expect(unhandled).toHaveLength(1)
  })
})
