/**
 * The bounded load run, start to end: seed users, sign each in once over HTTP, warm up, then two
 * autocannon phases of fixed length (session reads only; the mixed load with sign-in and sign-out
 * churn), and afterwards the checks that make the figures mean something: every session still
 * reads as its user, signed-out sessions stay gone, the session table holds exactly the rows the
 * server created and did not delete, and the heap after a full collection.
 *
 * Loopback only: the app listens on 127.0.0.1 and autocannon runs in this process against it.
 * Used by test/reliability/load.test.ts (seconds) and bench/load.ts (the README's figures).
 */
import autocannon from "autocannon"
import type pg from "pg"
import { migrate } from "../../src/adapters/postgres.js"
import { LOAD_PASSWORD, seedUsers, startLoadServer, type LoadServer, type LoadUser } from "./load-app.js"
import { watchMemory, type MemoryFigures } from "./load-memory.js"
import { CSRF_COOKIE, LoadMix, SESSION_COOKIE, unexpectedTotal, type ChurnSession, type SignedInUser, type Tally } from "./load-mix.js"

export interface LoadOptions {
  /** Users signed in once before the load; every session read picks one at random. */
  users: number
  /** Users the mixed phase signs in and out (a new session each time). */
  churnUsers: number
  /** autocannon connections, each with one request in flight. */
  connections: number
  /** Seconds of each measured phase. */
  phaseSeconds: number
  /** Seconds of mixed load before the first heap figure, so the JIT and the pool are warm. */
  warmupSeconds: number
  /** Progress lines; silent when absent. */
  log?: (line: string) => void
}

export interface PhaseResult {
  name: string
  seconds: number
  connections: number
  requests: number
  requestsPerSecond: number
  latencyP50Ms: number
  latencyP99Ms: number
  /** Socket errors and timeouts, as autocannon counts them. */
  errors: number
  timeouts: number
  /** Answers autocannon counts as not 2xx (redirects and the expected 401s included). */
  non2xx: number
  statusCodes: Record<string, number>
  /** Answers whose status or body was not what that request must get. */
  unexpected: number
  tally: Tally
}

export interface LoadResult {
  options: Omit<LoadOptions, "log">
  /** The unmeasured mixed load before the heap figure; its answers are checked all the same. */
  warmup: PhaseResult
  phases: PhaseResult[]
  /** Base users whose session no longer read as them after the run (should be 0). */
  lostSessions: number
  lostSamples: string[]
  churn: {
    signIns: number
    signOuts: number
    /** Sessions the load opened and never signed out, read after the run. */
    liveChecked: number
    liveLost: number
    /** Sessions signed out during the load, read after the run; each must read as no session. */
    signedOutChecked: number
    signedOutStillValid: number
    /** Sign-outs cut off by the end of the run, so their outcome is unknown to the client. */
    undecided: number
  }
  sessionRows: { before: number; after: number; expected: number }
  serverErrors: number
  serverErrorSamples: string[]
  memory: MemoryFigures
}

/** Runs `task` over `items`, `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await task(items[next++]!)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

function cookieValue(response: Response, name: string): string | undefined {
  const line = response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
  return line?.slice(name.length + 1).split(";")[0]
}

/** A credentials sign-in as a browser form does it; returns the session cookie's value. */
async function signIn(origin: string, user: LoadUser): Promise<string> {
  const csrf = await fetch(`${origin}/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await fetch(`${origin}/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${CSRF_COOKIE}=${cookieValue(csrf, CSRF_COOKIE)}` },
    body: new URLSearchParams({ csrfToken, username: user.username, password: LOAD_PASSWORD }),
  })
  await response.arrayBuffer()
  const token = cookieValue(response, SESSION_COOKIE)
  if (response.status !== 302 || !token) throw new Error(`sign-in of ${user.username} answered ${response.status} without a session cookie`)
  return token
}

/** The user id `GET /auth/session` answers for `token` (null for no session). */
async function sessionUserId(origin: string, token: string): Promise<string | null> {
  const response = await fetch(`${origin}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } })
  if (response.status !== 200) throw new Error(`GET /auth/session answered ${response.status}`)
  const body = (await response.json()) as { user?: { id?: string } } | null
  return body?.user?.id ?? null
}

async function sessionRows(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ count: number }>("SELECT count(*)::int AS count FROM sessions")
  return rows[0]!.count
}

/** Reads every base user's session again; counts those that no longer read as their user. */
async function rereadSessions(origin: string, users: readonly SignedInUser[]): Promise<{ lost: number; samples: string[] }> {
  const samples: string[] = []
  let lost = 0
  await eachLimited(users, 8, async (user) => {
    const id = await sessionUserId(origin, user.sessionToken)
    if (id === user.id) return
    lost++
    if (samples.length < 10) samples.push(`${user.username}: read as ${id}`)
  })
  return { lost, samples }
}

/** Reads every session the load opened: still its user unless signed out, and no session once signed out. */
async function rereadChurn(origin: string, opened: ReadonlyMap<string, ChurnSession>): Promise<Omit<LoadResult["churn"], "signIns" | "signOuts">> {
  const counts = { liveChecked: 0, liveLost: 0, signedOutChecked: 0, signedOutStillValid: 0, undecided: 0 }
  await eachLimited([...opened], 8, async ([token, session]) => {
    if (session.state === "signing-out") {
      counts.undecided++
      return
    }
    const id = await sessionUserId(origin, token)
    if (session.state === "live") {
      counts.liveChecked++
      if (id !== session.userId) counts.liveLost++
    } else {
      counts.signedOutChecked++
      if (id !== null) counts.signedOutStillValid++
    }
  })
  return counts
}

async function phase(name: string, origin: string, requests: autocannon.Request[], mix: LoadMix, options: LoadOptions): Promise<PhaseResult> {
  const tally = mix.nextTally()
  const result = await autocannon({ url: origin, connections: options.connections, duration: options.phaseSeconds, requests, timeout: 10 })
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]))
  const answered = result.requests.total
  const phaseResult: PhaseResult = {
    name,
    seconds: result.duration,
    connections: options.connections,
    requests: answered,
    requestsPerSecond: Math.round(answered / result.duration),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    unexpected: unexpectedTotal(tally),
    tally,
  }
  options.log?.(
    `  ${name}: ${answered} requests, ${phaseResult.requestsPerSecond} req/s, p50 ${phaseResult.latencyP50Ms} ms, p99 ${phaseResult.latencyP99Ms} ms, ` +
      `errors ${result.errors}, timeouts ${result.timeouts}, unexpected ${phaseResult.unexpected}`,
  )
  return phaseResult
}

/**
 * Runs the load against a fresh app on `pool`, which must reach an empty database or schema
 * (it is migrated here). The caller owns the pool.
 */
export async function runLoad(pool: pg.Pool, options: LoadOptions): Promise<LoadResult> {
  const log = options.log ?? (() => {})
  await migrate(pool)
  const baseUsers = await seedUsers(pool, "user", options.users)
  const churnUsers = await seedUsers(pool, "churn", options.churnUsers)
  const server: LoadServer = await startLoadServer(pool, [...baseUsers, ...churnUsers])
  try {
    log(`Signing in ${baseUsers.length} users at ${server.origin}`)
    const users: SignedInUser[] = []
    await eachLimited(baseUsers, 8, async (user) => {
      users.push({ ...user, sessionToken: await signIn(server.origin, user) })
    })
    const rowsBefore = await sessionRows(pool)
    // From here on the events count what the load does, not the setup.
    server.resetCounts()

    const mix = new LoadMix(users, churnUsers, new Map())
    log(`Warming up for ${options.warmupSeconds} s`)
    const warmup = await phase("warm-up", server.origin, mix.mixed(), mix, { ...options, phaseSeconds: options.warmupSeconds })
    await server.drained()

    const memoryWatch = watchMemory()
    const phases: PhaseResult[] = []
    let memory: MemoryFigures
    try {
      log(`Phase 1: session reads, ${options.connections} connections, ${options.phaseSeconds} s`)
      phases.push(await phase("session reads", server.origin, mix.sessionReads(), mix, options))
      log(`Phase 2: mixed load with sign-in and sign-out, ${options.connections} connections, ${options.phaseSeconds} s`)
      phases.push(await phase("mixed", server.origin, mix.mixed(), mix, options))
      // autocannon cuts its connections at the deadline; the server finishes what it had started.
      await server.drained()
    } finally {
      memory = memoryWatch.stop()
    }
    log(`Heap ${memory.heapBeforeMB} → ${memory.heapAfterMB} MB (${memory.method}), RSS peak ${memory.rssPeakMB} MB`)

    log("Reading every session again")
    const base = await rereadSessions(server.origin, users)
    const churn = { signIns: server.counters.signIns, signOuts: server.counters.signOuts, ...(await rereadChurn(server.origin, mix.churn)) }
    const rowsAfter = await sessionRows(pool)

    return {
      options: { users: options.users, churnUsers: options.churnUsers, connections: options.connections, phaseSeconds: options.phaseSeconds, warmupSeconds: options.warmupSeconds },
      warmup,
      phases,
      lostSessions: base.lost,
      lostSamples: base.samples,
      churn,
      sessionRows: { before: rowsBefore, after: rowsAfter, expected: rowsBefore + server.counters.signIns - server.counters.signOuts },
      serverErrors: server.counters.errors,
      serverErrorSamples: server.counters.firstErrors,
      memory,
    }
  } finally {
    await server.close()
  }
}
