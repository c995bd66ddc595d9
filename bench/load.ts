/**
 * The load run behind the README's Reliability figures: `npm run load` (bundled by esbuild from
 * the sources, so no build of the package is needed). The same load as
 * packages/gatehouse/test/reliability/load.test.ts, longer and with more connections, on a
 * throwaway PostgreSQL cluster of its own; loopback only.
 *
 *   LOAD_DURATION=30      seconds per phase (two phases, after a warm-up of a sixth of that, 2–10 s)
 *   LOAD_CONNECTIONS=64   autocannon connections
 *   LOAD_USERS=200        users signed in before the load
 *
 * Writes bench/results/load.{json,md}. Exits non-zero only when something is broken (a wrong
 * answer, a socket error, a lost session, a row count that does not add up, an error logged),
 * never because of a figure.
 *
 * Then the password-guessing flood (load/password-flood.ts): JWT session-check latency idle and
 * under wrong-password sign-ins, with the default password-hashing limit and with it out of the
 * way; writes bench/results/password-flood.{json,md}.
 *
 *   npm run load -- sessions          only the load above
 *   npm run load -- password-flood    only the flood
 *   npm run load -- multi-instance    only the multi-instance run (load/multi-instance.ts;
 *                                     MULTI_DURATION, MULTI_WORKERS), into bench/results/multi-instance.{json,md}
 *   FLOOD_SECONDS=15                  seconds per flood phase (three phases)
 *   FLOOD_ROUNDS=3                    rounds the idle and default-limit phases alternate in
 *   FLOOD_ATTACKERS=16                workers posting wrong passwords
 */
import pg from "pg"
import { startPostgres, type PostgresServer } from "../packages/gatehouse/test/support/postgres-server.js"
import { runLoad } from "../packages/gatehouse/test/reliability/load-run.js"
import { runPasswordFlood } from "./load/password-flood.js"
import { printFloodSummary, writeFloodResults } from "./load/password-flood-report.js"
import { brokenChecks, loadEnvironment, printSummary, writeLoadResults } from "./load/report.js"
import { resultsDir } from "./paths.js"
import { multiInstanceLoad } from "./load/multi-instance.js"

const POOL_SIZE = 10

function positiveFromEnv(name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    console.error(`${name} must be a positive ${integer ? "integer" : "number"}, got ${raw}`)
    process.exit(2)
  }
  return value
}

const SCENARIOS = ["sessions", "password-flood", "multi-instance"] as const
const chosen = process.argv.length > 2 ? process.argv.slice(2) : [...SCENARIOS]
const unknown = chosen.filter((name) => !(SCENARIOS as readonly string[]).includes(name))
if (unknown.length > 0) {
  console.error(`Unknown scenario ${unknown.join(", ")}. Scenarios: ${SCENARIOS.join(", ")}`)
  process.exit(2)
}

const phaseSeconds = positiveFromEnv("LOAD_DURATION", 30, false)
const connections = positiveFromEnv("LOAD_CONNECTIONS", 64, true)
const users = positiveFromEnv("LOAD_USERS", 200, true)
const warmupSeconds = Math.min(10, Math.max(2, Math.round(phaseSeconds / 6)))

let server: PostgresServer | undefined
let pool: pg.Pool | undefined

async function tearDown(): Promise<void> {
  const ending = pool
  pool = undefined
  if (ending && !ending.ending) await ending.end().catch(() => {})
  const stopping = server
  server = undefined
  await stopping?.destroy()
}

// An interrupted run must not leave a PostgreSQL cluster behind.
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping and tearing down`)
    void tearDown().finally(() => process.exit(code))
  })
}

/** The session load on PostgreSQL: the README's Reliability figures. */
async function sessionsLoad(): Promise<void> {
  server = await startPostgres()
  const created = new pg.Pool({ connectionString: server.url, max: POOL_SIZE, connectionTimeoutMillis: 10_000 })
  // pool.end() resolves before its sockets close; the server's shutdown may then cut one.
  created.on("error", (error) => {
    if (!created.ending) console.error("PostgreSQL connection lost:", error.message)
  })
  pool = created
  const { rows } = await created.query<{ server_version: string }>("SHOW server_version")
  const env = loadEnvironment(rows[0]!.server_version)
  console.log(
    `Gatehouse ${env.versions["gatehouse-auth"]} on Express ${env.versions["express"]}, PostgreSQL ${env.versions["postgresql"]} | ` +
      `${env.machine.cpu}, ${env.machine.cores} cores, Node ${env.machine.node} | ${connections} connections, ${phaseSeconds} s per phase`,
  )
  const result = await runLoad(created, { users, churnUsers: 20, connections, phaseSeconds, warmupSeconds, log: (line) => console.log(line) })
  printSummary(result)
  const files = writeLoadResults(resultsDir, result, env, POOL_SIZE)
  console.log(`\nWrote ${files.map((file) => `bench/results/${file.slice(resultsDir.length)}`).join(", ")}`)
  const broken = brokenChecks(result)
  if (broken.length > 0) {
    console.error(`\nLOAD BROKEN:\n  ${broken.join("\n  ")}`)
    process.exitCode = 1
  }
}

/** Session checks under a password-guessing flood; no database. */
async function passwordFlood(): Promise<void> {
  const result = await runPasswordFlood({
    phaseSeconds: positiveFromEnv("FLOOD_SECONDS", 15, false),
    rounds: positiveFromEnv("FLOOD_ROUNDS", 3, true),
    attackers: positiveFromEnv("FLOOD_ATTACKERS", 16, true),
    unlimited: 64,
    log: (line) => console.log(line),
  })
  printFloodSummary(result)
  const files = writeFloodResults(resultsDir, result)
  console.log(`\nWrote ${files.map((file) => `bench/results/${file.slice(resultsDir.length)}`).join(", ")}`)
  if (result.unexpected.length > 0) {
    console.error(`\nFLOOD BROKEN: ${result.unexpected.length} unexpected answers`)
    process.exitCode = 1
  }
}

try {
  if (chosen.includes("sessions")) await sessionsLoad()
  if (chosen.includes("password-flood")) {
    await tearDown()
    await passwordFlood()
  }
  if (chosen.includes("multi-instance")) {
    await tearDown()
    const broken = await multiInstanceLoad({
      durationSeconds: positiveFromEnv("MULTI_DURATION", 60, false),
      workers: positiveFromEnv("MULTI_WORKERS", 24, true),
      log: (line) => console.log(line),
    })
    if (broken.length > 0) {
      console.error(`\nMULTI-INSTANCE BROKEN:\n  ${broken.join("\n  ")}`)
      process.exitCode = 1
    }
  }
} catch (error) {
  console.error("\nLOAD FAILED:", error)
  process.exitCode = 1
} finally {
  await tearDown()
}
