/**
 * The app under load: Express 5 with `ServerAuth` at /auth and a `requireAuth` API route, database
 * sessions through `PostgresAdapter` on the caller's pg Pool, a credentials provider over stored
 * users. It counts, on the server side, what the load test checks against afterwards: sessions
 * created and deleted (through the events), requests still running, and error log lines.
 *
 * Shared by test/reliability/load.test.ts and bench/load.ts, so it imports neither vitest nor the
 * test helpers that do.
 */
import express from "express"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import type pg from "pg"
import type { AdapterUser } from "../../src/adapters/index.js"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import { requireAuth, ServerAuth, type ServerAuthConfig } from "../../src/express/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { Session } from "../../src/types.js"

/** One stored user the load signs in as. */
export interface LoadUser {
  id: string
  username: string
}

/**
 * Every load user's password. Checked by plain comparison: the load measures sessions, and a
 * password hash (scrypt at OWASP's cost) would make every sign-in cost about 0.3 s of CPU and
 * 128 MB here.
 */
export const LOAD_PASSWORD = "load-test-password"

/** The session the app answers with: the default one plus the user's id, so a read can be checked. */
export interface LoadSession extends Session {
  user?: Session["user"] & { id?: string }
}

/** What the server saw, for the checks after the run. */
export interface ServerCounters {
  /** Sessions created: `signIn` events, each emitted after its session row was written. */
  signIns: number
  /** Sessions deleted: `signOut` events that carried the deleted row. */
  signOuts: number
  /** Requests that arrived and have not been answered (or abandoned) yet. */
  inFlight: number
  /** `logger.error` lines; the first few are kept whole. */
  errors: number
  firstErrors: string[]
  warnings: number
}

export interface LoadServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  port: number
  counters: ServerCounters
  /** Zeroes the sign-in, sign-out and log counts (not `inFlight`). */
  resetCounts(): void
  /** Resolves once no request is running, or rejects after `timeoutMs`. */
  drained(timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** Creates `count` users named `<prefix>-<n>` through the adapter, ten at a time. */
export async function seedUsers(pool: pg.Pool, prefix: string, count: number): Promise<LoadUser[]> {
  const adapter = PostgresAdapter(pool)
  const users: LoadUser[] = []
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) => `${prefix}-${start + i}`)
    const created = await Promise.all(
      batch.map((username) => adapter.createUser({ id: crypto.randomUUID(), name: username, email: `${username}@load.test`, emailVerified: null })),
    )
    created.forEach((user: AdapterUser, i) => users.push({ id: user.id, username: batch[i]! }))
  }
  return users
}

function describeLogLine(code: string, message: unknown[]): string {
  const parts = message.map((part) => (part instanceof Error ? `${part.name}: ${part.message}` : String(part)))
  return [code, ...parts].join(" ").slice(0, 500)
}

/** The auth configuration: database sessions on `pool`, credentials checked against `users`. */
function loadConfig(pool: pg.Pool, users: LoadUser[], counters: ServerCounters): ServerAuthConfig {
  const idByName = new Map(users.map((user) => [user.username, user.id]))
  return {
    secret: "load-test-secret-0123456789abcdef0123456789abcdef",
    trustHost: true,
    adapter: PostgresAdapter(pool),
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => {
          const id = typeof username === "string" ? idByName.get(username) : undefined
          return id !== undefined && password === LOAD_PASSWORD ? { id, name: String(username) } : null
        },
        // The churn users sign in over and over from one address: the load measures sessions, not throttling.
        rateLimit: false,
      }),
    ],
    callbacks: {
      // The default session hides the user's id; the load checks every read against it.
      session: ({ session, user }) => ({ user: { id: user?.id, name: user?.name, email: user?.email }, expires: session.expires }),
    },
    events: {
      signIn: () => {
        counters.signIns++
      },
      signOut: (message) => {
        if ("session" in message && message.session) counters.signOuts++
      },
    },
    logger: {
      error: (code, ...message) => {
        if (counters.firstErrors.length < 10) counters.firstErrors.push(describeLogLine(code, message))
        counters.errors++
      },
      warn: () => {
        counters.warnings++
      },
      debug: () => {},
    },
  }
}

/** Starts the app on 127.0.0.1 at a free port. */
export async function startLoadServer(pool: pg.Pool, users: LoadUser[]): Promise<LoadServer> {
  const counters: ServerCounters = { signIns: 0, signOuts: 0, inFlight: 0, errors: 0, firstErrors: [], warnings: 0 }
  const config = loadConfig(pool, users, counters)
  const app = express()
  app.disable("x-powered-by")
  app.use((_req, res, next) => {
    counters.inFlight++
    // 'close' fires once per response, answered or cut off by a client that went away.
    res.once("close", () => counters.inFlight--)
    next()
  })
  app.use("/auth", ServerAuth(config))
  app.get("/api/me", requireAuth(config, { redirectTo: false }), (_req, res) => {
    const session = (res.locals as { session?: LoadSession | null }).session
    res.json({ id: session?.user?.id ?? null })
  })

  const server: Server = app.listen(0, "127.0.0.1")
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve).once("error", reject)
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    counters,
    resetCounts() {
      Object.assign(counters, { signIns: 0, signOuts: 0, errors: 0, firstErrors: [], warnings: 0 })
    },
    async drained(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      while (counters.inFlight > 0) {
        if (Date.now() > deadline) throw new Error(`${counters.inFlight} requests still running ${timeoutMs} ms after the load stopped`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
