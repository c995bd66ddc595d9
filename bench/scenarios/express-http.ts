/**
 * Scenario 8: the JWT session check through Express over real HTTP. Two Express apps on loopback,
 * one with Gatehouse's `ServerAuth` at /auth, one with `ExpressAuth` from @auth/express at /auth,
 * each with scenario 1's configuration and a session cookie its own library's `encode` made
 * (./express-http-server.ts). They run in a worker thread, so autocannon, here on the main thread,
 * does not take its own work out of theirs. `GET /auth/session` is driven in alternating rounds,
 * every answer checked (../http-rounds.ts).
 */
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { basePath } from "../fixtures.js"
import { alternatingRounds, roundsAtScale, stopLoad } from "../http-rounds.js"
import { expressHttpServer, repoRoot } from "../paths.js"
import { versionsOf } from "../report.js"
import type { Scenario } from "../scenario.js"
import type { ServerReady, ServerTarget, ServerWorkerData } from "./express-http-server.js"

/** autocannon connections, each with one request in flight. */
const CONNECTIONS = 32

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

export const expressHttp: Scenario = {
  name: "express-http",
  title: "8. Express over HTTP: GET /auth/session, ServerAuth vs @auth/express's ExpressAuth (autocannon)",
  async run({ report, scale, cleanup }) {
    const { worker, ready, gone } = startServers()
    cleanup(() => worker.terminate())
    // Registered last, so it runs first: an interrupted run stops its load before the servers go.
    cleanup(stopLoad)
    const targets = await ready
    const target = (name: ServerTarget["name"]) => ({ ...targets.find((t) => t.name === name)!, path: `${basePath}/session` })

    const { rounds, roundSeconds, warmupSeconds } = roundsAtScale(scale)
    const versions = versionsOf(["express", "@auth/express", "autocannon"])
    report.note(
      `express ${versions["express"]}, @auth/express ${versions["@auth/express"]}; both servers in one worker thread, autocannon ${versions["autocannon"]} ` +
        `on the main thread; ${CONNECTIONS} connections on 127.0.0.1; ${rounds} rounds of about ${roundSeconds} s per server, alternating, ` +
        `after ${warmupSeconds} s of warm-up each`,
    )
    const [gatehouse, authjs] = await alternatingRounds([target("gatehouse"), target("auth.js")], {
      connections: CONNECTIONS,
      scale,
      beforeRound: () => collectServerGarbage(worker, gone),
    })
    report.throughput(
      `GET ${basePath}/session over HTTP, ${CONNECTIONS} connections`,
      { gatehouse: gatehouse!, authjs: authjs! },
      { connections: CONNECTIONS, rounds, roundSeconds, warmupSeconds, versions, servers: "worker thread", client: "autocannon, main thread" },
    )
  },
}
