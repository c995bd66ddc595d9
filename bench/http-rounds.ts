/**
 * Two servers driven over real HTTP by autocannon, in short rounds that alternate between them
 * (every other round in reverse order, as measure.ts's interleave does), each round a number of
 * requests sized to last about the same time. Every request is answered and checked: a status
 * other than 200, a body naming no session for the bench user, a socket error or a timeout stops
 * the run. Shared by the scenarios that measure a framework's session read over HTTP.
 */
import autocannon from "autocannon"
import { claims, sessionCookieName } from "./fixtures.js"
import { collectGarbage, quantile, Samples, type Timing } from "./measure.js"

/** One server under load: where to send `GET path`, and the session cookie to send. */
export interface HttpTarget {
  name: string
  /** The server's origin. */
  url: string
  path: string
  /** The session cookie's value. */
  cookie: string
}

export interface RoundsOptions {
  /** autocannon connections, each with one request in flight. */
  connections: number
  scale: number
  /** Run before each timed round (a collection in the servers' thread, say). */
  beforeRound?: () => Promise<void>
}

/** How the rounds ran, for the report's note and figures. */
export interface RoundsPlan {
  rounds: number
  roundSeconds: number
  warmupSeconds: number
}

/** Rounds and their length at `scale`: at 1, 8 rounds of about 2 s per server after 2 s of warm-up each (about 40 s). */
export function roundsAtScale(scale: number): RoundsPlan {
  return {
    rounds: Math.max(2, Math.round(8 * scale)),
    roundSeconds: Math.min(3, Math.max(0.5, 2 * scale)),
    warmupSeconds: Math.min(3, Math.max(1, 2 * scale)),
  }
}

/** What is wrong with an answer, or undefined when it is the bench user's session. */
function wrongAnswer(status: number, body: string): string | undefined {
  if (status !== 200) return `answered ${status}: ${body.slice(0, 300)}`
  let parsed: { user?: { email?: unknown } } | null
  try {
    parsed = JSON.parse(body) as typeof parsed
  } catch {
    return `answered 200 with a body that is not JSON: ${body.slice(0, 300)}`
  }
  if (parsed?.user?.email !== claims.email) return `answered no session for ${claims.email}: ${body.slice(0, 300)}`
  return undefined
}

/** What one round of one server gave. */
interface RoundResult {
  answered: number
  /** From the start of the run to the last answer. */
  ms: number
}

/** The autocannon run in progress, stopped by {@link stopLoad} when the run is interrupted. */
let active: autocannon.Instance | undefined

/** Stops the load in progress, if any (a scenario's teardown, before its servers go). */
export function stopLoad(): void {
  active?.stop()
}

/**
 * One autocannon run of `requests` requests against `target`, every answer checked. A run of a
 * fixed number of requests ends once the last is answered, so none is cut off unjudged at a
 * deadline; one unanswered for `timeout` seconds counts as a timeout and fails the run.
 */
async function round(target: HttpTarget, connections: number, requests: number, latencies?: Samples): Promise<RoundResult> {
  let checked = 0
  let problem: string | undefined
  let firstError: unknown
  let lastAnswer = 0
  const started = performance.now()
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        connections,
        amount: requests,
        // How often autocannon looks whether its connections are done.
        sampleInt: 50,
        timeout: 10,
        headers: { cookie: `${sessionCookieName}=${target.cookie}` },
        requests: [
          {
            method: "GET",
            path: target.path,
            onResponse: (status, body) => {
              checked++
              const wrong = wrongAnswer(status, body)
              if (wrong !== undefined && problem === undefined) {
                problem = wrong
                instance.stop()
              }
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    )
    active = instance
    instance.on("response", (_client, _status, _bytes, ms) => {
      lastAnswer = performance.now()
      latencies?.push(ms)
    })
    instance.on("reqError", (error) => {
      firstError ??= error
    })
  }).finally(() => {
    active = undefined
  })
  if (problem !== undefined) throw new Error(`${target.name}: GET ${target.path} ${problem}`)
  if (result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${target.name}: ${result.errors} request errors, ${result.timeouts} of them timeouts; first: ${String(firstError)}`)
  }
  if (result.non2xx > 0) throw new Error(`${target.name}: ${result.non2xx} answers were not 2xx`)
  if (checked !== requests || result.requests.total !== requests) {
    throw new Error(`${target.name}: ${requests} requests, ${result.requests.total} answers counted, ${checked} checked`)
  }
  return { answered: checked, ms: lastAnswer - started }
}

/** Requests for a round of about `seconds` at `perSecond`, the same number on every connection. */
function requestsFor(perSecond: number, seconds: number, connections: number): number {
  return Math.max(4, Math.round((perSecond * seconds) / connections)) * connections
}

const rate = (r: RoundResult) => (r.answered * 1000) / r.ms

/** Untimed rounds until `seconds` have passed; returns the rate of the last, which sizes the next round. */
async function warmUp(target: HttpTarget, connections: number, seconds: number): Promise<number> {
  let spent = 0
  let perSecond = 0
  while (spent < seconds * 1000) {
    const requests = perSecond > 0 ? requestsFor(perSecond, Math.min(0.5, seconds), connections) : connections * 8
    const result = await round(target, connections, requests)
    spent += result.ms
    perSecond = rate(result)
  }
  return perSecond
}

/** Round totals of one server. */
interface Totals {
  requests: number
  ms: number
  latencies: Samples
  /** The last round's rate: the next round is sized by it. */
  perSecond: number
}

function timing(name: string, totals: Totals): Timing {
  const latencies = totals.latencies.values()
  return {
    name,
    ops: totals.requests,
    seconds: totals.ms / 1000,
    opsPerSecond: (totals.requests * 1000) / totals.ms,
    p50Us: quantile(latencies, 0.5) * 1000,
    p95Us: quantile(latencies, 0.95) * 1000,
    p99Us: quantile(latencies, 0.99) * 1000,
  }
}

/** Warms both targets up, then runs the alternating rounds; one timing per target, in their order. */
export async function alternatingRounds(targets: readonly [HttpTarget, HttpTarget], options: RoundsOptions): Promise<Timing[]> {
  const { connections, scale, beforeRound } = options
  const { rounds, roundSeconds, warmupSeconds } = roundsAtScale(scale)
  const totals: Totals[] = []
  for (const target of targets) {
    totals.push({ requests: 0, ms: 0, latencies: new Samples(), perSecond: await warmUp(target, connections, warmupSeconds) })
  }
  for (let r = 0; r < rounds; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      await beforeRound?.()
      collectGarbage()
      const total = totals[i]!
      const result = await round(targets[i]!, connections, requestsFor(total.perSecond, roundSeconds, connections), total.latencies)
      total.requests += result.answered
      total.ms += result.ms
      total.perSecond = rate(result)
    }
  }
  return targets.map((target, i) => timing(target.name, totals[i]!))
}
