/**
 * The benchmark runner: Gatehouse against Auth.js, both in this process, in alternating rounds.
 * Run it with `npm run bench` (which builds the package and this bench first).
 *
 *   node --expose-gc bench/.build/index.js [scenario…]   only the named scenarios (or BENCH_SCENARIOS="a,b")
 *   BENCH_SCALE=0.2 …                                    shorter runs; 2 for longer, steadier ones
 *
 * Only a run of every scenario at scale 1 or more writes bench/results/latest.{json,md}; other
 * runs write bench/results/partial.{json,md}, so a quick check never replaces the committed figures.
 * Exits non-zero only when something is broken (a wrong answer, a server that would not start),
 * never because of a figure.
 */
import { join } from "node:path"
import { stopTiming } from "./measure.js"
import { resultsDir } from "./paths.js"
import { environment, Report, writeResults } from "./report.js"
import type { Scenario } from "./scenario.js"
import { coldStartScenario } from "./scenarios/cold-start.js"
import { databaseSession } from "./scenarios/database-session.js"
import { expressHttp } from "./scenarios/express-http.js"
import { jwt } from "./scenarios/jwt.js"
import { memory } from "./scenarios/memory.js"
import { nextHttp } from "./scenarios/next-http.js"
import { organizations } from "./scenarios/organizations.js"
import { sessionJwt } from "./scenarios/session-jwt.js"
import { signInScenario } from "./scenarios/sign-in.js"
import { size } from "./scenarios/size.js"

const scenarios: Scenario[] = [sessionJwt, jwt, databaseSession, signInScenario, coldStartScenario, size, memory, expressHttp, nextHttp, organizations]

function selected(): Scenario[] {
  const names = process.argv.length > 2 ? process.argv.slice(2) : (process.env.BENCH_SCENARIOS ?? "").split(/[\s,]+/).filter(Boolean)
  if (names.length === 0) return scenarios
  const unknown = names.filter((name) => !scenarios.some((s) => s.name === name))
  if (unknown.length > 0) {
    console.error(`Unknown scenario ${unknown.join(", ")}. Scenarios: ${scenarios.map((s) => s.name).join(", ")}`)
    process.exit(2)
  }
  return scenarios.filter((s) => names.includes(s.name))
}

function scaleFromEnv(): number {
  const scale = Number(process.env.BENCH_SCALE ?? 1)
  if (!(scale > 0)) {
    console.error(`BENCH_SCALE must be a positive number, got ${process.env.BENCH_SCALE}`)
    process.exit(2)
  }
  return scale
}

/** The current scenario's teardowns, run newest first and removed as they run, so none runs twice. */
const teardowns: (() => unknown)[] = []
let tearingDown: Promise<void> | undefined

/** Runs the teardowns; a second caller while they run waits for the same pass. */
function tearDown(): Promise<void> {
  tearingDown ??= (async () => {
    while (teardowns.length > 0) {
      try {
        await teardowns.pop()!()
      } catch (error) {
        console.error("teardown failed:", error)
      }
    }
  })().finally(() => {
    tearingDown = undefined
  })
  return tearingDown
}

/** Set once a signal arrived; the run then only tears down and exits. */
let interrupted: Promise<never> | undefined

// An interrupted run must not leave a PostgreSQL cluster or temp files behind.
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.on(signal, () => {
    interrupted ??= (async () => {
      console.error(`\n${signal}: stopping and tearing down`)
      // Calls in flight finish first (a few ms); a scenario outside its timing loop (a server starting) is not waited for long.
      await Promise.race([stopTiming(), new Promise((resolve) => setTimeout(resolve, 2_000))])
      await tearDown()
      process.exit(code)
    })()
  })
}

const chosen = selected()
const scale = scaleFromEnv()
const { machine, versions } = environment()
console.log(
  `Gatehouse ${versions["gatehouse-auth"]} vs @auth/core ${versions["@auth/core"]} | ${machine.cpu}, ${machine.cores} cores, ` +
    `${machine.memoryGB} GB, ${machine.os}, Node ${machine.node} | scale ${scale}`,
)
const report = new Report()
const started = performance.now()
for (const scenario of chosen) {
  report.scenario(scenario.name, scenario.title)
  try {
    await scenario.run({ report, scale, cleanup: (teardown) => teardowns.push(teardown) })
  } catch (error) {
    if (interrupted) await interrupted // its teardown is under way and ends the process
    console.error(`\nBENCH FAILED in ${scenario.name}:`, error)
    await tearDown()
    process.exit(1)
  }
  await tearDown()
}

const complete = chosen.length === scenarios.length && scale >= 1
const files = writeResults(resultsDir, complete ? "latest" : "partial", report, { scale, scenarios: chosen.map((s) => s.name) })
console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(0)} s. Wrote ${files.map((f) => join("bench/results", f.slice(resultsDir.length))).join(", ")}`)
