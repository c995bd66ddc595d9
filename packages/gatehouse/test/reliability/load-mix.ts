/**
 * What autocannon sends, and the check of every answer. Each connection runs one cycle of requests
 * over and over; a request picks a random signed-in user as it is built (`setupRequest`), and its
 * answer is checked against that user (`onResponse`). The mixed cycle also carries one full
 * credentials sign-in and sign-out, chained through the connection's context: CSRF token, sign-in,
 * a read of the new session, sign-out.
 */
import type autocannon from "autocannon"
import { defaultCookies } from "../../src/cookies/defaults.js"
import { LOAD_PASSWORD, type LoadUser } from "./load-app.js"

const cookieNames = defaultCookies(false)
export const SESSION_COOKIE = cookieNames.sessionToken.name
export const CSRF_COOKIE = cookieNames.csrfToken.name

/** A base user with the session cookie value the setup got for them. */
export interface SignedInUser extends LoadUser {
  sessionToken: string
}

/** A session the load itself opened. `signing-out`: the sign-out was sent, its answer not seen. */
export interface ChurnSession {
  userId: string
  state: "live" | "signing-out" | "signed-out"
}

export type RequestKind = "session" | "protected" | "anonymous" | "csrf" | "sign-in" | "own-session" | "sign-out"

/** The answers of one autocannon run, by kind. */
export interface Tally {
  answers: Record<RequestKind, number>
  /** Answers whose status or body was not what that request must get. */
  unexpected: Record<RequestKind, number>
  /** The first few unexpected answers, described. */
  samples: string[]
}

export function newTally(): Tally {
  const zero = (): Record<RequestKind, number> => ({ session: 0, protected: 0, anonymous: 0, csrf: 0, "sign-in": 0, "own-session": 0, "sign-out": 0 })
  return { answers: zero(), unexpected: zero(), samples: [] }
}

export function unexpectedTotal(tally: Tally): number {
  return Object.values(tally.unexpected).reduce((sum, n) => sum + n, 0)
}

/** What a connection remembers between the requests of one pass through its cycle. */
interface Context {
  expectedUserId?: string
  csrfToken?: string
  csrfCookie?: string
  churnUserId?: string
  churnToken?: string
}

const contextOf = (context: object) => context as Context

type Headers = autocannon.Request["headers"]

function header(headers: Headers, name: string): string[] {
  const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1]
  return found === undefined ? [] : Array.isArray(found) ? found : [String(found)]
}

/** The value a `Set-Cookie` gives cookie `name`: "" when it clears it, undefined when it does not set it. */
function setCookieValue(headers: Headers, name: string): string | undefined {
  const line = header(headers, "set-cookie").find((line) => line.startsWith(`${name}=`))
  if (line === undefined) return undefined
  const value = line.slice(name.length + 1).split(";")[0]!
  return /;\s*Max-Age=0(;|$)/i.test(line) ? "" : value
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

/** `user.id` of a session body, or undefined. */
function sessionUserId(body: string): unknown {
  const parsed = parse(body) as { user?: { id?: unknown } } | null | undefined
  return parsed?.user?.id
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!
}

const form = { "content-type": "application/x-www-form-urlencoded" }

/** Builds the requests of the cycles, all reporting into `tally` and `churn`. */
export class LoadMix {
  constructor(
    private readonly users: readonly SignedInUser[],
    private readonly churnUsers: readonly LoadUser[],
    /** Every session the sign-ins opened, by token; kept across runs for the checks afterwards. */
    readonly churn: Map<string, ChurnSession>,
    private tally: Tally = newTally(),
  ) {}

  /** Starts counting into a fresh tally (one per autocannon run); returns it. */
  nextTally(): Tally {
    this.tally = newTally()
    return this.tally
  }

  private check(kind: RequestKind, ok: boolean, status: number, body: string): void {
    this.tally.answers[kind]++
    if (ok) return
    this.tally.unexpected[kind]++
    if (this.tally.samples.length < 10) this.tally.samples.push(`${kind}: ${status} ${body.slice(0, 200)}`)
  }

  /** `path` with a random base user's session cookie; 200 and that user's id expected. */
  private asRandomUser(kind: "session" | "protected", path: string): autocannon.Request {
    return {
      method: "GET",
      path,
      setupRequest: (request, context) => {
        const user = pick(this.users)
        contextOf(context).expectedUserId = user.id
        return { ...request, headers: { ...request.headers, cookie: `${SESSION_COOKIE}=${user.sessionToken}` } }
      },
      onResponse: (status, body, context) => {
        const id = kind === "session" ? sessionUserId(body) : (parse(body) as { id?: unknown } | undefined)?.id
        this.check(kind, status === 200 && id === contextOf(context).expectedUserId, status, body)
      },
    }
  }

  private readonly session = () => this.asRandomUser("session", "/auth/session")
  private readonly protectedRoute = () => this.asRandomUser("protected", "/api/me")

  /** The protected route without a cookie: 401, not a redirect, for an API call. */
  private anonymous(): autocannon.Request {
    return {
      method: "GET",
      path: "/api/me",
      onResponse: (status, body) => this.check("anonymous", status === 401, status, body),
    }
  }

  /** GET /auth/csrf; the token and its cookie are kept for the sign-in and sign-out that follow. */
  private csrf(): autocannon.Request {
    return {
      method: "GET",
      path: "/auth/csrf",
      onResponse: (status, body, context, headers) => {
        const token = (parse(body) as { csrfToken?: unknown } | undefined)?.csrfToken
        const cookie = setCookieValue(headers, CSRF_COOKIE)
        const ok = status === 200 && typeof token === "string" && token !== "" && !!cookie
        if (ok) Object.assign(contextOf(context), { csrfToken: token, csrfCookie: `${CSRF_COOKIE}=${cookie}` })
        this.check("csrf", ok, status, body)
      },
    }
  }

  /** The credentials callback as a form posts it; a redirect with a new session cookie expected. */
  private signIn(): autocannon.Request {
    return {
      method: "POST",
      path: "/auth/callback/credentials",
      setupRequest: (request, context) => {
        const ctx = contextOf(context)
        const user = pick(this.churnUsers)
        ctx.churnUserId = user.id
        const body = new URLSearchParams({ csrfToken: ctx.csrfToken ?? "", username: user.username, password: LOAD_PASSWORD })
        return { ...request, headers: { ...request.headers, ...form, cookie: ctx.csrfCookie ?? "" }, body: body.toString() }
      },
      onResponse: (status, body, context, headers) => {
        const ctx = contextOf(context)
        const token = setCookieValue(headers, SESSION_COOKIE)
        const ok = status === 302 && !!token && !!ctx.churnUserId
        if (ok) {
          ctx.churnToken = token
          this.churn.set(token, { userId: ctx.churnUserId!, state: "live" })
        }
        this.check("sign-in", ok, status, body)
      },
    }
  }

  /** A read of the session the sign-in just opened. */
  private ownSession(): autocannon.Request {
    return {
      method: "GET",
      path: "/auth/session",
      setupRequest: (request, context) => {
        const token = contextOf(context).churnToken ?? ""
        return { ...request, headers: { ...request.headers, cookie: `${SESSION_COOKIE}=${token}` } }
      },
      onResponse: (status, body, context) => {
        const ctx = contextOf(context)
        this.check("own-session", status === 200 && ctx.churnUserId !== undefined && sessionUserId(body) === ctx.churnUserId, status, body)
      },
    }
  }

  /** POST /auth/signout with the session and CSRF cookies; the session cookie must be cleared. */
  private signOut(): autocannon.Request {
    return {
      method: "POST",
      path: "/auth/signout",
      setupRequest: (request, context) => {
        const ctx = contextOf(context)
        const opened = ctx.churnToken === undefined ? undefined : this.churn.get(ctx.churnToken)
        if (opened) opened.state = "signing-out"
        const cookie = [ctx.csrfCookie, ctx.churnToken && `${SESSION_COOKIE}=${ctx.churnToken}`].filter(Boolean).join("; ")
        const body = new URLSearchParams({ csrfToken: ctx.csrfToken ?? "" }).toString()
        return { ...request, headers: { ...request.headers, ...form, cookie }, body }
      },
      onResponse: (status, body, context, headers) => {
        const ctx = contextOf(context)
        const ok = status === 302 && ctx.churnToken !== undefined && setCookieValue(headers, SESSION_COOKIE) === ""
        const opened = ctx.churnToken === undefined ? undefined : this.churn.get(ctx.churnToken)
        if (ok && opened) opened.state = "signed-out"
        this.check("sign-out", ok, status, body)
      },
    }
  }

  /** Session reads only, each with a random user's cookie. */
  sessionReads(): autocannon.Request[] {
    return [this.session()]
  }

  /**
   * Twenty requests: 11 session reads, 4 protected-route hits and 1 without a cookie, and one
   * sign-in chain (CSRF token, sign-in, a read of the new session, sign-out) among them. The chain
   * ends early in the cycle, so even a slow run's few passes sign out as well as in.
   */
  mixed(): autocannon.Request[] {
    const { session, protectedRoute } = this
    return [
      this.csrf(),
      session(),
      this.signIn(),
      protectedRoute(),
      session(),
      this.ownSession(),
      session(),
      this.signOut(),
      session(),
      this.anonymous(),
      protectedRoute(),
      session(),
      session(),
      protectedRoute(),
      session(),
      session(),
      protectedRoute(),
      session(),
      session(),
      session(),
    ]
  }
}
