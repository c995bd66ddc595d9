/**
 * The `gatehouse` command line as a function of its arguments, a working directory and two
 * output streams, so it runs in-process in tests exactly as from a terminal. Nothing here reads
 * stdin or prompts: it runs in CI.
 * @module
 */
import { parseArguments, UsageError, type CliArguments } from "./arguments.js"
import { displayPath, usageError, type CliIO } from "./cli-io.js"
import { DOCTOR_COMMAND, doctorCommand, doctorUsage } from "./doctor-command.js"
import { MIGRATE_COMMAND, migrateCommand, migrateUsage } from "./migrate-command.js"
import { SCHEMA_COMMAND, schemaCommand, schemaUsage } from "./schema-command.js"
import { DEFAULT_ENV_FILE, generateSecret, SECRET_VARIABLE, writeSecret, type SecretWriteResult } from "./secret.js"

export type { CliIO } from "./cli-io.js"

const usage = `Usage: gatehouse <command> [options]

Commands:
  secret                Generate an AUTH_SECRET and add it to ${DEFAULT_ENV_FILE}
  ${SCHEMA_COMMAND}               Show or apply the database schema this version needs (SQLite, PostgreSQL)
  ${DOCTOR_COMMAND}                Check a deployment's environment, database and store; exit 1 on a problem
  ${MIGRATE_COMMAND}   Switch an Auth.js app's imports and dependencies to Gatehouse

Run "gatehouse <command> --help" for its options.
`

const secretUsage = `Usage: gatehouse secret [options]

Generates a random AUTH_SECRET (32 bytes, base64) and adds it to ${DEFAULT_ENV_FILE}
in the current directory, creating the file (mode 0600) when there is none.

Options:
  --file <path>  Write to this file instead of ${DEFAULT_ENV_FILE}
  --force        Replace an existing AUTH_SECRET (signs every user out)
  --raw          Print the secret only; write no file
  -h, --help     Show this help
`

/**
 * Runs `gatehouse` with `argv` (the arguments after the script) and resolves to the exit code:
 * 0 on success and for help, 1 for a usage mistake, a secret that is already set (without
 * `--force`), a file that cannot be written, or a folder that is not an app. Failures are one
 * line on stderr, never a stack.
 *
 * @example
 * ```ts
 * const code = await main(["secret", "--raw"], { cwd: process.cwd(), stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) })
 * ```
 */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  let args: CliArguments
  try {
    args = parseArguments(argv)
  } catch (error) {
    if (error instanceof UsageError) return usageError(io, error.message, usageFor(argv))
    throw error
  }
  if (args.command === undefined) {
    if (args.help) return help(io, usage)
    if (args.force || args.raw || args.file !== undefined || args.dryRun || args.sql || args.json || args.url !== undefined) return usageError(io, "missing command", usage)
    io.stderr(usage)
    return 1
  }
  if (args.command === SCHEMA_COMMAND) {
    if (args.help) return help(io, schemaUsage)
    return schemaCommand(args, io)
  }
  if (args.command === DOCTOR_COMMAND) {
    if (args.help) return help(io, doctorUsage)
    return doctorCommand(args, io)
  }
  if (args.command === MIGRATE_COMMAND) {
    if (args.help) return help(io, migrateUsage)
    const misplaced = args.force ? "--force" : args.raw ? "--raw" : args.file !== undefined ? "--file" : args.sql ? "--sql" : args.json ? "--json" : args.url !== undefined ? "--url" : undefined
    if (misplaced) return usageError(io, `option '${misplaced}' is not one of ${MIGRATE_COMMAND}'s`, migrateUsage)
    if (args.operands.length > 1) return usageError(io, `unexpected argument '${args.operands[1]}': give one folder`, migrateUsage)
    return migrateCommand({ dir: args.operands[0], dryRun: args.dryRun }, io)
  }
  if (args.command !== "secret") return usageError(io, `unknown command '${args.command}'`, usage)
  if (args.operands.length > 0) return usageError(io, `unexpected argument '${args.operands[0]}'`, secretUsage)
  const misplaced = args.dryRun ? "--dry-run" : args.sql ? "--sql" : args.json ? "--json" : args.url !== undefined ? "--url" : undefined
  if (misplaced) return usageError(io, `option '${misplaced}' is not one of secret's`, secretUsage)
  if (args.help) return help(io, secretUsage)
  return secretCommand(args, io)
}

function secretCommand(args: CliArguments, io: CliIO): number {
  if (args.raw && (args.force || args.file !== undefined)) {
    return usageError(io, "--raw writes no file, so it takes neither --file nor --force", secretUsage)
  }
  const secret = generateSecret()
  if (args.raw) {
    io.stdout(`${secret}\n`)
    return 0
  }
  let result: SecretWriteResult
  try {
    result = writeSecret({ cwd: io.cwd, file: args.file, secret, force: args.force })
  } catch (error) {
    io.stderr(`gatehouse: cannot write ${SECRET_VARIABLE} to ${args.file ?? DEFAULT_ENV_FILE}: ${reason(error)}\n`)
    return 1
  }
  // The secret itself is never printed here: this output ends up in CI logs.
  const file = displayPath(result.path, io.cwd)
  switch (result.outcome) {
    case "created":
      io.stdout(`Created ${file} with ${SECRET_VARIABLE}.\n`)
      return 0
    case "appended":
      io.stdout(`Added ${SECRET_VARIABLE} to ${file}.\n`)
      return 0
    case "replaced":
      io.stdout(`Replaced ${SECRET_VARIABLE} in ${file}. Sessions signed with the old secret no longer work: every user signs in again.\n`)
      return 0
    case "already-set":
      io.stderr(`${file} already sets ${SECRET_VARIABLE}; left unchanged. Pass --force to replace it (this signs every user out).\n`)
      return 1
  }
}

/** The usage text to show under a parse error: the command is not known for certain, but a command word anywhere is a good guess. */
function usageFor(argv: readonly string[]): string {
  if (argv.includes("secret")) return secretUsage
  if (argv.includes(MIGRATE_COMMAND)) return migrateUsage
  if (argv.includes(SCHEMA_COMMAND)) return schemaUsage
  if (argv.includes(DOCTOR_COMMAND)) return doctorUsage
  return usage
}

function help(io: CliIO, text: string): number {
  io.stdout(text)
  return 0
}

/** Why a file could not be written, in words; Node's own message for the codes not listed. */
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const reasons: Record<string, string> = {
    ENOENT: "its directory does not exist",
    ENOTDIR: "a part of its path is not a directory",
    EISDIR: "it is a directory",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "read-only file system",
    ENOSPC: "no space left on the device",
    EEXIST: "it was created by something else meanwhile; run the command again",
  }
  if (code && reasons[code]) return reasons[code]
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!
}
