/**
 * What every fuzzed answer must satisfy: read in full, no stack trace or internal error message,
 * no secret, redirects that stay on the request's origin (or go to a configured provider), and
 * only the library's own cookies set.
 */
import { expect } from "vitest"
import { parseRoute } from "../../src/core/router.js"
import type { LoggedLine } from "./fuzz-configs.js"

export const CONFIGURATION_MESSAGE = "There was a problem with the server configuration. Check the server logs for more information."

/** A response read to its end. */
export interface Answer {
  status: number
  headers: Headers
  body: string
  contentType: string
  location: string | null
  setCookies: string[]
}

export async function readAnswer(response: Response): Promise<Answer> {
  expect(response).toBeInstanceOf(Response)
  const body = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body,
    contentType: response.headers.get("content-type") ?? "",
    location: response.headers.get("location"),
    setCookies: response.headers.getSetCookie(),
  }
}

/** Text a stack trace or a source location would leave in a body. */
const STACK_MARKERS: readonly RegExp[] = [
  /\n\s*at \S[^\n]*:\d+:\d+/,
  /\bat (?:async )?[\w.$<>]+ \([^)\n]*:\d+:\d+\)/,
  /node_modules/,
  /\/src\//,
  /file:\/\//,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /\b(?:Type|Reference|Syntax|Range)Error\b/,
]

/** Every string inside logged values (messages, causes, stacks), to the depth errors nest. */
function strings(value: unknown, out: string[] = [], seen = new Set<unknown>(), depth = 0): string[] {
  if (depth > 6 || value === null || value === undefined || seen.has(value)) return out
  if (typeof value === "string") out.push(value)
  else if (typeof value === "object" || typeof value === "function") {
    seen.add(value)
    if (value instanceof Error) {
      out.push(value.message, value.stack ?? "")
      strings(value.cause, out, seen, depth + 1)
    } else if (!(value instanceof Request) && !(value instanceof Headers)) {
      for (const item of Object.values(value as Record<string, unknown>)) strings(item, out, seen, depth + 1)
    }
  }
  return out
}

/** The messages of the errors logged: none of them may reach the client. */
function loggedErrorMessages(logged: readonly LoggedLine[]): string[] {
  const messages: string[] = []
  const collect = (value: unknown, seen: Set<unknown>, depth: number) => {
    if (depth > 6 || !(value instanceof Error) || seen.has(value)) return
    seen.add(value)
    messages.push(value.message)
    collect(value.cause, seen, depth + 1)
    if (value.cause && typeof value.cause === "object" && "err" in value.cause) collect((value.cause as { err: unknown }).err, seen, depth + 1)
  }
  for (const line of logged) for (const item of line.message) collect(item, new Set(), 0)
  return messages.filter((message) => message.length >= 20)
}

export interface LeakContext {
  /** Everything the request carried: text found here may be echoed back (escaped or not). */
  input: string
  secrets: readonly string[]
  logged: readonly LoggedLine[]
}

/**
 * No stack trace, source path, internal error message or secret in the body or a header, and no
 * secret in what was logged. Text the request itself carried does not count: pages echo the
 * email address or callback URL they were given.
 */
export function expectNoLeak(answer: Answer, { input, secrets, logged }: LeakContext): void {
  const visible = `${[...answer.headers].map(([name, value]) => `${name}: ${value}`).join("\n")}\n${answer.body}`
  for (const marker of STACK_MARKERS) {
    const found = visible.match(marker)?.[0]
    if (found && !input.includes(found.trim())) {
      expect.fail(`the answer shows ${JSON.stringify(found)}, which looks like a stack trace or source path:\n${visible.slice(0, 2_000)}`)
    }
  }
  for (const message of loggedErrorMessages(logged)) {
    if (visible.includes(message) && !input.includes(message)) expect.fail(`the answer shows the internal error message ${JSON.stringify(message)}`)
  }
  const logText = logged.flatMap((line) => [line.code, ...strings(line.message)]).join("\n")
  for (const secret of secrets) {
    expect(visible.includes(secret), "a secret is in the answer").toBe(false)
    expect(logText.includes(secret), `a secret is in the log:\n${logText.slice(0, 2_000)}`).toBe(false)
  }
}

/** Where a redirect (or a `{ url }` answer to X-Auth-Return-Redirect) sends the browser, if anywhere. */
function redirectTargets(answer: Answer): string[] {
  const targets: string[] = []
  if (answer.location !== null) targets.push(answer.location)
  if (answer.contentType.startsWith("application/json")) {
    try {
      const parsed: unknown = JSON.parse(answer.body)
      if (parsed && typeof parsed === "object" && "url" in parsed && typeof parsed.url === "string") targets.push(parsed.url)
    } catch {
      // Not JSON after all: nothing to follow.
    }
  }
  return targets
}

/**
 * Every redirect resolves, as a browser resolves it, to the request's origin or a provider's; one
 * that names a scheme does so read on its own too.
 */
export function expectRedirectsStay(answer: Answer, requestUrl: string, providerOrigins: readonly string[]): void {
  if (answer.status >= 300 && answer.status < 400) expect(answer.location, "a redirect without a Location").not.toBeNull()
  const own = new URL(requestUrl).origin
  for (const target of redirectTargets(answer)) {
    expect(target, "a redirect target with a control character or space").toMatch(/^[\x21-\x7e]+$/)
    const allowed = [own, ...providerOrigins]
    expect(allowed, `redirect to ${target} from ${requestUrl}`).toContain(new URL(target, requestUrl).origin)
    // A browser reads "https:evil.test" as a path on the current https origin; other clients read it as a host.
    if (/^[a-z][a-z\d+.-]*:/i.test(target)) expect(allowed, `redirect to ${target}, read on its own`).toContain(new URL(target).origin)
  }
}

/** Only cookies the configuration owns are set, each with a value a cookie can hold. */
export function expectOwnCookies(answer: Answer, owns: (name: string) => boolean): void {
  for (const line of answer.setCookies) {
    const name = line.slice(0, line.indexOf("="))
    expect(owns(name), `sets a cookie the configuration does not own: ${line.slice(0, 200)}`).toBe(true)
    expect(line).toMatch(/^[\x20-\x7e]+$/)
  }
}

/**
 * Whether `answer` is the one 5xx a client may ask for: the built-in error page rendering
 * `?error=Configuration` (500, as in Auth.js).
 */
export function isRequestedConfigurationPage(answer: Answer, request: Request, basePath: string): boolean {
  if (answer.status !== 500 || request.method !== "GET" || !answer.contentType.startsWith("text/html")) return false
  const url = new URL(request.url)
  const route = parseRoute(url.pathname, basePath)
  return route?.action === "error" && Object.fromEntries(url.searchParams).error === "Configuration"
}

/** The configuration error a misconfigured server answers: generic JSON or the built-in page. */
export function expectGenericConfigurationError(answer: Answer): void {
  expect(answer.status).toBe(500)
  if (answer.contentType.startsWith("application/json")) {
    expect(JSON.parse(answer.body)).toEqual({ message: CONFIGURATION_MESSAGE })
  } else {
    expect(answer.contentType).toMatch(/^text\/html/)
    expect(answer.body).toContain("There is a problem with the server configuration.")
  }
}

/**
 * No payload from fuzz-requests' MARKUP_PAYLOADS came through an HTML page unescaped: no
 * `<fz-x` element and no `fz-on` attribute right after a quote.
 */
export function expectNoMarkupInjection(answer: Answer): void {
  if (!answer.contentType.startsWith("text/html")) return
  for (const raw of ["<fz-x", '" fz-on=', "' fz-on="]) {
    const at = answer.body.indexOf(raw)
    if (at !== -1) expect.fail(`input reached the page as markup: …${answer.body.slice(Math.max(0, at - 120), at + 60)}…`)
  }
}
