/** The shape of a scenario, and what the runner hands it. */
import type { Report } from "./report.js"

export interface ScenarioContext {
  report: Report
  /** BENCH_SCALE: 1 by default; 0.1 for a quick smoke run, 3 for steadier figures. */
  scale: number
  /**
   * Registers a teardown (stop a server, end a pool, remove a temp file). Teardowns run in reverse
   * order when the scenario ends, whether it succeeded, failed or the run was interrupted.
   */
  cleanup(teardown: () => unknown): void
}

export interface Scenario {
  /** What to pass on the command line to run only this one. */
  name: string
  title: string
  run(context: ScenarioContext): Promise<void>
}
