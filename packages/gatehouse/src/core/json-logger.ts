/**
 * A logger that writes one JSON object per line, for log collectors that read JSON lines; a
 * request's lines carry the id its platform or proxy gave it.
 * @module
 */
import type { LoggerInstance, LogRequest } from "../types.js"
import { summarise } from "./log-line.js"

/**
 * The level a {@link jsonLogger} line was written at.
 *
 * @example
 * ```ts
 * import { jsonLogger, type JsonLogLevel } from "gatehouse-auth"
 *
 * const logger = jsonLogger({
 *   write: (line: string, level: JsonLogLevel) => (level === "error" ? console.error(line) : console.log(line)),
 * })
 * ```
 */
export type JsonLogLevel = "error" | "warn" | "debug"

/**
 * One line a {@link jsonLogger} writes, before it is serialised.
 *
 * @example
 * ```ts
 * import type { JsonLogLine } from "gatehouse-auth"
 *
 * const line: JsonLogLine = { time: "2026-11-27T18:30:00.000Z", level: "warn", code: "CredentialsSignin", message: "…", requestId: "iad1::abc" }
 * const forCollector = JSON.stringify(line)
 * ```
 */
export interface JsonLogLine {
  /** When the line was written, as an ISO 8601 UTC timestamp. */
  time: string
  /** The level the event was logged at: `error` for server faults, `warn` for what a user or client got wrong and for warnings. */
  level: JsonLogLevel
  /** An error's `type` (`CredentialsSignin`, `AdapterError`, …) or a warning's code (`secret-too-short`, …). */
  code: string
  /** What happened, on one line (control characters escaped). */
  message: string
  /** What the error wraps (a driver's or provider's error), `Name: message` for each link. */
  cause?: string
  /** The id of the request the line is about, from the first of `requestIdHeaders` it carries. */
  requestId?: string
  /** The error's stack; only with `debug: true`. */
  stack?: string
}

/**
 * Options of {@link jsonLogger}.
 *
 * @example
 * ```ts
 * import { jsonLogger, type JsonLoggerOptions } from "gatehouse-auth"
 *
 * const options: JsonLoggerOptions = { requestIdHeaders: ["x-proxy-request-id"], write: (line) => process.stdout.write(`${line}\n`) }
 * const logger = jsonLogger(options)
 * ```
 */
export interface JsonLoggerOptions {
  /**
   * Where each line goes (without its line break). Default: `console.log`, so that every level
   * reaches one stream (standard output on Node) and the `level` field tells them apart.
   */
  write?: (line: string, level: JsonLogLevel) => void
  /**
   * The request headers that carry a request id, the first one present wins. Default:
   * {@link DEFAULT_REQUEST_ID_HEADERS}. Name only headers your platform or proxy sets (or
   * replaces): a client can send any of them itself.
   */
  requestIdHeaders?: readonly string[]
  /** Also write the `debug` level and errors' stacks. Default `false`. */
  debug?: boolean
  /** The clock; for tests. Default: `() => new Date()`. */
  now?: () => Date
}

/**
 * Request-id headers that platforms and proxies set, the platforms' own first (Vercel's,
 * Cloudflare's, Fly's, Netlify's, AWS load balancers'): each platform sets or replaces its own
 * header, so a client cannot choose the id there. Then the generic `X-Request-Id` (Heroku, Render,
 * nginx's `$request_id`, many gateways) and `X-Correlation-Id`, which a client can send itself
 * wherever no proxy replaces them.
 *
 * @example
 * ```ts
 * import { DEFAULT_REQUEST_ID_HEADERS, jsonLogger } from "gatehouse-auth"
 *
 * // Behind your own gateway, its header first, then the defaults.
 * const logger = jsonLogger({ requestIdHeaders: ["x-gateway-id", ...DEFAULT_REQUEST_ID_HEADERS] })
 * ```
 */
export const DEFAULT_REQUEST_ID_HEADERS: readonly string[] = Object.freeze([
  "x-vercel-id",
  "cf-ray",
  "fly-request-id",
  "x-nf-request-id",
  "x-amzn-trace-id",
  "x-request-id",
  "x-correlation-id",
])

/** A request id is kept only as printable ASCII of a sane length: it comes from a header. */
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/

/**
 * A logger that writes each event as one JSON object on one line: `time`, `level`, `code`,
 * `message`, what an error wraps (`cause`) and, for a request, its `requestId` (from the first of
 * `requestIdHeaders` the request carries). Pass it as the `logger` option. Runs on any runtime.
 *
 * @example
 * ```ts
 * import { jsonLogger } from "gatehouse-auth"
 *
 * export const { handlers, auth } = NextAuth({ providers, logger: jsonLogger() })
 * // {"time":"2026-11-27T18:30:00.000Z","level":"warn","code":"CredentialsSignin","message":"The authorize function returned no user (code: credentials)","requestId":"iad1::abc"}
 * ```
 */
export function jsonLogger(options: JsonLoggerOptions = {}): LoggerInstance {
  const write = options.write ?? ((line: string) => console.log(line))
  const headers = (options.requestIdHeaders ?? DEFAULT_REQUEST_ID_HEADERS).map((name) => name.toLowerCase())
  const now = options.now ?? (() => new Date())
  const debug = options.debug === true

  const levelsFor = (requestId: string | undefined): LoggerInstance => {
    const line = (level: JsonLogLevel) => (code: string, ...message: unknown[]) => {
      const { message: text, cause, stack } = summarise(code, message)
      const entry: JsonLogLine = { time: now().toISOString(), level, code: String(code), message: text }
      if (cause !== undefined) entry.cause = cause
      if (requestId !== undefined) entry.requestId = requestId
      if (debug && stack !== undefined) entry.stack = stack
      write(JSON.stringify(entry), level)
    }
    return { error: line("error"), warn: line("warn"), debug: debug ? line("debug") : () => {} }
  }

  return {
    ...levelsFor(undefined),
    forRequest: (request: LogRequest) => levelsFor(requestIdOf(request.headers, headers)),
  }
}

function requestIdOf(headers: Headers, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers.get(name)?.trim()
    // One that cannot be an id (too long, spaces, control characters) does not hide the next.
    if (value !== undefined && REQUEST_ID.test(value)) return value
  }
  return undefined
}
