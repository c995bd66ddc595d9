/**
 * The logger every part of Gatehouse writes through. Each level is called as
 * `(code, ...message)`; the application may replace any level. A logger that throws is ignored
 * rather than allowed to turn a log line into a failed request.
 * @module
 */
import type { LoggerInstance } from "../types.js"

/** Codes of the configuration warnings Gatehouse logs. */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "experimental-webauthn"
  /** Passkeys with an adapter lacking `hitRateLimit`: a spent challenge is remembered by one process only. */
  | "webauthn-challenges-in-memory"
  | "secret-too-short"
  /** Database sessions whose `updateAge` is not below `maxAge` are never extended. */
  | "session-never-extended"

const builtIn: LoggerInstance = {
  error(code, ...message) {
    console.error(`[auth][error] ${code}`, ...message)
  },
  warn(code, ...message) {
    console.warn(`[auth][warn][${code}]`, ...message)
  },
  debug(code, ...message) {
    console.debug(`[auth][debug] ${code}`, ...message)
  },
}

const silent = (): void => {}

/**
 * The logger for a configuration: its own levels where it has them, the built-in ones elsewhere;
 * built-in debug output only with `debug: true`.
 */
export function createLogger(config: { debug?: boolean; logger?: Partial<LoggerInstance> }): LoggerInstance {
  const custom = config.logger ?? {}
  return {
    error: guard(custom.error ?? builtIn.error),
    warn: guard(custom.warn ?? builtIn.warn),
    debug: guard(custom.debug ?? (config.debug ? builtIn.debug : silent)),
  }
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
 * Logs `error` at the error level under its `type` (`Error` for foreign errors). Messages are
 * Gatehouse's own and never carry secrets or tokens; upstream detail stays in `cause`.
 */
export function logError(logger: LoggerInstance, error: unknown): void {
  const code = error instanceof Error && "type" in error && typeof error.type === "string" ? error.type : "Error"
  logger.error(code, error)
}
