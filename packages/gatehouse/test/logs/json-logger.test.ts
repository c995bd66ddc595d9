/**
 * `logger: jsonLogger()`: every event one JSON object on one line (time, level, code, message,
 * cause), carrying the request's id when the request came with one (a header a platform or proxy
 * set), through the handler, a server action (Next's and SvelteKit's `signIn`) and a session read
 * in a page (`auth()`); the app's lines outside requests (configuration warnings) carry none.
 */
import { describe, expect, it, vi } from "vitest"
import { jsonLogger, type JsonLoggerOptions, type JsonLogLine } from "../../src/index.js"
import { Auth } from "../../src/core/handler.js"
import { getSession, runServerAction } from "../../src/framework/index.js"
import type { AuthConfig } from "../../src/types.js"
import { ada, Client, credentialsConfig } from "../flow/flow-helpers.js"
import { DRIVER_MESSAGE, faultyAdapter, STORE_KINDS } from "../reliability/faulty-adapter-support.js"
import { DB_PASSWORD, failingAsDrizzle } from "./driver-errors.js"

/** A JSON logger writing into an array, on a fixed clock; `parsed()` reads every line back. */
function collecting(options: JsonLoggerOptions = {}) {
  const written: { line: string; level: string }[] = []
  const logger = jsonLogger({ write: (line, level) => written.push({ line, level }), now: () => new Date("2026-11-27T18:30:00.000Z"), ...options })
  const parsed = () =>
    written.map(({ line, level }) => {
      expect(line).not.toMatch(/[\n\r\u2028\u2029]/)
      const entry = JSON.parse(line) as JsonLogLine
      expect(entry.level).toBe(level)
      return entry
    })
  return { logger, written, parsed }
}

describe("jsonLogger", () => {
  it("writes a wrong password as one JSON line at warn, with the request's x-request-id", async () => {
    const { logger, parsed } = collecting()
    const client = new Client(credentialsConfig({ logger }))
    const csrfToken = await client.csrfToken()
    await client.postForm("callback/credentials", { csrfToken, username: "ada", password: "wrong" }, { "x-request-id": "req-7f3a" })
    expect(parsed()).toEqual([
      {
        time: "2026-11-27T18:30:00.000Z",
        level: "warn",
        code: "CredentialsSignin",
        message: "The authorize function returned no user (code: credentials)",
        requestId: "req-7f3a",
      },
    ])
  })

  it("writes a database fault as one JSON line at error: its message, the driver's error as the cause, the request id, no stack", async () => {
    const store = STORE_KINDS.find((kind) => kind.name === "SQLite")!.open()
    try {
      await store.real.createUser({ ...ada, id: ada.id!, email: ada.email!, emailVerified: null })
      const faulty = faultyAdapter(store.real)
      const { logger, parsed } = collecting()
      const client = new Client(credentialsConfig({ logger, adapter: faulty.adapter, session: { strategy: "database" } }))
      const csrfToken = await client.csrfToken()
      faulty.arm({ method: "createSession" }, { kind: "throw" })
      // Vercel's id: the first header of the default list that the request carries.
      await client.postForm("callback/credentials", { csrfToken, username: "ada", password: "correct horse" }, { "x-vercel-id": "fra1::iad1::abc-123" })
      expect(faulty.fired).toBe(true)
      const [line, ...rest] = parsed()
      expect(rest).toEqual([])
      expect(line).toMatchObject({ level: "error", code: "AdapterError", requestId: "fra1::iad1::abc-123" })
      expect(line!.cause).toContain(DRIVER_MESSAGE)
      expect(line).not.toHaveProperty("stack")
    } finally {
      store.close()
    }
  })

  it("writes a database fault as Drizzle reports it without the query's params (the session token) or the database URL's password", async () => {
    const store = STORE_KINDS.find((kind) => kind.name === "SQLite")!.open()
    try {
      await store.real.createUser({ ...ada, id: ada.id!, email: ada.email!, emailVerified: null })
      const tokens: string[] = []
      const failing = failingAsDrizzle(store.real, "createSession")
      const adapter = { ...failing, createSession: (session: { sessionToken: string; userId: string; expires: Date }) => (tokens.push(session.sessionToken), failing.createSession!(session)) }
      const { logger, written, parsed } = collecting()
      const client = new Client(credentialsConfig({ logger, adapter, session: { strategy: "database" } }))
      await client.signIn()
      const [line, ...rest] = parsed()
      expect(rest).toEqual([])
      expect(line).toMatchObject({ level: "error", code: "AdapterError" })
      expect(line!.cause).toContain(`Failed query: insert into "session"`)
      expect(line!.cause).toContain("params: (not logged)")
      expect(line!.cause).toContain("postgres://gatehouse:***@db.internal:5432/app")
      expect(tokens).toHaveLength(1)
      expect(written[0]!.line).not.toContain(tokens[0])
      expect(written[0]!.line).not.toContain(DB_PASSWORD)
    } finally {
      store.close()
    }
  })

  it("carries the request id through a server action (signIn from a Next or SvelteKit action) and a session read in a page", async () => {
    const { logger, parsed } = collecting()
    const config = { ...credentialsConfig({ logger }), basePath: "/auth" }
    const headers = new Headers({ "x-request-id": "action-1" })
    const answer = await runServerAction(config, { action: "callback", providerId: "credentials", origin: "https://app.test", headers, fields: { username: "ada", password: "wrong" }, originChecked: true }).catch(
      (error: unknown) => error,
    )
    expect(answer).toMatchObject({ type: "CredentialsSignin" })
    await getSession({ url: "https://app.test/dashboard", headers: new Headers({ "x-request-id": "page-2", cookie: "__Secure-authjs.session-token=garbage" }) }, config)
    expect(parsed().map(({ level, code, requestId }) => ({ level, code, requestId }))).toEqual([
      { level: "warn", code: "CredentialsSignin", requestId: "action-1" },
      { level: "warn", code: "JWTSessionError", requestId: "page-2" },
    ])
  })

  it("prefers the platform's own id header to the generic ones a client can send", async () => {
    const { logger, parsed } = collecting()
    const config = credentialsConfig({ logger })
    const unknownRoute = (headers: Record<string, string>) => Auth(new Request("https://app.test/auth/nowhere", { headers }), config)
    await unknownRoute({ "x-request-id": "chosen-by-client", "x-vercel-id": "fra1::iad1::abc-123" })
    await unknownRoute({ "x-correlation-id": "chosen-by-client", "cf-ray": "8c1f2e3d4a5b6c7d-FRA" })
    await unknownRoute({ "x-request-id": "req-only" })
    expect(parsed().map((line) => line.requestId)).toEqual(["fra1::iad1::abc-123", "8c1f2e3d4a5b6c7d-FRA", "req-only"])
  })

  it("takes the id from the headers it is told, and never one that could not be an id (spaces, control characters, too long)", async () => {
    const { logger, parsed } = collecting({ requestIdHeaders: ["X-Trace", "x-request-id"] })
    const config = credentialsConfig({ logger })
    const unknownRoute = (headers: Record<string, string>) => Auth(new Request("https://app.test/auth/nowhere", { headers }), config)
    await unknownRoute({ "x-trace": "trace-1", "x-request-id": "req-1" })
    await unknownRoute({ "x-trace": "two words", "x-request-id": "req-2" })
    await unknownRoute({ "x-trace": "a".repeat(201) })
    await unknownRoute({ "cf-ray": "8c1f2e3d4a5b6c7d-FRA" })
    expect(parsed().map((line) => line.requestId)).toEqual(["trace-1", "req-2", undefined, undefined])
  })

  it("escapes line breaks inside a message as the built-in logger does, so the message itself is one line too", () => {
    const { logger, parsed } = collecting()
    logger.warn("InvalidRequest", "first\nsecond\u2028third")
    expect(parsed()[0]!.message).toBe("first\\nsecond\\u2028third")
  })

  it("writes configuration warnings without a request id, and the debug level and stacks only with debug: true", async () => {
    const quiet = collecting()
    quiet.logger.warn("secret-too-short", "The secret is shorter than 32 characters")
    quiet.logger.debug("anything", "detail")
    quiet.logger.error("AdapterError", new Error("boom"))
    expect(quiet.parsed().map(({ level, code, requestId, stack }) => ({ level, code, requestId, stack }))).toEqual([
      { level: "warn", code: "secret-too-short", requestId: undefined, stack: undefined },
      { level: "error", code: "AdapterError", requestId: undefined, stack: undefined },
    ])
    const verbose = collecting({ debug: true })
    verbose.logger.debug("anything", "detail", { n: 1 })
    verbose.logger.error("AdapterError", new Error("boom"))
    const [debug, error] = verbose.parsed()
    expect(debug).toMatchObject({ level: "debug", code: "anything", message: 'detail {"n":1}' })
    expect(error!.stack).toContain("boom")
  })

  it("writes to console.log by default, one string per line", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    try {
      const config: AuthConfig = credentialsConfig({ logger: jsonLogger() })
      await Auth(new Request("https://app.test/auth/nowhere"), config)
      expect(log).toHaveBeenCalledTimes(1)
      const [line] = log.mock.calls[0] as [string]
      expect(JSON.parse(line)).toMatchObject({ level: "warn", code: "UnknownAction" })
    } finally {
      log.mockRestore()
    }
  })
})
