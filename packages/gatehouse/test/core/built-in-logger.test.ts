/**
 * What the built-in logger prints: a person's ordinary sign-in failures on one line, server
 * faults whole (stack and cause); a custom logger is handed the error object either way.
 */
import { format } from "node:util"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { createLogger, logError } from "../../src/core/logger.js"
import {
  AccountNotLinked,
  AdapterError,
  CredentialsRateLimited,
  CredentialsSignin,
  EmailRateLimited,
  InvalidEmail,
  MissingCSRF,
  OAuthAccountNotLinked,
  Verification,
  type AuthError,
} from "../../src/errors.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, credentialsConfig, recordingLogger } from "../flow/flow-helpers.js"

/** Everything written to console.error while `run` runs, each call as console would print it. */
async function printedErrors(run: () => Promise<unknown> | unknown): Promise<{ args: unknown[][]; text: string[] }> {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {})
  await run()
  const args = spy.mock.calls.map((call) => [...call])
  return { args, text: args.map((call) => format(...call)) }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("the built-in logger", () => {
  it("prints a failed credentials sign-in as one line: type, message and code, no stack", async () => {
    // The default logger: no `logger` in the configuration.
    const { logger: _unused, ...config } = credentialsConfig()
    const client = new Client(config as AuthConfig)
    const { args, text } = await printedErrors(() => client.signIn({ username: "ada", password: "wrong" }))
    expect(text).toEqual(["[auth][error] CredentialsSignin: The authorize function returned no user (code: credentials)"])
    expect(args[0]).toHaveLength(1)
  })

  it.each<[string, AuthError]>([
    ["a custom CredentialsSignin", new (class extends CredentialsSignin { override code = "invalid_login" })("Wrong password")],
    ["InvalidEmail", new InvalidEmail("An email address has exactly one @")],
    ["CredentialsRateLimited", new CredentialsRateLimited("More than 10 sign-in attempts for one identifier in 900 s")],
    ["EmailRateLimited", new EmailRateLimited("More than 5 sign-in emails to one address in 3600 s")],
    ["MissingCSRF", new MissingCSRF("CSRF token was missing during an action callback")],
    ["AccountNotLinked", new AccountNotLinked("The passkey belongs to another user")],
    ["OAuthAccountNotLinked", new OAuthAccountNotLinked("Another account already uses this email")],
    ["Verification", new Verification("The sign-in link has expired", { cause: { hasInvite: true, expired: true } })],
  ])("prints %s on one line, without its stack or cause", async (_name, error) => {
    const { text } = await printedErrors(() => logError(createLogger({}), error))
    expect(text).toHaveLength(1)
    expect(text[0]!.startsWith(`[auth][error] ${error.type}: ${error.message}`)).toBe(true)
    expect(text[0]).not.toContain("\n")
  })

  it("keeps a message with line breaks on its one line", async () => {
    const { text } = await printedErrors(() => logError(createLogger({}), new CredentialsSignin("first\nsecond\r\u2028third")))
    expect(text).toEqual(["[auth][error] CredentialsSignin: first\\nsecond\\r\\u2028third (code: credentials)"])
  })

  it("prints a server fault whole: its stack and its cause", async () => {
    const fault = new AdapterError("The adapter's getUser failed", { cause: new Error("connection refused at db:5432") })
    const { args, text } = await printedErrors(() => logError(createLogger({}), fault))
    expect(args).toEqual([["[auth][error] AdapterError", fault]])
    expect(text[0]).toContain("\n    at ")
    expect(text[0]).toContain("connection refused at db:5432")
  })

  it("hands a custom logger the error object of an ordinary failure, as before", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client(credentialsConfig({ logger }))
    const { args } = await printedErrors(() => client.signIn({ username: "ada", password: "wrong" }))
    expect(args).toEqual([])
    const [line] = lines.filter((entry) => entry.level === "error")
    expect(line?.code).toBe("CredentialsSignin")
    expect(line?.message[0]).toBeInstanceOf(CredentialsSignin)
  })

  it("prints a form posted without its CSRF token as one line", async () => {
    const { logger: _unused, ...config } = credentialsConfig()
    const printed = await printedErrors(() => Auth(new Request("https://app.test/auth/callback/credentials", { method: "POST" }), config as AuthConfig))
    // A POST without a CSRF token: MissingCSRF, one line.
    expect(printed.text).toEqual(["[auth][error] MissingCSRF: CSRF token was missing during an action callback"])
  })
})
