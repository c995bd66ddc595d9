/**
 * What `npm run load` prints and writes: a table per phase and the checks after the run, on the
 * console, in bench/results/load.md, and whole in bench/results/load.json with the machine and
 * versions the figures came from.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import type { RequestKind } from "../../packages/gatehouse/test/reliability/load-mix.js"
import type { LoadResult } from "../../packages/gatehouse/test/reliability/load-run.js"
import { repoRoot } from "../paths.js"
import { machine, versionsOf } from "../report.js"

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 })


export interface LoadEnvironment {
  date: string
  machine: { cpu: string; cores: number; memoryGB: number; os: string; node: string }
  /** The 1-minute load average when the run started: above the core count, something else shared the CPUs. */
  loadAverage: number
  versions: Record<string, string>
}

/** The machine and software of the run; `postgres` is the server's `server_version`. */
export function loadEnvironment(postgres: string): LoadEnvironment {
  return {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: Number(loadavg()[0]!.toFixed(2)),
    versions: { ...versionsOf(["gatehouse-auth", "express", "pg", "autocannon"]), postgresql: postgres },
  }
}

/** Every way the run can be broken; empty when it is not. Figures (speed, memory) never count. */
export function brokenChecks(result: LoadResult): string[] {
  const broken: string[] = []
  for (const phase of [result.warmup, ...result.phases]) {
    if (phase.errors > 0 || phase.timeouts > 0) broken.push(`${phase.name}: ${phase.errors} socket errors, ${phase.timeouts} timeouts`)
    if (phase.unexpected > 0) broken.push(`${phase.name}: ${phase.unexpected} unexpected answers, e.g. ${phase.tally.samples.join(" | ")}`)
  }
  if (result.lostSessions > 0) broken.push(`${result.lostSessions} sessions lost, e.g. ${result.lostSamples.join(", ")}`)
  if (result.churn.liveLost > 0) broken.push(`${result.churn.liveLost} sessions opened under load lost`)
  if (result.churn.signedOutStillValid > 0) broken.push(`${result.churn.signedOutStillValid} signed-out sessions still valid`)
  const rows = result.sessionRows
  if (rows.after !== rows.expected) broken.push(`${rows.after} session rows, expected ${rows.expected}`)
  if (result.serverErrors > 0) broken.push(`${result.serverErrors} error log lines, e.g. ${result.serverErrorSamples.join(" | ")}`)
  return broken
}

function phaseRows(result: LoadResult): string[] {
  return result.phases.map(
    (phase) =>
      `| ${phase.name} | ${integer.format(phase.requests)} | ${integer.format(phase.requestsPerSecond)} | ${phase.latencyP50Ms} ms | ${phase.latencyP99Ms} ms | ` +
      `${phase.errors} / ${phase.timeouts} | ${phase.unexpected} |`,
  )
}

function checkRows(result: LoadResult): string[] {
  const { churn, sessionRows: rows, memory } = result
  const mixed = result.phases.find((phase) => phase.name === "mixed")
  const heapMethod = memory.method === "after-gc" ? "after a full GC" : "medians of samples, no GC exposed"
  return [
    `| Sign-ins / sign-outs under load (warm-up included) | ${integer.format(churn.signIns)} / ${integer.format(churn.signOuts)} |`,
    `| Sessions lost (of ${result.options.users} signed in before, read after) | ${result.lostSessions} |`,
    `| Sessions opened under load and not signed out, lost | ${churn.liveLost} of ${integer.format(churn.liveChecked)} |`,
    `| Signed-out sessions still valid | ${churn.signedOutStillValid} of ${integer.format(churn.signedOutChecked)} |`,
    `| PostgreSQL session rows before → after (expected) | ${integer.format(rows.before)} → ${integer.format(rows.after)} (${integer.format(rows.expected)}) |`,
    `| Heap used before → after (${heapMethod}) | ${memory.heapBeforeMB} → ${memory.heapAfterMB} MB (${memory.heapGrowthMB >= 0 ? "+" : ""}${memory.heapGrowthMB} MB) |`,
    `| RSS before → after (peak) | ${memory.rssBeforeMB} → ${memory.rssAfterMB} MB (${memory.rssPeakMB} MB) |`,
    `| Error log lines | ${result.serverErrors} |`,
    ...(mixed ? [`| Status codes, mixed phase | ${Object.entries(mixed.statusCodes).map(([code, n]) => `${code}: ${integer.format(n)}`).join(", ")} |`] : []),
  ]
}

const KIND_LABELS: Record<RequestKind, string> = {
  session: "session reads",
  protected: "`requireAuth` route",
  anonymous: "the same without a cookie (401)",
  csrf: "CSRF token",
  "sign-in": "credentials sign-in",
  "own-session": "read of the new session",
  "sign-out": "sign-out",
}

/** The mixed phase's answers by kind, as shares: what the mix really was, not what it was meant to be. */
function mixDescription(result: LoadResult): string {
  const mixed = result.phases.find((phase) => phase.name === "mixed")
  if (!mixed) return ""
  const { answers } = mixed.tally
  const total = Object.values(answers).reduce((sum, n) => sum + n, 0)
  const shares = (Object.keys(answers) as RequestKind[]).map((kind) => `${KIND_LABELS[kind]} ${Math.round((answers[kind] / total) * 100)}%`)
  return `The mixed phase: ${shares.join(", ")}. `
}

export function markdown(result: LoadResult, env: LoadEnvironment, poolSize: number): string {
  const { machine, versions } = env
  const { options } = result
  return [
    "# Load test results",
    "",
    `Produced by \`npm run load\` on ${env.date.slice(0, 10)}: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGB} GB, ${machine.os}, ` +
      `Node ${machine.node}. Gatehouse ${versions["gatehouse"]}, Express ${versions["express"]}, pg ${versions["pg"]}, ` +
      `autocannon ${versions["autocannon"]}, PostgreSQL ${versions["postgresql"]} (throwaway cluster, fsync off). ` +
      `Load average when it started: ${env.loadAverage}.`,
    "",
    `Express with \`ServerAuth\` and database sessions on PostgreSQL (a pg Pool of ${poolSize}), ${options.users} users signed in ` +
      `beforehand, ${options.connections} autocannon connections on loopback in the same process, ${options.warmupSeconds} s warm-up, ` +
      `then ${options.phaseSeconds} s per phase. ${mixDescription(result)}Every answer is checked: its status, and the user id of ` +
      "every session read.",
    "",
    "| Phase | Requests | Req/s | p50 | p99 | Errors / timeouts | Unexpected answers |",
    "|---|---|---|---|---|---|---|",
    ...phaseRows(result),
    "",
    "| After the run | |",
    "|---|---|",
    ...checkRows(result),
    "",
  ].join("\n")
}

/** The console summary: the same two tables. */
export function printSummary(result: LoadResult): void {
  console.log(["", "Phase | Requests | Req/s | p50 | p99 | Errors / timeouts | Unexpected", ...phaseRows(result), "", ...checkRows(result)].join("\n"))
}

/** Writes load.json and load.md into `dir`; returns their paths. */
export function writeLoadResults(dir: string, result: LoadResult, env: LoadEnvironment, poolSize: number): string[] {
  mkdirSync(dir, { recursive: true })
  const json = join(dir, "load.json")
  const md = join(dir, "load.md")
  writeFileSync(json, `${JSON.stringify({ ...env, poolSize, ...result }, null, 2)}\n`)
  writeFileSync(md, markdown(result, env, poolSize))
  return [json, md]
}
