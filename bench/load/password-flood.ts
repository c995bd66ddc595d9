/**
 * The password-guessing flood: JWT session checks (`GET /auth/session` through `Auth()`, one at a
 * time) timed while idle, then while a fixed number of workers post wrong passwords to the
 * credentials callback as fast as they are answered, each guess for another address from another
 * IP (so throttling, left at its defaults, never refuses one: what is measured is the password
 * hashing limit). The authorize function verifies against a real scrypt hash at OWASP's cost, as
 * an application using gatehouse-auth/password does. The flood with the default hashing limit
 * alternates with idle checks in rounds; then one with the limit raised out of the way shows what
 * the limit buys.
 *
 * In one process, on `Request` objects handed to `Auth()`: no server, no network.
 */
import { loadavg } from "node:os"
import { Worker } from "node:worker_threads"
import { Auth } from "../../packages/gatehouse/src/core/handler.js"
import { encode } from "../../packages/gatehouse/src/jwt/index.js"
import {
  getPasswordHashingConcurrency,
  hashPassword,
  setPasswordHashingConcurrency,
  verifyPassword,
} from "../../packages/gatehouse/src/password/node.js"
import { Credentials } from "../../packages/gatehouse/src/providers/credentials.js"
import type { AuthConfig } from "../../packages/gatehouse/src/types.js"

const ORIGIN = "https://app.test"
const SESSION_COOKIE = "__Secure-authjs.session-token"
const CSRF_COOKIE = "__Host-authjs.csrf-token"
const SECRET = "password-flood-secret-0123456789abcdef0123"
const USER = { sub: "user-ada", name: "Ada Lovelace", email: "ada@app.test" }

export interface FloodOptions {
  /** Seconds each phase measures session checks, in all. */
  phaseSeconds: number
  /** Rounds the idle and default-limit phases are cut into, alternating. */
  rounds: number
  /** Workers posting wrong passwords, each with one guess in flight. */
  attackers: number
  /** The hashing limit of the comparison phase: high enough that the limit does nothing. */
  unlimited: number
  log?: (line: string) => void
}

/** Latency figures in milliseconds. */
export interface Latencies {
  samples: number
  p50: number
  p99: number
  max: number
}

export interface FloodPhase {
  name: string
  /** The password hashing limit in force; null when no flood ran. */
  hashingConcurrency: number | null
  sessionChecks: Latencies
  /** Wrong-password sign-ins answered during the phase, and how long each took. */
  guesses: { answered: number; perSecond: number; latency: Latencies | null; statuses: Record<string, number> }
}

export interface FloodResult {
  options: Omit<FloodOptions, "log">
  defaultConcurrency: number
  phases: FloodPhase[]
  /**
   * p99 under the flood / p99 idle, with the default limit and with the limit out of the way; with
   * one thread spinning and no hashing (a core taken, the pool untouched); and with one scrypt
   * verification after another and no requests (what hashing at all costs, whatever the limit).
   */
  p99Ratio: { defaultLimit: number; unlimited: number; busyThread: number; hashingAlone: number }
  /** Answers other than the expected ones (a session that did not read back, a guess not refused as wrong). */
  unexpected: string[]
  /** The 1-minute load average at the start and the end: above the core count, something else shared the CPUs. */
  loadAverage: { start: number; end: number }
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN
  const round = (ms: number) => Math.round(ms * 100) / 100
  return { samples: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? Number.NaN) }
}

/** The app: JWT sessions, and a credentials provider whose authorize checks a scrypt hash. */
async function floodApp(): Promise<{ config: AuthConfig & { raw?: undefined }; sessionCookie: string; stored: string }> {
  const stored = await hashPassword("the right password, which nobody guesses")
  const config = {
    secret: SECRET,
    trustHost: true,
    // Errors are the point here (every guess is a CredentialsSignin): not printed.
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        // As the gatehouse-auth/password example does: one hash checked for every address, known or not.
        authorize: async ({ email, password }) => ((await verifyPassword(String(password), stored)) && email === USER.email ? { id: USER.sub, ...USER } : null),
      }),
    ],
  } satisfies AuthConfig
  const sessionCookie = await encode({ token: USER, secret: SECRET, salt: SESSION_COOKIE })
  return { config, sessionCookie, stored }
}

export async function runPasswordFlood(options: FloodOptions): Promise<FloodResult> {
  const log = options.log ?? (() => {})
  const loadAtStart = loadAverage()
  const { config, sessionCookie, stored } = await floodApp()
  const unexpected: string[] = []
  const note = (problem: string) => {
    if (unexpected.length < 20) unexpected.push(problem)
  }

  const sessionCheck = async (): Promise<number> => {
    const started = performance.now()
    const response = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${sessionCookie}` } }), config)
    const body = (await response.json()) as { user?: { email?: string } } | null
    const elapsed = performance.now() - started
    if (response.status !== 200 || body?.user?.email !== USER.email) note(`session check answered ${response.status} ${JSON.stringify(body)}`)
    return elapsed
  }

  /** Session checks one after another for `seconds`; their latencies. */
  const checkFor = async (seconds: number): Promise<number[]> => {
    const times: number[] = []
    const end = performance.now() + seconds * 1000
    while (performance.now() < end) times.push(await sessionCheck())
    return times
  }

  // One CSRF pair serves every guess of every worker: the double-submit check is per browser, not per post.
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const csrfCookie = csrf.headers.getSetCookie().find((line) => line.startsWith(`${CSRF_COOKIE}=`))!.split(";")[0]!
  let guessNumber = 0
  const guess = async (): Promise<{ ms: number; status: number }> => {
    const n = guessNumber++
    const started = performance.now()
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: {
          cookie: csrfCookie,
          "content-type": "application/x-www-form-urlencoded",
          // A sprayer: another address from another IP each time, so no throttling bucket fills.
          "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        },
        body: new URLSearchParams({ csrfToken, email: `victim${n}@app.test`, password: `Summer${n}!` }),
      }),
      config,
    )
    await response.arrayBuffer()
    const ms = performance.now() - started
    if (response.status !== 302 || !response.headers.get("location")?.includes("error=CredentialsSignin")) {
      note(`guess answered ${response.status} ${response.headers.get("location") ?? ""}`)
    }
    return { ms, status: response.status }
  }

  /** Runs the flood while `measure` runs; the guesses answered meanwhile. */
  const underFlood = async (measure: () => Promise<number[]>): Promise<{ checks: number[]; guesses: { ms: number; status: number }[]; seconds: number }> => {
    let stop = false
    const guesses: { ms: number; status: number }[] = []
    const worker = async () => {
      while (!stop) guesses.push(await guess())
    }
    const workers = Array.from({ length: options.attackers }, worker)
    // Let the flood fill the queue before the first check.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const counted = guesses.length
    const started = performance.now()
    const checks = await measure()
    const seconds = (performance.now() - started) / 1000
    const during = guesses.slice(counted)
    stop = true
    await Promise.all(workers)
    return { checks, guesses: during, seconds }
  }

  const defaultConcurrency = getPasswordHashingConcurrency()
  log(`Warming up (hashing limit ${defaultConcurrency} by default)`)
  // Long enough for the JIT to settle the session-check path, so idle is not measured cold.
  await checkFor(3)
  await Promise.all(Array.from({ length: 2 }, guess))
  await checkFor(1)

  // Idle and the default-limit flood alternate, round after round, so a change in what else the
  // machine runs meanwhile weighs on both alike; the unlimited flood (a few checks, seconds each) runs once.
  const slice = options.phaseSeconds / options.rounds
  const idle: number[] = []
  const busy: number[] = []
  const alone: number[] = []
  const flooded = { checks: [] as number[], guesses: [] as { ms: number; status: number }[], seconds: 0 }
  for (let round = 1; round <= options.rounds; round++) {
    log(`round ${round}/${options.rounds}: ${slice} s each idle, guessing (hashing limit ${defaultConcurrency}), one busy thread, one hash at a time`)
    idle.push(...(await checkFor(slice)))
    const { checks, guesses, seconds } = await underFlood(() => checkFor(slice))
    flooded.checks.push(...checks)
    flooded.guesses.push(...guesses)
    flooded.seconds += seconds
    busy.push(...(await withBusyThread(() => checkFor(slice))))
    alone.push(...(await withHashing(stored, () => checkFor(slice))))
  }
  setPasswordHashingConcurrency(options.unlimited)
  log(`${options.attackers} workers guessing (hashing limit ${options.unlimited}) for ${options.phaseSeconds} s`)
  const unlimited = await underFlood(() => checkFor(options.phaseSeconds))
  setPasswordHashingConcurrency()

  const floodPhase = (name: string, hashingConcurrency: number, run: typeof flooded): FloodPhase => {
    const statuses: Record<string, number> = {}
    for (const { status } of run.guesses) statuses[status] = (statuses[status] ?? 0) + 1
    return {
      name,
      hashingConcurrency,
      sessionChecks: latencies(run.checks),
      guesses: {
        answered: run.guesses.length,
        perSecond: Math.round((run.guesses.length / run.seconds) * 10) / 10,
        latency: run.guesses.length ? latencies(run.guesses.map((g) => g.ms)) : null,
        statuses,
      },
    }
  }
  const noGuesses = { answered: 0, perSecond: 0, latency: null, statuses: {} }
  const phases: FloodPhase[] = [
    { name: "idle", hashingConcurrency: null, sessionChecks: latencies(idle), guesses: noGuesses },
    { name: "control: one thread spinning, no hashing", hashingConcurrency: null, sessionChecks: latencies(busy), guesses: noGuesses },
    { name: "control: one scrypt verification after another, no requests", hashingConcurrency: 1, sessionChecks: latencies(alone), guesses: noGuesses },
    floodPhase(`flood, hashing limit ${defaultConcurrency} (default)`, defaultConcurrency, flooded),
    floodPhase(`flood, hashing limit ${options.unlimited}`, options.unlimited, unlimited),
  ]

  const idleP99 = phases[0]!.sessionChecks.p99
  const ratio = (phase: FloodPhase) => Math.round((phase.sessionChecks.p99 / idleP99) * 100) / 100
  return {
    options: { phaseSeconds: options.phaseSeconds, rounds: options.rounds, attackers: options.attackers, unlimited: options.unlimited },
    defaultConcurrency,
    phases,
    p99Ratio: { defaultLimit: ratio(phases[3]!), unlimited: ratio(phases[4]!), busyThread: ratio(phases[1]!), hashingAlone: ratio(phases[2]!) },
    unexpected,
    loadAverage: { start: loadAtStart, end: loadAverage() },
  }
}

/**
 * Runs `measure` while a worker thread spins: a core taken away without touching libuv's pool, the
 * control for the flood with the default limit (whose one scrypt takes a core too).
 */
async function withBusyThread<T>(measure: () => Promise<T>): Promise<T> {
  const spinner = new Worker("for (;;) {}", { eval: true })
  await new Promise((resolve) => spinner.once("online", resolve))
  try {
    return await measure()
  } finally {
    await spinner.terminate()
  }
}

/** Runs `measure` while scrypt verifications of `stored` run one after another, outside any request. */
async function withHashing<T>(stored: string, measure: () => Promise<T>): Promise<T> {
  let stop = false
  const hashing = (async () => {
    while (!stop) await verifyPassword("a wrong password", stored)
  })()
  try {
    return await measure()
  } finally {
    stop = true
    await hashing
  }
}

function loadAverage(): number {
  return Number(loadavg()[0]!.toFixed(2))
}
