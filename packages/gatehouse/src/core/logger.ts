/**
 * The logger every part of Gatehouse writes through. Each level is called as
 * `(code, ...message)`; the application may replace any level. A logger that throws is ignored
 * rather than allowed to turn a log line into a failed request. What a client causes is logged as
 * one warning line; server faults at the error level, the error itself handed to the logger. The
 * built-in logger prints every event on one line (an error's cause summarised on it), whole with
 * its stack only with `debug: true`.
 * @module
 */
import { AuthError, CredentialsSignin, UntrustedHost } from "../errors.js"
import type { LoggerInstance, LogRequest } from "../types.js"
import { clipped, lineText, MAX_PART, safely, summarise } from "./log-line.js"
import type { WarningCode } from "../warnings.js"

export type { WarningCode }

/** What each warning means and what to do about it, logged after its code. */
export const WARNING_MESSAGES: Readonly<Record<WarningCode, string>> = {
  "debug-enabled":
    "Debug logging is on (`debug: true`): the built-in logger prints debug lines and whole errors (stacks, causes, what they quote); turn it off in production. A logger of your own is not changed by it (`jsonLogger` has its own `debug` option).",
  "csrf-disabled": "CSRF checks are off (`skipCSRFCheck`); only a framework that checks the origin of every POST may do that.",
  "env-url-basepath-redundant": "Both AUTH_URL's path and `basePath` are set; `basePath` wins.",
  "env-url-basepath-mismatch": "AUTH_URL's path and `basePath` disagree; `basePath` wins.",
  "experimental-webauthn":
    "Passkeys (WebAuthn) are experimental: their API may change in a minor version. Logged once per configuration; to hide it, pass a `logger.warn` that skips the code `experimental-webauthn`.",
  "webauthn-challenges-in-memory":
    "The adapter has no hitRateLimit and there is no sharedStore: spent passkey challenges are remembered by this process only, so another instance would accept a replayed one.",
  "secret-too-short": "The secret is shorter than 32 characters; generate one with `npx gatehouse-auth secret`.",
  "session-never-extended": "`session.updateAge` is not below `session.maxAge`: database sessions end maxAge after sign-in, however active the user.",
  "unproven-accounts-unclaimable":
    "An account whose address was never proven cannot be claimed here (the adapter cannot list and unlink accounts, or sessions cannot be revoked): a sign-in that proves such an address (an email link, or a provider that vouches for it) fails instead.",
  "credentials-not-revoked":
    "A credentials provider has no `revokeCredentials`: a password set on an account before its address was proven keeps working after the owner proves it (by email, or through a provider that vouches for it).",
  "session-cache-unused":
    "`session.cacheMaxAge` caches database sessions in the `sharedStore`: without a shared store, or with JWT sessions, nothing is cached.",
  "two-factor-counts-in-memory":
    "`twoFactor` is on, but the adapter has no hitRateLimit and there is no sharedStore: codes tried and finished sign-ins are counted by this process only, so another instance would allow more tries, or accept a replayed pending sign-in.",
  "two-factor-qr-missing":
    "`twoFactor.totp` has no `qrCode`: enrolment shows the secret as text without a QR code. To draw one, `npm install uqr` and pass `totp: { issuer, qrCode: renderSVG }` (renderSVG from \"uqr\").",
  "trust-host-without-url":
    "AUTH_TRUST_HOST is set without AUTH_URL: every URL Gatehouse builds (redirects, email links) follows the request's Host header. Set AUTH_URL, or make sure a proxy you control sets Host.",
  "schema-outdated":
    "The database lacks schema migrations this version of Gatehouse needs: run `npx gatehouse-auth migrate apply` (`migrate status` lists them). Sign-ins go on meanwhile; a feature whose table is missing fails until then.",
}

/** Logs `code` at the warn level with what it means. */
export function logWarning(logger: LoggerInstance, code: WarningCode): void {
  logger.warn(code, WARNING_MESSAGES[code])
}

/**
 * The configuration warnings shown in this process, on `globalThis` under a registered symbol so
 * that every copy of this module shares them: a bundler may load several copies into one process
 * (Next builds the proxy, the route handlers and the server components apart), each with its own
 * module state and its own copy of the app's config object, so neither can tell that a warning was
 * shown already. Versioned, so another release of the package loaded beside this one keeps its own.
 */
const SHOWN = Symbol.for("gatehouse-auth.config-warnings-shown.v1")

function shownWarnings(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>
  let shown = holder[SHOWN]
  if (!(shown instanceof Set)) holder[SHOWN] = shown = new Set()
  return shown
}

/** What tells one configuration from another, the same in every copy of it: where it serves, and with which providers. */
export interface ConfigIdentity {
  readonly basePath?: string
  readonly providers?: readonly { readonly id?: unknown }[]
}

/**
 * Logs each configuration warning once per process and configuration (its base path and provider
 * ids), however many copies of the configuration an integration makes (server actions with
 * `raw`) and however many copies of Gatehouse a bundler loads.
 */
export function reportConfigWarnings(logger: LoggerInstance, config: ConfigIdentity, warnings: readonly WarningCode[]): void {
  if (warnings.length === 0) return
  const shown = shownWarnings()
  const identity = JSON.stringify([config.basePath ?? "", (config.providers ?? []).map((provider) => String(provider?.id))])
  for (const warning of warnings) {
    const key = `${warning} ${identity}`
    if (shown.has(key)) continue
    shown.add(key)
    logWarning(logger, warning)
  }
}

/** Configurations whose untrusted host has been logged. */
const untrustedHostShown = new WeakSet<object>()

/**
 * Logs why a configuration cannot serve requests. An untrusted host is the same fault on every
 * request (and, from integrations, on every page that reads the session): it is logged once per
 * configuration object, so the fix it names is not buried under copies of itself. Every other
 * error is logged as {@link logError} does.
 */
export function reportConfigError(logger: LoggerInstance, config: object, error: unknown): void {
  if (error instanceof UntrustedHost) {
    if (untrustedHostShown.has(config)) return
    untrustedHostShown.add(config)
  }
  logError(logger, error)
}

/**
 * `error` as one line: its message, the message of the error it wraps (what a passkey's or a
 * provider's check said), and a CredentialsSignin's code; each cut and with control characters
 * escaped, so no client can split or forge lines.
 */
function oneLine(error: AuthError): string {
  const wrapped = error.cause?.err?.message
  const hasWrapped = typeof wrapped === "string" && wrapped !== "" && wrapped !== error.message
  // The level clips its whole text to MAX_PART again: the parts share that budget here, so a long
  // message cannot push the code (what an operator searches for) off the end of the line.
  const code = error instanceof CredentialsSignin ? ` (code: ${cut(clipped(String(error.code)), MAX_CODE)})` : ""
  const budget = MAX_PART - code.length - (hasWrapped ? 3 : 0)
  const message = clipped(error.message)
  const cause = hasWrapped ? clipped(wrapped) : ""
  const messageShare = hasWrapped ? Math.max(budget - cause.length, Math.ceil(budget / 2)) : budget
  const shownMessage = cut(message, messageShare)
  const shownCause = hasWrapped ? ` (${cut(cause, budget - shownMessage.length)})` : ""
  return `${shownMessage}${shownCause}${code}`
}

/** A code longer than this is no code an application chose to read. */
const MAX_CODE = 64

/** `text` within `length` characters, a cut marked with `…`. */
function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, Math.max(0, length - 1))}…`
}

/**
 * The console, one line per event: the code, then the message parts and what an error among them
 * wraps, summarised. With `debug: true` the parts go to the console as they are, so an error
 * prints whole (stack and cause).
 */
function builtIn(debug: boolean): LoggerInstance {
  const print = (write: (...data: unknown[]) => void, prefix: string, code: string, message: unknown[]) => {
    if (debug) write(prefix, ...message)
    else if (message.length === 0) write(prefix)
    else write(prefix, lineText(summarise(code, message)))
  }
  return {
    error: (code, ...message) => print(console.error, `[auth][error] ${clipped(code)}`, code, message),
    warn: (code, ...message) => print(console.warn, `[auth][warn][${clipped(code)}]`, code, message),
    debug: (code, ...message) => print(console.debug, `[auth][debug] ${clipped(code)}`, code, message),
  }
}

const silent = (): void => {}

/**
 * The logger for a configuration: its own levels where it has them, the built-in ones elsewhere;
 * built-in debug output only with `debug: true`.
 */
export function createLogger(config: { debug?: boolean; logger?: Partial<LoggerInstance> }): LoggerInstance {
  const custom = config.logger ?? {}
  const printed = builtIn(config.debug === true)
  const levels: LoggerInstance = {
    error: guard(custom.error ?? printed.error),
    warn: guard(custom.warn ?? printed.warn),
    debug: guard(custom.debug ?? (config.debug ? printed.debug : silent)),
  }
  const forRequest = custom.forRequest
  if (typeof forRequest !== "function") return levels
  return {
    ...levels,
    forRequest(request) {
      let scoped: Partial<LoggerInstance> | undefined
      try {
        scoped = forRequest.call(custom, request)
      } catch {
        // A broken logger must not break authentication: the request logs without its scope.
      }
      if (scoped === null || typeof scoped !== "object") return levels
      return {
        error: typeof scoped.error === "function" ? guard(scoped.error) : levels.error,
        warn: typeof scoped.warn === "function" ? guard(scoped.warn) : levels.warn,
        debug: typeof scoped.debug === "function" ? guard(scoped.debug) : levels.debug,
      }
    },
  }
}

/**
 * The logger for one request's lines: the logger's own {@link LoggerInstance.forRequest} view of
 * it (a logger that writes the request id, say), or the logger itself.
 */
export function requestLogger(logger: LoggerInstance, request: LogRequest): LoggerInstance {
  if (typeof logger.forRequest !== "function") return logger
  // createLogger's forRequest answers every level, guarded.
  return logger.forRequest(request) as LoggerInstance
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function"
}

function guard(level: LoggerInstance["error"]): LoggerInstance["error"] {
  return (code, ...message) => {
    try {
      const result: unknown = level(code, ...message)
      // An async logger whose sink is down rejects later: that must not become an unhandled rejection.
      if (isThenable(result)) result.then(undefined, () => {})
    } catch {
      // A broken logger must not break authentication.
    }
  }
}

/**
 * Logs a failure under its `type` (`Error` for foreign errors). What the client caused (the error's
 * class says `clientCaused`: a malformed request, a wrong password, a stale link, a refused token)
 * goes to `warn` as one line (the messages, no stack, no cause object): anyone can cause it as often
 * as they like, a stack would only point into Gatehouse, and a log full of them would hide the
 * faults. A server fault goes to `error` as the error itself (the built-in logger prints it on one
 * line, its cause summarised; whole, with its stack, under `debug: true`). Gatehouse's own
 * messages carry no secrets or tokens; upstream detail stays in `cause`, and a driver's or
 * provider's message there may quote what it was given (a connection URL, a failed query's
 * values). The built-in logger's line and `jsonLogger`'s mask a URL's password and a
 * `password=` value and drop a failed query's `params:`; a logger of your own, and the built-in
 * one under `debug: true`, get the error object as it is.
 */
export function logError(logger: LoggerInstance, error: unknown): void {
  if (error instanceof AuthError && error.clientCaused) {
    logger.warn(error.type, safely(() => oneLine(error), error.type))
    return
  }
  const code = error instanceof Error && "type" in error && typeof error.type === "string" ? error.type : "Error"
  logger.error(code, error)
}
