/**
 * What Gatehouse logs for a failure, and how the built-in logger prints it: what a client causes
 * (garbage in a request, a wrong password, a stale link, an unreadable cookie) as one warning line,
 * no stack, nothing at the error level, so no visitor can fill the log with stack traces; server
 * faults (an adapter failing, a callback throwing) at the error level, on one line with their cause
 * (whole, with the stack, only under `debug: true`). A custom logger gets `warn(type, line)` for the
 * first and `error(type, error)` for the second.
 */
import { format } from "node:util"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import { createLogger, logError } from "../../src/core/logger.js"
import {
  AccessDenied,
  AccountNotLinked,
  AdapterError,
  AuthError,
  CredentialsRateLimited,
  CredentialsSignin,
  EmailRateLimited,
  EmailSignInError,
  InvalidCheck,
  InvalidEmail,
  InvalidLogoutToken,
  InvalidProvider,
  InvalidRequest,
  JWTSessionError,
  LastSignInMethod,
  MissingCSRF,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  ServerBusy,
  SessionRequired,
  UnknownAccount,
  UnknownAction,
  UnknownSession,
  Verification,
  WebAuthnVerificationError,
} from "../../src/errors.js"
import type { AuthConfig } from "../../src/types.js"
import { ada, Client, credentialsConfig, recordingLogger } from "../flow/flow-helpers.js"

/** Everything written to console.error and console.warn while `run` runs, each call as console would print it. */
async function printed(run: () => Promise<unknown> | unknown) {
  const errorSpy = vi.spyOn(console, "error").mockImplementation(() => {})
  const warnSpy = vi.spyOn(console, "warn").mockImplementation(() => {})
  await run()
  const calls = (spy: typeof errorSpy) => spy.mock.calls.map((call) => [...call])
  const errors = calls(errorSpy)
  const warnings = calls(warnSpy)
  return { errors, warnings, errorText: errors.map((call) => format(...call)), warnText: warnings.map((call) => format(...call)) }
}

/** The built-in logger: the configuration without a `logger`. */
function builtInLogging(extra: Partial<AuthConfig> = {}): AuthConfig {
  const { logger: _unused, ...config } = credentialsConfig(extra)
  return config as AuthConfig
}

const postJson = (path: string, body: string) =>
  new Request(`https://app.test/auth/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body })

afterEach(() => {
  vi.restoreAllMocks()
})

describe("what a client causes", () => {
  it.each([
    ["a JSON body that is not an object", "[1,2,3]", "The request body must be a JSON object"],
    ["a JSON body that is not JSON", "{not json", "The request body is not valid JSON"],
  ])("is one warning line for %s: no stack, nothing at the error level", async (_name, body, message) => {
    const out = await printed(() => Auth(postJson("signin", body), builtInLogging()))
    expect(out.errors).toEqual([])
    expect(out.warnText).toEqual([`[auth][warn][InvalidRequest] ${message}`])
  })

  it("is one warning line for a wrong password: type, message and code", async () => {
    const client = new Client(builtInLogging())
    const out = await printed(() => client.signIn({ username: "ada", password: "wrong" }))
    expect(out.errors).toEqual([])
    expect(out.warnText).toEqual(["[auth][warn][CredentialsSignin] The authorize function returned no user (code: credentials)"])
  })

  it("is one warning line for a form posted without its CSRF token", async () => {
    const out = await printed(() => Auth(new Request("https://app.test/auth/callback/credentials", { method: "POST" }), builtInLogging()))
    expect(out.errors).toEqual([])
    expect(out.warnText).toEqual(["[auth][warn][MissingCSRF] CSRF token was missing during an action callback"])
  })

  it("is one warning line for a session cookie that does not decode, and for an unknown route", async () => {
    const config = builtInLogging()
    const garbage = new Request("https://app.test/auth/session", { headers: { cookie: "__Secure-authjs.session-token=garbage" } })
    const out = await printed(async () => {
      await Auth(garbage, config)
      await Auth(new Request("https://app.test/auth/nowhere"), config)
    })
    expect(out.errors).toEqual([])
    expect(out.warnText).toEqual([
      "[auth][warn][JWTSessionError] The token is not a well-formed compact JWE",
      "[auth][warn][UnknownAction] Cannot parse an auth action from /auth/nowhere",
    ])
  })

  it("reaches a custom logger as warn(type, one line), never as error", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client(credentialsConfig({ logger }))
    await client.signIn({ username: "ada", password: "wrong" })
    await Auth(postJson("signin", "42"), credentialsConfig({ logger }))
    expect(lines.filter((line) => line.level === "error")).toEqual([])
    expect(lines).toEqual([
      { level: "warn", code: "CredentialsSignin", message: ["The authorize function returned no user (code: credentials)"] },
      { level: "warn", code: "InvalidRequest", message: ["The request body must be a JSON object"] },
    ])
  })

  it.each<[string, AuthError]>([
    ["a custom CredentialsSignin", new (class extends CredentialsSignin { override code = "invalid_login" })("Wrong password")],
    ["InvalidEmail", new InvalidEmail("An email address has exactly one @")],
    ["CredentialsRateLimited", new CredentialsRateLimited("More than 10 sign-in attempts for one identifier in 900 s")],
    ["EmailRateLimited", new EmailRateLimited("More than 5 sign-in emails to one address in 3600 s")],
    ["ServerBusy", new ServerBusy("Too many password checks waiting")],
    ["MissingCSRF", new MissingCSRF("CSRF token was missing during an action callback")],
    ["AccountNotLinked", new AccountNotLinked("The passkey belongs to another user")],
    ["OAuthAccountNotLinked", new OAuthAccountNotLinked("Another account already uses this email")],
    ["OAuthCallbackError", new OAuthCallbackError("OAuth Provider returned an error", { cause: { error: "access_denied" } })],
    ["AccessDenied", new AccessDenied("AccessDenied")],
    ["Verification", new Verification("The sign-in link has expired", { cause: { hasInvite: true, expired: true } })],
    ["InvalidCheck", new InvalidCheck("State could not be decoded")],
    ["InvalidRequest", new InvalidRequest("The request body must be a JSON object")],
    ["UnknownAction", new UnknownAction("Cannot handle action: GET link")],
    ["InvalidProvider", new InvalidProvider("No provider nowhere")],
    ["JWTSessionError", new JWTSessionError("The token has expired")],
    ["SessionRequired", new SessionRequired("No session")],
    ["UnknownSession", new UnknownSession("No session of the signed-in user has that id")],
    ["UnknownAccount", new UnknownAccount("The signed-in user has no such account")],
    ["LastSignInMethod", new LastSignInMethod("Unlinking this account would leave the user no way to sign in")],
    ["InvalidLogoutToken", new InvalidLogoutToken("The logout token was used before")],
    ["WebAuthnVerificationError", new WebAuthnVerificationError("The credential data is not JSON", { cause: new SyntaxError("Unexpected token") })],
  ])("prints %s on one warning line, without its stack or cause", async (_name, error) => {
    const out = await printed(() => logError(createLogger({}), error))
    expect(out.errors).toEqual([])
    expect(out.warnText).toHaveLength(1)
    expect(out.warnText[0]!.startsWith(`[auth][warn][${error.type}] ${error.message}`)).toBe(true)
    expect(out.warnText[0]).not.toContain("\n")
  })

  it("keeps a message with line breaks on its one line, and cuts a long one", async () => {
    const out = await printed(() => {
      logError(createLogger({}), new CredentialsSignin("first\nsecond\r\u2028third"))
      logError(createLogger({}), new UnknownAction(`Cannot parse an auth action from /auth/${"a".repeat(5000)}`))
    })
    expect(out.warnText[0]).toBe("[auth][warn][CredentialsSignin] first\\nsecond\\r\\u2028third (code: credentials)")
    expect(out.warnText[1]!.length).toBeLessThan(600)
    expect(out.warnText[1]!.endsWith("a…")).toBe(true)
  })

  it("keeps a wrong password's code at the end of its line, however long the message and what it wraps", async () => {
    const long = new CredentialsSignin(`m${"e".repeat(700)}`, { cause: { err: new Error(`w${"x".repeat(700)}`) } })
    long.code = "invalid_login"
    const out = await printed(() => logError(createLogger({}), long))
    expect(out.warnText[0]!.endsWith(" (code: invalid_login)")).toBe(true)
    expect(out.warnText[0]).toContain("(wxxx")
    expect(out.warnText[0]!.length).toBeLessThan(560)
  })

  it("says on the same line what the check it wraps said, never its stack", async () => {
    const check = new Error('Unexpected authentication response origin "https://evil.test"\n    at verify')
    const out = await printed(() => logError(createLogger({}), new WebAuthnVerificationError("The passkey authentication did not verify", { cause: check })))
    expect(out.warnText).toEqual([
      '[auth][warn][WebAuthnVerificationError] The passkey authentication did not verify (Unexpected authentication response origin "https://evil.test"\\n    at verify)',
    ])
  })
})

describe("a server fault", () => {
  it("is one line at the error level by default: its type, its message and its cause, no stack", async () => {
    const fault = new AdapterError("The adapter's getUser failed", { cause: new Error("connection refused at db:5432") })
    const out = await printed(() => logError(createLogger({}), fault))
    expect(out.warnings).toEqual([])
    expect(out.errorText).toEqual(["[auth][error] AdapterError The adapter's getUser failed (cause: Error: connection refused at db:5432)"])
  })

  it("is printed whole at the error level with debug: true: its stack and its cause", async () => {
    const fault = new AdapterError("The adapter's getUser failed", { cause: new Error("connection refused at db:5432") })
    const out = await printed(() => logError(createLogger({ debug: true }), fault))
    expect(out.errors).toEqual([["[auth][error] AdapterError", fault]])
    expect(out.errorText[0]).toContain("\n    at ")
    expect(out.errorText[0]).toContain("connection refused at db:5432")
  })

  it("is an adapter failing during a sign-in: one error line through the built-in logger, the error itself to a custom one", async () => {
    const failing = () => {
      const adapter = MemoryAdapter()
      return { ...adapter, createSession: () => Promise.reject(new Error("connection refused at db:5432")) }
    }
    const signIn = async (config: AuthConfig) => {
      await config.adapter!.createUser!({ ...ada, id: ada.id!, email: ada.email!, emailVerified: null })
      return new Client(config).signIn()
    }
    const out = await printed(() => signIn(builtInLogging({ adapter: failing(), session: { strategy: "database" } })))
    expect(out.warnings).toEqual([])
    expect(out.errors).toHaveLength(1)
    expect(out.errorText[0]).toMatch(/^\[auth\]\[error\] AdapterError /)
    expect(out.errorText[0]).not.toContain("\n")
    expect(out.errorText[0]).toContain("connection refused at db:5432")

    const { logger, lines } = recordingLogger()
    await signIn(credentialsConfig({ logger, adapter: failing(), session: { strategy: "database" } }))
    expect(lines.map((line) => [line.level, line.code])).toEqual([["error", "AdapterError"]])
    expect(lines[0]!.message[0]).toBeInstanceOf(AdapterError)
  })

  it("is a session callback throwing: at the error level (SessionTokenError), though the session is unreadable all the same", async () => {
    let broken = false
    const { logger, lines } = recordingLogger()
    const client = new Client(credentialsConfig({ logger, callbacks: { session: ({ session }) => { if (broken) throw new Error("bug in the app"); return session } } }))
    await client.signIn()
    broken = true
    expect(await client.session()).toBeNull()
    expect(lines.map((line) => [line.level, line.code])).toEqual([["error", "SessionTokenError"]])
    expect((lines[0]!.message[0] as AuthError).cause?.err?.message).toBe("bug in the app")
  })

  it("is a failed email, though the client is told its type: EmailSignInError is client-safe, not client-caused", async () => {
    const failed = new EmailSignInError(new Error("SMTP 421 at mail:25"))
    expect(failed.clientSafe).toBe(true)
    expect(failed.clientCaused).toBe(false)
    const out = await printed(() => logError(createLogger({}), failed))
    expect(out.warnings).toEqual([])
    expect(out.errorText).toEqual(["[auth][error] EmailSignInError SMTP 421 at mail:25"])
  })
})

describe("a line that cannot be made", () => {
  it("is the error's type alone: an unreadable cause or code never fails the request being logged", async () => {
    const hostile = { get message(): string { throw new Error("no") } } as unknown as Error
    const { logger, lines } = recordingLogger()
    expect(() => logError(createLogger({ logger }), new InvalidCheck("State could not be decoded", { cause: { err: hostile } }))).not.toThrow()
    expect(lines).toEqual([{ level: "warn", code: "InvalidCheck", message: ["InvalidCheck"] }])
  })
})

describe("a logger's forRequest", () => {
  it("gives a request's lines the levels it returns, the logger's own for the levels it leaves out", async () => {
    const { logger, lines } = recordingLogger()
    const scoped: string[] = []
    const config = credentialsConfig({
      logger: { ...logger, forRequest: ({ headers }) => ({ warn: (code: string) => void scoped.push(`${headers.get("x-request-id")} ${code}`) }) },
    })
    await new Client(config).signIn({ username: "ada", password: "wrong" }).then(() => undefined)
    await Auth(new Request("https://app.test/auth/nowhere", { headers: { "x-request-id": "r-2" } }), config)
    expect(scoped).toEqual(["null CredentialsSignin", "r-2 UnknownAction"])
    expect(lines.filter((line) => line.level === "warn")).toEqual([])
  })

  it("that throws, or returns nothing, leaves the request to the logger's own levels", async () => {
    for (const forRequest of [() => { throw new Error("broken logger") }, () => undefined]) {
      const { logger, lines } = recordingLogger()
      const config = credentialsConfig({ logger: { ...logger, forRequest: forRequest as never } })
      const response = await Auth(new Request("https://app.test/auth/nowhere"), config)
      expect(response.status).toBe(400)
      expect(lines.map((line) => [line.level, line.code])).toEqual([["warn", "UnknownAction"]])
    }
  })
})
