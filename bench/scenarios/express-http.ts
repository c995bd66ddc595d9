/**
 * Scenario 8: the JWT session check through Express over real HTTP. Two Express apps on loopback,
 * one with Gatehouse's `ServerAuth` at /auth, one with `ExpressAuth` from @auth/express at /auth,
 * each with scenario 1's configuration and a session cookie its own library's `encode` made
 * (./express-http-server.ts). They run in a worker thread, so autocannon, here on the main thread,
 * does not take its own work out of theirs. `GET /auth/session` is driven in short rounds that
 * alternate between the two servers, each of a number of requests sized to last about the same
 * time, and every request is answered and checked: a status other than 200, a body naming no
 * session for the user, a socket error or a timeout stops the run.
 */
import autocannon from "autocannon"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { basePath, claims, sessionCookieName } from "../fixtures.js"
import { collectGarbage, quantile, Samples, type Timing } from "../measure.js"
import { expressHttpServer, repoRoot } from "../paths.js"
import { versionsOf } from "../report.js"
import type { Scenario } from "../scenario.js"
import type { ServerReady, ServerTarget, ServerWorkerData } from "./express-http-server.js"

/** autocannon connections, each with one request in flight. */
const CONNECTIONS = 32

/** Rounds and their length at `scale`: at 1, 8 rounds of about 2 s per server after 2 s of warm-up each (about 40 s). */
function roundsAtScale(scale: number) {
  return {
    rounds: Math.max(2, Math.round(8 * scale)),
    roundSeconds: Math.min(3, Math.max(0.5, 2 * scale)),
    warmupSeconds: Math.min(3, Math.max(1, 2 * scale)),
  }
}

/**
 * Starts the servers' worker. `ready` resolves once both listen; `gone` rejects if the worker
 * fails or exits (before teardown), so nothing waits on a dead worker.
 */
function startServers(): { worker: Worker; ready: Promise<ServerTarget[]>; gone: Promise<never> } {
  const workerData: ServerWorkerData = { benchPackage: join(repoRoot, "bench", "package.json") }
  const worker = new Worker(expressHttpServer, { workerData })
  const gone = new Promise<never>((_, reject) => {
    worker.once("error", (error) => reject(new Error(`the servers' worker failed: ${error.message}`, { cause: error })))
    worker.once("exit", (code) => reject(new Error(`the servers' worker exited with code ${code}`)))
  })
  gone.catch(() => {}) // Read where it matters (the awaits below); the teardown's own exit is no failure.
  const listening = new Promise<ServerTarget[]>((resolve) => worker.once("message", (message: ServerReady) => resolve(message.targets)))
  return { worker, ready: Promise.race([listening, gone]), gone }
}

/** A full collection in the servers' thread, answered once done. */
function collectServerGarbage(worker: Worker, gone: Promise<never>): Promise<void> {
  const done = new Promise<void>((resolve) => worker.once("message", () => resolve()))
  worker.postMessage("gc")
  return Promise.race([done, gone])
}

/** What is wrong with an answer to `GET /auth/session`, or undefined when it is the user's session. */
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

/** The autocannon run in progress, stopped by the teardown when the run is interrupted. */
let active: autocannon.Instance | undefined

/**
 * One autocannon run of `requests` requests against `target`, every answer checked. A run of a
 * fixed number of requests ends once the last is answered, so none is cut off unjudged at a
 * deadline; one unanswered for `timeout` seconds counts as a timeout and fails the run.
 */
async function round(target: ServerTarget, requests: number, latencies?: Samples): Promise<RoundResult> {
  let checked = 0
  let problem: string | undefined
  let firstError: unknown
  let lastAnswer = 0
  const started = performance.now()
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        connections: CONNECTIONS,
        amount: requests,
        // How often autocannon looks whether its connections are done.
        sampleInt: 50,
        timeout: 10,
        headers: { cookie: `${sessionCookieName}=${target.cookie}` },
        requests: [
          {
            method: "GET",
            path: `${basePath}/session`,
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
  if (problem !== undefined) throw new Error(`${target.name}: GET ${basePath}/session ${problem}`)
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
function requestsFor(perSecond: number, seconds: number): number {
  return Math.max(4, Math.round((perSecond * seconds) / CONNECTIONS)) * CONNECTIONS
}

const rate = (r: RoundResult) => (r.answered * 1000) / r.ms

/** Untimed rounds until `seconds` have passed; returns the rate of the last, which sizes the next round. */
async function warmUp(target: ServerTarget, seconds: number): Promise<number> {
  let spent = 0
  let perSecond = 0
  while (spent < seconds * 1000) {
    const result = await round(target, perSecond > 0 ? requestsFor(perSecond, Math.min(0.5, seconds)) : CONNECTIONS * 8)
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
    p99Us: quantile(latencies, 0.99) * 1000,
  }
}

export const expressHttp: Scenario = {
  name: "express-http",
  title: "8. Express over HTTP: GET /auth/session, ServerAuth vs @auth/express's ExpressAuth (autocannon)",
  async run({ report, scale, cleanup }) {
    const { worker, ready, gone } = startServers()
    cleanup(() => worker.terminate())
    // Registered last, so it runs first: an interrupted run stops its load before the servers go.
    cleanup(() => active?.stop())
    const targets = await ready
    const gatehouseAt = targets.findIndex((t) => t.name === "gatehouse")
    const authjsAt = targets.findIndex((t) => t.name === "auth.js")

    const { rounds, roundSeconds, warmupSeconds } = roundsAtScale(scale)
    const versions = versionsOf(["express", "@auth/express", "autocannon"])
    report.note(
      `express ${versions["express"]}, @auth/express ${versions["@auth/express"]}; both servers in one worker thread, autocannon ${versions["autocannon"]} ` +
        `on the main thread; ${CONNECTIONS} connections on 127.0.0.1; ${rounds} rounds of about ${roundSeconds} s per server, alternating, ` +
        `after ${warmupSeconds} s of warm-up each`,
    )

    const totals: Totals[] = []
    for (const target of targets) totals.push({ requests: 0, ms: 0, latencies: new Samples(), perSecond: await warmUp(target, warmupSeconds) })
    for (let r = 0; r < rounds; r++) {
      // Every other round in reverse order, as measure.ts's interleave does.
      const order = r % 2 === 0 ? [gatehouseAt, authjsAt] : [authjsAt, gatehouseAt]
      for (const i of order) {
        await collectServerGarbage(worker, gone)
        collectGarbage()
        const total = totals[i]!
        const result = await round(targets[i]!, requestsFor(total.perSecond, roundSeconds), total.latencies)
        total.requests += result.answered
        total.ms += result.ms
        total.perSecond = rate(result)
      }
    }
    report.throughput(
      `GET ${basePath}/session over HTTP, ${CONNECTIONS} connections`,
      { gatehouse: timing("gatehouse", totals[gatehouseAt]!), authjs: timing("auth.js", totals[authjsAt]!) },
      { connections: CONNECTIONS, rounds, roundSeconds, warmupSeconds, versions, servers: "worker thread", client: "autocannon, main thread" },
    )
  },
}
