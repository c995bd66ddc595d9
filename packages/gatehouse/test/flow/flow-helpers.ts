/**
 * Shared by the flow tests: a configuration, a cookie jar that behaves like a browser's for one
 * origin, and request builders that go through `Auth()` only.
 */
import { createHash } from "node:crypto"
import { vi } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, LoggerInstance, User } from "../../src/types.js"
import { CookieJar } from "../support/cookie-jar.js"

export { CookieJar }

export const secret = "flow-test-secret-0123456789abcdef0123456789"
export const origin = "https://app.test"
export const base = `${origin}/auth`

export const ada: User = { id: "user-ada", name: "Ada Lovelace", email: "ada@app.test", image: "https://app.test/ada.png" }

/** The default `session.updateAge`: one day, in milliseconds. */
export const UPDATE_AGE_MS = 24 * 60 * 60 * 1000

/**
 * Moves `Date` on by `ms` (default: past the one-day `updateAge`, so the next read writes the JWT
 * session cookie again). Only `Date` is faked; call `vi.useRealTimers()` afterwards.
 */
export function moveClockOn(ms: number = UPDATE_AGE_MS + 1_000): void {
  const now = Date.now()
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(now + ms)
}

/** One line a {@link recordingLogger} recorded. */
export interface RecordedLine {
  level: keyof LoggerInstance
  code: string
  message: unknown[]
}

/**
 * Whether `line` reports a failure: a server fault (`error`, the error object) or what a client
 * caused (`warn` under the error's type, one line). Error types are PascalCase, the codes of
 * configuration and shared-store warnings kebab-case.
 */
export function isFailure(line: RecordedLine): boolean {
  return line.level === "error" || (line.level === "warn" && /^[A-Z]/.test(line.code))
}

/** The message of a failure line: the error's, or the client-caused line itself. */
export function failureMessage(line: RecordedLine): string {
  const [first] = line.message
  return first instanceof Error ? first.message : String(first)
}

/** A logger that records every line instead of printing it. */
export function recordingLogger() {
  const lines: RecordedLine[] = []
  const logger: LoggerInstance = {
    error: (code, ...message) => lines.push({ level: "error", code, message }),
    warn: (code, ...message) => lines.push({ level: "warn", code, message }),
    debug: (code, ...message) => lines.push({ level: "debug", code, message }),
  }
  return { logger, lines }
}

/**
 * A credentials configuration that signs in `ada` with password `correct horse`. Unthrottled: the
 * tests using it sign ada in many times over; throttling is tested in credentials-throttling.test.ts.
 */
export function credentialsConfig(extra: Partial<AuthConfig> = {}): AuthConfig & { raw?: undefined } {
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => (username === "ada" && password === "correct horse" ? { ...ada } : null),
        rateLimit: false,
      }),
    ],
    ...extra,
  } as AuthConfig & { raw?: undefined }
}

/** A browser-like client of one configuration on one origin: keeps cookies, fetches the CSRF token. */
export class Client {
  readonly jar = new CookieJar()
  constructor(
    readonly config: AuthConfig,
    readonly origin: string = "https://app.test",
  ) {}

  async send(request: Request): Promise<Response> {
    return this.jar.store(await Auth(request, this.config as Omit<AuthConfig, "raw">))
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(new Request(`${this.origin}/auth/${path}`, { headers: { cookie: this.jar.header(), ...headers } }))
  }

  postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(
      new Request(`${this.origin}/auth/${path}`, {
        method: "POST",
        headers: { cookie: this.jar.header(), "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields),
      }),
    )
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(
      new Request(`${this.origin}/auth/${path}`, {
        method: "POST",
        headers: { cookie: this.jar.header(), "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    )
  }

  async csrfToken(): Promise<string> {
    const response = await this.get("csrf")
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** Signs in through the credentials callback; returns the callback's response. */
  async signIn(fields: Record<string, string> = { username: "ada", password: "correct horse" }): Promise<Response> {
    return this.postForm("callback/credentials", { csrfToken: await this.csrfToken(), ...fields })
  }

  async session(): Promise<unknown> {
    return (await this.get("session")).json()
  }
}

/**
 * The key a database session row is stored under for the session cookie's `token`: its SHA-256
 * (`session.hashTokens`, on by default), computed here independently of the library.
 */
export function storedKey(token: string | undefined): string {
  if (token === undefined) throw new Error("No session cookie to look up")
  return `sha256:${createHash("sha256").update(token, "utf8").digest("hex")}`
}
