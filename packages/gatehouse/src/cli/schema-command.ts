/**
 * `gatehouse migrate [status|apply] [--sql] [--url <url> | --file <path>]`: the database schema
 * this version of Gatehouse needs, for SQLite and PostgreSQL. The migrations themselves, their
 * record and their locking are the adapters' (`migrate`, `migrateSQLite`); this is the command line.
 * @module
 */
import { POSTGRES_MIGRATION_STEPS, postgresMigrationSql } from "../adapters/postgres-schema.js"
import type { SchemaMigration, SchemaState } from "../adapters/schema-migrations.js"
import { SQLITE_MIGRATION_STEPS, sqliteMigrationSql } from "../adapters/sqlite-schema.js"
import { appEnv } from "./app-env.js"
import type { CliArguments } from "./arguments.js"
import { displayPath, usageError, type CliIO } from "./cli-io.js"
import { firstLine } from "./redaction.js"
import { SchemaAccessError } from "./schema-access-error.js"
import { openSchemaDatabase, schemaTarget, targetLocation, type SchemaDatabase, type SchemaTarget } from "./schema-status.js"

/** The command word. */
export const SCHEMA_COMMAND = "migrate"

/** What `--help` prints. */
export const schemaUsage = `Usage: gatehouse ${SCHEMA_COMMAND} [status|apply] [options]

Shows or applies the database schema this version of Gatehouse needs, as versioned
migrations recorded in the database's gatehouse_migrations table (SQLite, PostgreSQL).

  status          List the applied and the missing migrations; changes nothing (the default).
                  Exit code 0 when up to date, 1 when any is missing (or on an error).
  apply           Apply the missing migrations, each in its own transaction; idempotent, and
                  safe from several instances at once (PostgreSQL: an advisory lock; SQLite:
                  BEGIN IMMEDIATE). Exit code 0 when the database is up to date.
  apply --sql     Print the SQL that apply would run on this database; change nothing.
  --sql postgres  Print every migration for PostgreSQL (or sqlite), without a database,
                  for tools that run migrations themselves (Flyway, Prisma Migrate, Drizzle Kit).
                  The script manages its own transactions (BEGIN/COMMIT per step; BEGIN
                  IMMEDIATE on SQLite): run it outside the tool's transaction (Flyway:
                  executeInTransaction=false).

Options:
  --url <url>     The database: postgres://user:password@host:5432/name, or file:<path> for
                  SQLite. Default: DATABASE_URL (environment, then .env.local, then .env)
  --file <path>   A SQLite database file (it must exist: the adapter creates it on first open)
  --sql           Print SQL instead of applying it
  --json          status: print the result as JSON
  -h, --help      Show this help

Errors are one line on stderr, exit code 1; a password is never shown.
`

/** The database kinds `--sql <kind>` takes, by every name it accepts. */
const DIALECTS: Readonly<Record<string, SchemaTarget["kind"]>> = { postgres: "postgres", postgresql: "postgres", pg: "postgres", sqlite: "sqlite" }

type Subcommand = "status" | "apply"

/**
 * Runs `gatehouse migrate`; resolves to its exit code: 0 when the database is (or, after `apply`,
 * has become) up to date, and for `--sql`; 1 when `status` finds a migration missing, and for
 * every error (usage, driver, connection, a failed step), which is one line on stderr.
 */
export async function schemaCommand(args: CliArguments, io: CliIO): Promise<number> {
  const misplaced = args.force ? "--force" : args.raw ? "--raw" : args.dryRun ? "--dry-run" : undefined
  if (misplaced) {
    const hint = misplaced === "--dry-run" ? " (--sql prints what apply would run)" : ""
    return usageError(io, `option '${misplaced}' is not one of ${SCHEMA_COMMAND}'s${hint}`, schemaUsage)
  }
  const operands = [...args.operands]
  let subcommand: Subcommand | undefined
  if (operands[0] === "status" || operands[0] === "apply") subcommand = operands.shift() as Subcommand
  let dialect: SchemaTarget["kind"] | undefined
  if (args.sql && operands.length > 0) {
    dialect = DIALECTS[operands[0]!.toLowerCase()]
    if (!dialect) return usageError(io, `unknown database kind '${operands[0]}': give postgres or sqlite`, schemaUsage)
    operands.shift()
  }
  if (operands.length > 0) return usageError(io, `unexpected argument '${operands[0]}'`, schemaUsage)
  if (args.sql && subcommand === "status") return usageError(io, "--sql goes with apply (status changes nothing anyway)", schemaUsage)
  if (args.json && (args.sql || subcommand === "apply")) return usageError(io, "--json goes with status", schemaUsage)
  if (dialect && (args.url !== undefined || args.file !== undefined)) {
    return usageError(io, `--sql ${dialect} prints every migration without a database: give it no --url or --file`, schemaUsage)
  }

  if (dialect) {
    io.stdout(dialect === "postgres" ? postgresMigrationSql() : sqliteMigrationSql())
    return 0
  }

  let target: SchemaTarget | undefined
  try {
    // The app's env files are read only when they are what names the database.
    target = schemaTarget({ url: args.url, file: args.file }, args.url === undefined && args.file === undefined ? appEnv(io) : {}, io.cwd)
  } catch (error) {
    return failure(io, error)
  }
  if (!target) {
    const sqlHint = args.sql ? ", or name a kind (--sql postgres, --sql sqlite) to print every migration" : ""
    return failure(io, new SchemaAccessError(`no database: pass --url <url> or --file <path>, or set DATABASE_URL (environment, .env.local or .env)${sqlHint}`))
  }

  const write = subcommand === "apply" && !args.sql
  let db: SchemaDatabase
  try {
    db = await openSchemaDatabase(target, write)
  } catch (error) {
    return failure(io, error)
  }
  try {
    if (args.sql) return await printSql(db, io)
    if (write) return await apply(db, io)
    return await status(db, io, args.json)
  } catch (error) {
    return failure(io, error)
  } finally {
    await db.close()
  }
}

function stepsOf(target: SchemaTarget): readonly SchemaMigration[] {
  return target.kind === "postgres" ? POSTGRES_MIGRATION_STEPS : SQLITE_MIGRATION_STEPS
}

function heading(target: SchemaTarget, io: CliIO): string {
  const where = target.kind === "postgres" ? targetLocation(target) : displayPath(target.file, io.cwd)
  return `Database: ${where} (${target.kind === "postgres" ? "PostgreSQL" : "SQLite"})\n`
}

async function status(db: SchemaDatabase, io: CliIO, json: boolean): Promise<number> {
  const state = await db.read()
  const upToDate = state.missing.length === 0
  if (json) {
    io.stdout(`${JSON.stringify({ database: targetLocation(db.target), kind: db.target.kind, ...state, upToDate }, null, 2)}\n`)
    return upToDate ? 0 : 1
  }
  const steps = stepsOf(db.target)
  const width = Math.max(...[...steps.map((step) => step.id), ...state.applied].map((id) => id.length))
  let text = heading(db.target, io)
  for (const id of [...state.applied, ...state.missing]) {
    const step = steps.find((known) => known.id === id)
    const mark = state.missing.includes(id) ? "missing" : "applied"
    const note = !step
      ? "(not known to this version: a newer release applied it)"
      : state.unrecorded.includes(id)
        ? `${step.description} (applied by a previous release, not yet recorded)`
        : step.description
    text += `  ${mark}  ${id.padEnd(width)}  ${note}\n`
  }
  text += summary(state, steps.length)
  if (!upToDate) text += `Run: npx gatehouse-auth ${SCHEMA_COMMAND} apply   (or "${SCHEMA_COMMAND} apply --sql" to print the SQL)\n`
  io.stdout(text)
  return upToDate ? 0 : 1
}

function summary(state: SchemaState, total: number): string {
  const known = total - state.missing.length
  if (state.missing.length > 0) return `${state.missing.length} of ${total} migrations missing.\n`
  const unrecorded = state.unrecorded.length > 0 ? ` ${state.unrecorded.length} not yet recorded: "${SCHEMA_COMMAND} apply" records them.` : ""
  return `Up to date: ${known} of ${total} migrations applied.${unrecorded}\n`
}

/** After this long, `apply` says it is still at work: another instance may hold the lock. */
const APPLY_NOTICE_MS = 10_000

async function apply(db: SchemaDatabase, io: CliIO): Promise<number> {
  const notice = setTimeout(() => {
    io.stderr(`gatehouse: still applying after ${APPLY_NOTICE_MS / 1000} s: waiting for another instance's migration lock, or a long step\n`)
  }, APPLY_NOTICE_MS)
  notice.unref?.()
  let result: Awaited<ReturnType<SchemaDatabase["apply"]>>
  try {
    result = await db.apply()
  } finally {
    clearTimeout(notice)
  }
  const steps = stepsOf(db.target)
  let text = heading(db.target, io)
  for (const id of result.recorded) text += `Recorded ${id} (applied by a previous release)\n`
  for (const id of result.applied) text += `Applied  ${id}  ${steps.find((step) => step.id === id)?.description ?? ""}\n`
  // Read back rather than assumed: what a deploy script sees is what the database now holds.
  const state = await db.read()
  if (result.applied.length === 0 && result.recorded.length === 0 && state.missing.length === 0) text += "Nothing to apply.\n"
  text += summary(state, steps.length)
  io.stdout(text)
  return state.missing.length === 0 ? 0 : 1
}

async function printSql(db: SchemaDatabase, io: CliIO): Promise<number> {
  const state = await db.read()
  if (db.upToDate(state)) {
    io.stdout(`-- ${targetLocation(db.target)} is up to date: nothing to apply.\n`)
    return 0
  }
  io.stdout(db.sql(state))
  return 0
}


/** One line on stderr: every database failure arrives as a SchemaAccessError, already without the password. */
function failure(io: CliIO, error: unknown): number {
  io.stderr(`gatehouse: ${error instanceof SchemaAccessError ? error.message : firstLine(error)}\n`)
  return 1
}
