/**
 * `gatehouse migrate [status|apply] [--sql] [--url <url> | --file <path>]`: the database schema
 * this version of Gatehouse needs, for SQLite and PostgreSQL.
 * @module
 */
import type { CliArguments } from "./arguments.js"
import type { CliIO } from "./cli-io.js"

/** The command word. */
export const SCHEMA_COMMAND = "migrate"

export const schemaUsage = `Usage: gatehouse ${SCHEMA_COMMAND} [status|apply] [options]
`

/** Runs the schema command; resolves to its exit code. */
export async function schemaCommand(args: CliArguments, io: CliIO): Promise<number> {
  void args
  io.stderr(`gatehouse: ${SCHEMA_COMMAND} is not built yet\n`)
  return 1
}
