/**
 * What the bench prints and writes: a header per scenario, a line per library, the ratio line
 * last; then every measurement as JSON (with the machine it ran on) and as a Markdown table.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { cpus, arch, release, totalmem, type } from "node:os"
import { join } from "node:path"
import type { Timing } from "./measure.js"
import { benchModules, repoRoot } from "./paths.js"

export type Better = "higher" | "lower"

/** One row of the results: a figure for each library (null where one was not measured) and their ratio. */
export interface Measurement {
  scenario: string
  label: string
  unit: string
  better: Better
  gatehouse: number | null
  authjs: number | null
  /** gatehouse / authjs, or null when only one library was measured. */
  ratio: number | null
  /** Latencies, samples, settings: whatever the scenario adds for the JSON. */
  detail?: Record<string, unknown>
}

/** A figure of one library for {@link Report.figure}, with anything worth saying beside it. */
export interface Figure {
  value: number
  /** Printed after the value, e.g. "(heap 21.0 → 21.4 MB)". */
  aside?: string
  detail?: unknown
}

const LABEL = { gatehouse: "gatehouse", authjs: "auth.js" } as const
const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 })

/** A latency in µs, or in ms once it is large enough that µs digits are noise. */
export function formatLatency(us: number): string {
  return us < 10_000 ? `${integer.format(us)} µs` : `${(us / 1000).toFixed(1)} ms`
}

function formatValue(value: number, unit: string): string {
  if (unit === "bytes") return `${integer.format(value)} B`
  if (unit === "MB") return `${value >= 0 ? "+" : ""}${value.toFixed(2)} MB`
  if (unit === "ms") return `${value.toFixed(1)} ms`
  return `${integer.format(value)} ${unit}`
}

/** One contender's line: throughput and latencies. */
function printTiming(name: string, t: Timing): void {
  console.log(`    ${name.padEnd(10)} ${formatValue(t.opsPerSecond, "ops/s").padStart(14)}   p50 ${formatLatency(t.p50Us).padStart(9)}   p99 ${formatLatency(t.p99Us).padStart(9)}`)
}

function ratioText(ratio: number, quantity: string, better: Better): string {
  return `ratio gatehouse / auth.js ${quantity}: ${ratio.toFixed(2)}x (${better} is better)`
}

export class Report {
  readonly measurements: Measurement[] = []
  private scenarioName = ""

  /** Starts a scenario: its header, and the name its measurements are filed under. */
  scenario(name: string, title: string): void {
    this.scenarioName = name
    console.log(`\n=== ${title} [${name}] ===`)
  }

  /** A line of context (settings, caveats) inside the current scenario, before its figures. */
  note(text: string): void {
    console.log(`  ${text}`)
  }

  /** Throughput and latency per library; the ratio of throughputs when both were measured. */
  throughput(label: string, timings: { gatehouse: Timing; authjs?: Timing }, detail?: Record<string, unknown>): void {
    console.log(`  ${label}`)
    for (const key of ["gatehouse", "authjs"] as const) {
      const t = timings[key]
      if (t) printTiming(LABEL[key], t)
    }
    const ratio = timings.authjs ? timings.gatehouse.opsPerSecond / timings.authjs.opsPerSecond : null
    if (ratio !== null) console.log(`    ${ratioText(ratio, "throughput", "higher")}`)
    else console.log(`    (gatehouse only: no auth.js counterpart, so no ratio)`)
    this.measurements.push({
      scenario: this.scenarioName,
      label,
      unit: "ops/s",
      better: "higher",
      gatehouse: timings.gatehouse.opsPerSecond,
      authjs: timings.authjs?.opsPerSecond ?? null,
      ratio,
      detail: { ...detail, gatehouse: timings.gatehouse, authjs: timings.authjs },
    })
  }

  /**
   * Gatehouse against a floor (work no library can avoid) rather than against Auth.js: both lines,
   * and the cost, Gatehouse's time per call over the floor's (lower is better, 1× is the floor).
   */
  cost(label: string, timings: { gatehouse: Timing; floor: Timing }, floorName: string): void {
    console.log(`  ${label}`)
    printTiming("gatehouse", timings.gatehouse)
    printTiming(floorName, timings.floor)
    const cost = timings.floor.opsPerSecond / timings.gatehouse.opsPerSecond
    const note = `${cost.toFixed(2)}× the time of ${floorName} (${formatValue(timings.floor.opsPerSecond, "ops/s")}; lower is better)`
    console.log(`    cost: ${note}`)
    this.measurements.push({
      scenario: this.scenarioName,
      label,
      unit: "ops/s",
      better: "higher",
      gatehouse: timings.gatehouse.opsPerSecond,
      authjs: null,
      ratio: null,
      detail: { gatehouse: timings.gatehouse, floor: timings.floor, floorName, cost, ratioNote: note },
    })
  }

  /**
   * Gatehouse alone, where Auth.js has no such feature: latencies (p50, p95, p99) and the SQL
   * queries one call makes (counted on the pg pool). Filed as the p95 in ms, lower is better.
   */
  latency(label: string, timing: Timing, options: { queries: number; aside?: string; detail?: Record<string, unknown> }): void {
    const queries = `${options.queries} SQL ${options.queries === 1 ? "query" : "queries"} per call`
    console.log(`  ${label}`)
    console.log(
      `    ${LABEL.gatehouse.padEnd(10)} ${formatValue(timing.opsPerSecond, "ops/s").padStart(14)}   p50 ${formatLatency(timing.p50Us).padStart(9)}   ` +
        `p95 ${formatLatency(timing.p95Us).padStart(9)}   p99 ${formatLatency(timing.p99Us).padStart(9)}   ${queries}`,
    )
    if (options.aside) console.log(`    ${options.aside}`)
    console.log(`    (gatehouse only: Auth.js has no organizations, so no ratio)`)
    this.measurements.push({
      scenario: this.scenarioName,
      label,
      unit: "ms",
      better: "lower",
      gatehouse: timing.p95Us / 1000,
      authjs: null,
      ratio: null,
      detail: {
        ...options.detail,
        gatehouse: timing,
        queries: options.queries,
        ratioNote: `no Auth.js counterpart; p95 shown (p50 ${formatLatency(timing.p50Us)}); ${queries}${options.aside ? `; ${options.aside}` : ""}`,
      },
    })
  }

  /**
   * A figure per library where the direction matters (size, time, memory). `ratioNote` replaces the
   * ratio's number when it would mislead (a ratio of two figures that are both noise).
   */
  figure(
    label: string,
    options: { unit: string; better: Better; quantity: string; gatehouse: Figure; authjs?: Figure; ratioNote?: string },
  ): void {
    console.log(`  ${label}`)
    for (const key of ["gatehouse", "authjs"] as const) {
      const figure = options[key]
      if (!figure) continue
      console.log(`    ${LABEL[key].padEnd(10)} ${formatValue(figure.value, options.unit).padStart(14)}${figure.aside ? `   ${figure.aside}` : ""}`)
    }
    const ratio = options.authjs ? options.gatehouse.value / options.authjs.value : null
    if (options.ratioNote) console.log(`    ratio gatehouse / auth.js ${options.quantity}: ${options.ratioNote}`)
    else if (ratio !== null) console.log(`    ${ratioText(ratio, options.quantity, options.better)}`)
    else console.log(`    (gatehouse only: no auth.js counterpart, so no ratio)`)
    this.measurements.push({
      scenario: this.scenarioName,
      label,
      unit: options.unit,
      better: options.better,
      gatehouse: options.gatehouse.value,
      authjs: options.authjs?.value ?? null,
      ratio: options.ratioNote ? null : ratio,
      detail: { gatehouse: options.gatehouse.detail, authjs: options.authjs?.detail, ratioNote: options.ratioNote },
    })
  }
}

function versionOf(name: string): string {
  for (const modules of [join(repoRoot, "node_modules"), benchModules]) {
    try {
      return (JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")) as { version: string }).version
    } catch {
      // Not installed there: try the next place.
    }
  }
  return "not installed"
}

/** The machine a run happened on: without it a figure means little. */
export function machine(): { cpu: string; cores: number; memoryGB: number; os: string; node: string } {
  const cpuList = cpus()
  return {
    cpu: cpuList[0]?.model.trim() ?? "unknown",
    cores: cpuList.length,
    memoryGB: Number((totalmem() / 1024 ** 3).toFixed(1)),
    os: `${type()} ${release()} ${arch()}`,
    node: process.version,
  }
}

/** The installed versions of `names`, from their package.json under node_modules. */
export function versionsOf(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, versionOf(name)]))
}

/** The machine and software the figures came from. */
export function environment() {
  return {
    date: new Date().toISOString(),
    machine: machine(),
    versions: versionsOf(["gatehouse-auth", "@auth/core", "@auth/pg-adapter", "next-auth", "esbuild"]),
  }
}

function cell(m: Measurement, key: "gatehouse" | "authjs"): string {
  const value = m[key]
  if (value === null) return "—"
  const figure = formatValue(value, m.unit)
  // Throughput rows carry their latencies, which the table would otherwise lose.
  const timing = m.detail?.[key] as Timing | undefined
  return m.unit === "ops/s" && timing ? `${figure} (p50 ${formatLatency(timing.p50Us)}, p99 ${formatLatency(timing.p99Us)})` : figure
}

function markdown(env: ReturnType<typeof environment>, scale: number, measurements: Measurement[]): string {
  const { machine, versions } = env
  const lines = [
    "# Benchmark results",
    "",
    `Produced by \`npm run bench\` (scale ${scale}) on ${env.date.slice(0, 10)}: ${machine.cpu}, ${machine.cores} cores, ` +
      `${machine.memoryGB} GB, ${machine.os}, Node ${machine.node}. Gatehouse ${versions["gatehouse-auth"]}, @auth/core ${versions["@auth/core"]}, ` +
      `@auth/pg-adapter ${versions["@auth/pg-adapter"]}, next-auth ${versions["next-auth"]}. Both libraries run in the same process, ` +
      "in alternating rounds. Ratio is Gatehouse / Auth.js; the column says which direction is better.",
    "",
    "| Scenario | Gatehouse | Auth.js | Ratio |",
    "|---|---|---|---|",
  ]
  for (const m of measurements) {
    const ratio = m.ratio === null ? String(m.detail?.ratioNote ?? "—") : `${m.ratio.toFixed(2)}× (${m.better} is better)`
    lines.push(`| ${m.scenario}: ${m.label} | ${cell(m, "gatehouse")} | ${cell(m, "authjs")} | ${ratio} |`)
  }
  return `${lines.join("\n")}\n`
}

/** Writes `<base>.json` and `<base>.md` into `dir`. */
export function writeResults(dir: string, base: string, report: Report, meta: { scale: number; scenarios: string[] }): string[] {
  const env = environment()
  mkdirSync(dir, { recursive: true })
  const json = join(dir, `${base}.json`)
  const md = join(dir, `${base}.md`)
  writeFileSync(json, `${JSON.stringify({ ...env, ...meta, measurements: report.measurements }, null, 2)}\n`)
  writeFileSync(md, markdown(env, meta.scale, report.measurements))
  return [json, md]
}
