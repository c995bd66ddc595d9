/**
 * What the password-flood run prints and writes: bench/results/password-flood.md (a table) and
 * password-flood.json (everything, with the machine and versions the figures came from).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { join } from "node:path"
import { machine, versionsOf } from "../report.js"
import type { FloodPhase, FloodResult } from "./password-flood.js"

/** The target of the issue this scenario answers: session-check p99 under the flood within 2× idle. */
const TARGET_RATIO = 2

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 })

function row(phase: FloodPhase): string {
  const { sessionChecks: s, guesses: g } = phase
  const statuses = Object.entries(g.statuses).map(([code, n]) => `${code}: ${integer.format(n)}`).join(", ") || "–"
  const guessLatency = g.latency ? `${g.latency.p50} / ${g.latency.p99} ms` : "–"
  return `| ${phase.name} | ${integer.format(s.samples)} | ${s.p50} ms | ${s.p99} ms | ${s.max} ms | ${g.perSecond} | ${guessLatency} | ${statuses} |`
}

function verdict(ratio: number): string {
  return ratio <= TARGET_RATIO ? `within the ${TARGET_RATIO}× target` : `over the ${TARGET_RATIO}× target`
}

function tables(result: FloodResult): string[] {
  return [
    "| Phase | Session checks | p50 | p99 | max | Guesses/s | Guess p50 / p99 | Guess answers |",
    "|---|---|---|---|---|---|---|---|",
    ...result.phases.map(row),
    "",
    `Session-check p99 under the flood / idle: **${result.p99Ratio.defaultLimit}×** with the default hashing limit ` +
      `(${result.defaultConcurrency}; ${verdict(result.p99Ratio.defaultLimit)}), **${result.p99Ratio.unlimited}×** with the limit at ` +
      `${result.options.unlimited} (${verdict(result.p99Ratio.unlimited)}). Controls: one thread spinning, no hashing (a core ` +
      `taken, libuv's pool untouched): **${result.p99Ratio.busyThread}×**; one scrypt verification after another, no requests ` +
      `(what hashing costs at all, memory-hard at 128 MiB, whatever the limit): **${result.p99Ratio.hashingAlone}×**.`,
  ]
}

export function printFloodSummary(result: FloodResult): void {
  console.log(["", ...tables(result), `Load average (1 min) start → end: ${result.loadAverage.start} → ${result.loadAverage.end}`].join("\n"))
  if (result.unexpected.length > 0) console.log(`Unexpected answers: ${result.unexpected.join(" | ")}`)
}

/** Writes password-flood.json and password-flood.md into `dir`; returns their paths. */
export function writeFloodResults(dir: string, result: FloodResult): string[] {
  const env = {
    date: new Date().toISOString(),
    machine: machine(),
    availableParallelism: availableParallelism(),
    uvThreadpoolSize: process.env.UV_THREADPOOL_SIZE ?? "4 (unset)",
    versions: versionsOf(["gatehouse-auth"]),
  }
  const { options } = result
  const md = [
    "# Password-guessing flood",
    "",
    `Produced by \`npm run load -- password-flood\` on ${env.date.slice(0, 10)}: ${env.machine.cpu}, ${env.machine.cores} cores ` +
      `(availableParallelism ${env.availableParallelism}), libuv pool ${env.uvThreadpoolSize}, Node ${env.machine.node}, ` +
      `Gatehouse ${env.versions["gatehouse"]}. Load average (1 min) at the start → the end: ${result.loadAverage.start} → ` +
      `${result.loadAverage.end}; above ${env.availableParallelism}, something else shared the CPUs and the flood figures suffer first.`,
    "",
    "JWT session checks (`GET /auth/session` through `Auth()`, one at a time, every answer checked) for " +
      `${options.phaseSeconds} s idle and ${options.phaseSeconds} s while ${options.attackers} workers post wrong ` +
      "passwords to the credentials callback, each guess for another address from another IP (throttling at its defaults " +
      "never refuses one), and `authorize` verifies a scrypt hash at OWASP's cost (N=2^17, r=8, p=1). Once with the " +
      `default password-hashing limit, alternating in ${options.rounds} rounds with the idle checks and two controls (a worker ` +
      "thread spinning; scrypt verifications one after another outside any request) so that whatever else the machine ran " +
      "weighs on all of them alike; then " +
      `${options.phaseSeconds} s with the limit at ${options.unlimited} (no limit in effect: libuv's pool is smaller). ` +
      "Figures, never asserts: the same machine may give other numbers on another run.",
    "",
    ...tables(result),
    "",
  ].join("\n")
  mkdirSync(dir, { recursive: true })
  const jsonPath = join(dir, "password-flood.json")
  const mdPath = join(dir, "password-flood.md")
  writeFileSync(jsonPath, `${JSON.stringify({ ...env, ...result }, null, 2)}\n`)
  writeFileSync(mdPath, md)
  return [jsonPath, mdPath]
}
