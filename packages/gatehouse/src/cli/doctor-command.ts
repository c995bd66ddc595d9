/**
 * `gatehouse doctor [--json]`: what a deploy check needs to know, one line per finding.
 * @module
 */
import type { CliArguments } from "./arguments.js"
import type { CliIO } from "./cli-io.js"

/** The command word. */
export const DOCTOR_COMMAND = "doctor"

export const doctorUsage = `Usage: gatehouse ${DOCTOR_COMMAND} [options]
`

/** Runs the checks; resolves to 1 when one found a problem, else 0. */
export async function doctorCommand(args: CliArguments, io: CliIO): Promise<number> {
  void args
  io.stderr(`gatehouse: ${DOCTOR_COMMAND} is not built yet\n`)
  return 1
}
