/**
 * PostgreSQL going away under a running app and coming back, on a throwaway cluster of this
 * file's own (stopping the run's shared server would break the other files): the adapter's calls
 * fail promptly and the same Pool works again; sign-ins and session reads running all the while
 * get clean answers during the outage (no driver message, no user signed out) and work again
 * after it, without restarting anything; and the rows left behind are whole (checked with SQL).
 * Also: a store call bounded by the driver (`statement_timeout`) against a locked table.
 */
import pg from "pg"
import { afterAll, beforeAll, expect, it } from "vitest"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { ownMigratedPostgres } from "../support/postgres.js"
import { authorizeAtGitHub, DASHBOARD, ORIGIN, SESSION_COOKIE, VERIFY_REQUEST } from "./adapter-steps-support.js"

const CONFIGURATION_ERROR = `${ORIGIN}/auth/error?error=Configuration`
/** What a driver or a server says that must never reach a client. */
const DRIVER_WORDS = /ECONNREFUSED|ECONNRESET|terminat|Connection terminated|postgres|statement timeout|canceling statement|127\.0\.0\.1|\bat .+:\d+:\d+/i

const postgres = ownMigratedPostgres()

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: [`${ORIGIN}/auth/callback/github`] })
})
afterAll(() => github?.stop())

/** An app on `adapter`: credentials (any stored address), email links, and the GitHub-like server; database sessions. */
function app(adapter: AuthConfig["adapter"]) {
  const log = recordingLogger()
  const mailbox: { identifier: string; url: string }[] = []
  const email: EmailConfig = {
    id: "email",
    type: "email",
    name: "Email",
    rateLimit: false,
    sendVerificationRequest: ({ identifier, url }) => {
      mailbox.push({ identifier, url })
    },
  }
  const github_ = githubLikeProvider(github, {
    profile: (profile) => ({ id: String(profile.id), name: String(profile.login), email: typeof profile.email === "string" ? profile.email : null }),
  })
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter,
    // Every read extends the row: reads write, as they do once a day in production.
    session: { strategy: "database", updateAge: 0 },
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: async ({ username }) => {
          const user = typeof username === "string" ? await adapter!.getUserByEmail!(username) : null
          return user && { id: user.id, email: user.email }
        },
        // The workers sign in again and again while the server restarts; throttling is not measured here.
        rateLimit: false,
      }),
      email,
      github_,
    ],
  }
  return { config, log, mailbox }
}

/** Whatever happened, the answer is one a browser can be given. */
async function expectClean(response: Response): Promise<void> {
  expect(response.status).toBeLessThan(500)
  expect(await response.clone().text()).not.toMatch(DRIVER_WORDS)
  const location = response.headers.get("location")
  if (location?.startsWith(ORIGIN)) expect(location).not.toMatch(DRIVER_WORDS)
}

const locationOf = (response: Response) => response.headers.get("location")
const sessionCookieLines = (response: Response) => response.headers.getSetCookie().filter((line) => line.startsWith(SESSION_COOKIE))

async function signInWithCredentials(client: Client, email: string): Promise<Response> {
  return client.postForm("callback/credentials", { csrfToken: await client.csrfToken(), username: email, callbackUrl: DASHBOARD })
}

async function emailOf(client: Client): Promise<string | null> {
  const response = await client.get("session")
  await expectClean(response)
  return ((await response.json()) as { user?: { email?: string } } | null)?.user?.email ?? null
}

it("fails adapter calls while the server is down, cuts off a query in flight, and works on the same Pool once it is back", async () => {
  const adapter = PostgresAdapter(postgres.pool)
  const user = await adapter.createUser({ email: "pool@example.com", emailVerified: null })
  // Several idle connections, so the shutdown has idle clients to kill ('error' on the Pool).
  await Promise.all(Array.from({ length: 4 }, () => adapter.getUser(user.id)))
  expect(postgres.pool.totalCount).toBeGreaterThan(1)

  const inFlight = postgres.pool.query("SELECT pg_sleep(30)")
  inFlight.catch(() => {})
  await new Promise((resolve) => setTimeout(resolve, 200))
  await postgres.server.stop()
  await expect(inFlight).rejects.toThrow()

  await expect(adapter.getUser(user.id)).rejects.toThrow()
  await expect(adapter.getSessionAndUser("any")).rejects.toThrow()
  await expect(adapter.useVerificationToken({ identifier: "a", token: "b" })).rejects.toThrow()
  await expect(adapter.createUser({ email: "down@example.com", emailVerified: null })).rejects.toThrow()

  await postgres.server.start()
  expect(await adapter.getUser(user.id)).toEqual(user)
  const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000) })
  expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(user.id)
}, 120_000)

it("keeps answering cleanly while the server stops and starts under running sign-ins and session reads, leaves whole rows, and recovers without a restart", async () => {
  const adapter = PostgresAdapter(postgres.pool)
  const { config, log, mailbox } = app(adapter)
  await Promise.all(["reader", "worker"].map((name) => adapter.createUser({ email: `${name}@example.com`, emailVerified: null, name })))

  // Signed in before the outage, and a link sent before it: both must survive it.
  const reader = new Client(config, ORIGIN)
  expect(locationOf(await signInWithCredentials(reader, "reader@example.com"))).toBe(DASHBOARD)
  const readerCookie = reader.jar.get(SESSION_COOKIE)
  const linkClient = new Client(config, ORIGIN)
  await linkClient.postForm("signin/email", { csrfToken: await linkClient.csrfToken(), email: "early@example.com", callbackUrl: DASHBOARD })
  const earlyLink = mailbox.at(-1)!.url.slice(`${ORIGIN}/auth/`.length)

  // Each attempt counts for the phase it started in; "stopping" and "starting" are the moments
  // pg_ctl takes, when an attempt may go either way.
  type Phase = "before" | "stopping" | "down" | "starting" | "after"
  let phase: Phase = "before"
  let running = true
  const tally = new Map<string, { success: number; failure: number }>()
  const count = (loop: string, started: Phase, success: boolean) => {
    const key = `${loop}:${started}`
    const entry = tally.get(key) ?? { success: 0, failure: 0 }
    entry[success ? "success" : "failure"]++
    tally.set(key, entry)
  }
  const tallied = (loop: string, started: Phase) => tally.get(`${loop}:${started}`) ?? { success: 0, failure: 0 }
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

  // Each loop acts like a stream of users; every answer is checked as it comes.
  const loops: Record<string, () => Promise<boolean>> = {
    async credentials() {
      const client = new Client(config, ORIGIN)
      const response = await signInWithCredentials(client, "worker@example.com")
      await expectClean(response)
      if (locationOf(response) !== DASHBOARD) {
        expect(locationOf(response)).toBe(CONFIGURATION_ERROR)
        expect(sessionCookieLines(response)).toEqual([])
        return false
      }
      return (await emailOf(client)) === "worker@example.com"
    },
    async oauth() {
      const n = Math.floor(Math.random() * 1e9)
      github.user = { ...github.user, id: n, login: `octo${n}`, email: `octo${n}@users.example` }
      const client = new Client(config, ORIGIN)
      const response = await client.get(await authorizeAtGitHub(client))
      await expectClean(response)
      if (locationOf(response) !== DASHBOARD) {
        expect(locationOf(response)).toBe(CONFIGURATION_ERROR)
        return false
      }
      return (await emailOf(client)) === `octo${n}@users.example`
    },
    async email() {
      const client = new Client(config, ORIGIN)
      const address = `mail${Math.floor(Math.random() * 1e9)}@example.com`
      const requested = await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email: address, callbackUrl: DASHBOARD })
      await expectClean(requested)
      if (locationOf(requested) !== VERIFY_REQUEST) {
        expect(locationOf(requested)).toBe(CONFIGURATION_ERROR)
        return false
      }
      const link = mailbox.find((mail) => mail.identifier === address)!.url
      const clicked = await client.get(link.slice(`${ORIGIN}/auth/`.length))
      await expectClean(clicked)
      if (locationOf(clicked) !== DASHBOARD) {
        expect(locationOf(clicked)).toBe(CONFIGURATION_ERROR)
        return false
      }
      return (await emailOf(client)) === address
    },
    async reads() {
      const response = await reader.get("session")
      await expectClean(response)
      expect(response.status).toBe(200)
      const session = (await response.json()) as { user: { email: string } } | null
      // An outage is not a sign-out: the cookie is never cleared for it.
      if (session === null) expect(sessionCookieLines(response).filter((line) => /Max-Age=0/i.test(line))).toEqual([])
      else expect(session.user.email).toBe("reader@example.com")
      return session !== null
    },
  }
  const failures: unknown[] = []
  const runners = Object.entries(loops).map(async ([name, step]) => {
    while (running) {
      const started = phase
      try {
        count(name, started, await step())
      } catch (error) {
        failures.push(error)
        running = false
      }
      await pause()
    }
  })
  const untilEach = async (started: Phase, what: "success" | "failure", atLeast: number) => {
    while (running && Object.keys(loops).some((name) => tallied(name, started)[what] < atLeast)) await pause()
  }

  try {
    await untilEach("before", "success", 2)
    phase = "stopping"
    await postgres.server.stop()
    phase = "down"
    await untilEach("down", "failure", 3)

    // While it is down, step by step: clean errors, no cookie touched, nothing sent.
    const check = await reader.get("session")
    expect(await check.json()).toBeNull()
    expect(sessionCookieLines(check)).toEqual([])
    const newcomer = new Client(config, ORIGIN)
    const refused = await signInWithCredentials(newcomer, "worker@example.com")
    expect(locationOf(refused)).toBe(CONFIGURATION_ERROR)
    expect(sessionCookieLines(refused)).toEqual([])
    const asJson = await newcomer.postJson("callback/credentials", { csrfToken: await newcomer.csrfToken(), username: "worker@example.com" }, { "x-auth-return-redirect": "1" })
    expect(await asJson.json()).toEqual({ url: CONFIGURATION_ERROR })
    const sent = mailbox.length
    const linkDuring = await newcomer.postForm("signin/email", { csrfToken: await newcomer.csrfToken(), email: "during@example.com" })
    expect(locationOf(linkDuring)).toBe(CONFIGURATION_ERROR)
    expect(mailbox.length).toBe(sent)
    expect(locationOf(await linkClient.get(earlyLink))).toBe(CONFIGURATION_ERROR)

    phase = "starting"
    await postgres.server.start()
    phase = "after"
    await untilEach("after", "success", 2)
  } finally {
    running = false
    await Promise.all(runners)
  }
  if (failures.length > 0) throw failures[0]
  for (const name of Object.keys(loops)) {
    // Nothing works while the server is down, and everything does once it is back.
    expect(tallied(name, "down").success, `${name} succeeding while the server was down`).toBe(0)
    expect(tallied(name, "after").failure, `${name} failing after the restart`).toBe(0)
  }

  // Back without restarting anything: the same cookie, the link sent before the outage.
  expect(reader.jar.get(SESSION_COOKIE)).toBe(readerCookie)
  expect(await emailOf(reader)).toBe("reader@example.com")
  expect(locationOf(await linkClient.get(earlyLink))).toBe(DASHBOARD)
  expect(log.lines.map((line) => line.code)).toEqual(expect.arrayContaining(["SessionTokenError", "AdapterError"]))

  const rows = async (sql: string) => (await postgres.pool.query(sql)).rows as Record<string, unknown>[]
  expect(await rows(`SELECT s.id FROM sessions s LEFT JOIN users u ON u.id = s."userId" WHERE u.id IS NULL`)).toEqual([])
  expect(await rows(`SELECT a.id FROM accounts a LEFT JOIN users u ON u.id = a."userId" WHERE u.id IS NULL`)).toEqual([])
  expect(await rows(`SELECT email FROM users WHERE email IS NOT NULL GROUP BY email HAVING count(*) > 1`)).toEqual([])
  // A user from an OAuth sign-up without its account can only be one whose two writes the outage
  // split, whose removal failed too; then the log names it for removal by hand.
  const accountless = await rows(
    `SELECT id FROM users u WHERE email LIKE 'octo%@users.example' AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a."userId" = u.id)`,
  )
  const named = log.lines.map((line) => String((line.message[0] as Error | undefined)?.message))
  for (const { id } of accountless) expect(named).toContain(`User ${String(id)}, created for a sign-in that failed, may still be stored`)
  // Every stored link went out in an email.
  const sentTo = new Set(mailbox.map((mail) => mail.identifier))
  for (const { identifier } of await rows(`SELECT identifier FROM verification_token`)) expect(sentTo).toContain(identifier)
}, 120_000)

it("lets the driver bound a store call: a statement waiting on a locked table times out into a clean error, nothing is half-written, and both the same link and a new sign-up work once the lock is gone", async () => {
  const bounded = new pg.Pool({ connectionString: postgres.server.url, max: 4, statement_timeout: 300 })
  const locker = new pg.Client({ connectionString: postgres.server.url })
  await locker.connect()
  try {
    const adapter = PostgresAdapter(bounded)
    const { config, mailbox } = app(adapter)
    const emailClient = new Client(config, ORIGIN)
    await emailClient.postForm("signin/email", { csrfToken: await emailClient.csrfToken(), email: "locked@example.com", callbackUrl: DASHBOARD })
    const link = mailbox.at(-1)!.url.slice(`${ORIGIN}/auth/`.length)
    github.user = { ...github.user, id: 77, login: "locked", email: "locked-octo@users.example" }
    const oauthClient = new Client(config, ORIGIN)
    const callback = await authorizeAtGitHub(oauthClient)

    // Sessions cannot be written while the lock is held: both sign-ins stop at their last write.
    await locker.query("BEGIN")
    await locker.query("LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE")
    for (const response of [await emailClient.get(link), await oauthClient.get(callback)]) {
      await expectClean(response)
      expect(locationOf(response)).toBe(CONFIGURATION_ERROR)
      expect(sessionCookieLines(response)).toEqual([])
    }
    await locker.query("ROLLBACK")

    const users = await bounded.query(`SELECT id, email FROM users WHERE email IN ('locked@example.com', 'locked-octo@users.example')`)
    const accounts = await bounded.query(`SELECT "userId" FROM accounts WHERE provider = 'github' AND "providerAccountId" = '77'`)
    // The OAuth user came with its account; the link was given back, not spent.
    expect(accounts.rows.map((row) => row.userId)).toEqual(users.rows.filter((row) => row.email === "locked-octo@users.example").map((row) => row.id))
    expect((await bounded.query(`SELECT 1 FROM verification_token WHERE identifier = 'locked@example.com'`)).rowCount).toBe(1)

    expect(locationOf(await emailClient.get(link))).toBe(DASHBOARD)
    expect(await emailOf(emailClient)).toBe("locked@example.com")
    expect(locationOf(await oauthClient.get(await authorizeAtGitHub(oauthClient)))).toBe(DASHBOARD)
    expect(await emailOf(oauthClient)).toBe("locked-octo@users.example")
  } finally {
    await locker.end()
    await bounded.end()
  }
}, 60_000)
