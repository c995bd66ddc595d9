/**
 * The doctor's database check: the schema this version needs against what the database has, as
 * `gatehouse migrate status` reads it. No database configured is not a problem (JWT sessions need
 * none, and an app may configure its adapter in code); missing migrations and an unreachable
 * database are.
 * @module
 */
import { isSet, named, type DoctorEnv, type Finding } from "./doctor-findings.js"
import { firstLine } from "./redaction.js"
import { readSchemaStatus, schemaTarget, type SchemaStatus, type SchemaTarget } from "./schema-status.js"

const CHECK = "database"

/** How long the database may take to answer before the check gives up and says so. */
export const DATABASE_TIMEOUT_MS = 10_000

const skipped: Finding = { check: CHECK, level: "ok", message: "skipped: no database given (DATABASE_URL unset, no --url or --file)" }

/** Where the doctor looks for the database: `--url` / `--file`, else `DATABASE_URL`. */
export interface DatabaseOptions {
  url?: string | undefined
  /** A SQLite file, relative to `cwd`. */
  file?: string | undefined
  /** The app's folder, which a relative `--file` names a file in. */
  cwd: string
}

/** The findings about the database schema. */
export async function checkDatabase(env: DoctorEnv, options: DatabaseOptions): Promise<Finding[]> {
  const from = options.url !== undefined ? "--url" : options.file !== undefined ? "--file" : isSet(env, "DATABASE_URL") ? named(env, "DATABASE_URL") : undefined
  if (from === undefined) return [skipped]
  let target: SchemaTarget | undefined
  try {
    // Resolved here, so the file is the one in the app's folder whatever the process's directory.
    target = schemaTarget({ url: options.url, file: options.file }, env.env, options.cwd)
  } catch (error) {
    return [{ check: CHECK, level: "error", message: `${from} is not usable: ${firstLine(error)}` }]
  }
  if (target === undefined) return [skipped]
  let status: SchemaStatus
  try {
    status = await readSchemaStatus(target, DATABASE_TIMEOUT_MS)
  } catch (error) {
    return [{ check: CHECK, level: "error", message: `cannot read the schema of the database from ${from}: ${firstLine(error)}` }]
  }
  const findings = prismaSchemaWarning(target, from)
  if (status.missing.length > 0 && !status.gatehouseTables && options.url === undefined && options.file === undefined) {
    // DATABASE_URL is often the app's own database, or one another adapter (Prisma's, Drizzle's)
    // keeps under its own table names: nothing says Gatehouse's SQL adapter uses it.
    return [
      ...findings,
      {
        check: CHECK,
        level: "warn",
        message: `${status.location} has no Gatehouse tables; if your adapter is not Gatehouse's SQL adapter, ignore this, else run \`${applyCommand(options)}\``,
      },
    ]
  }
  if (status.missing.length > 0) {
    return [
      ...findings,
      {
        check: CHECK,
        level: "error",
        message: `${status.location} lacks ${status.missing.length} migration${status.missing.length === 1 ? "" : "s"} this version needs (${status.missing.join(", ")}): run \`${applyCommand(options)}\``,
      },
    ]
  }
  return [...findings, { check: CHECK, level: "ok", message: `${status.location} has the schema this version needs (${status.applied.length} migration${status.applied.length === 1 ? "" : "s"} applied)` }]
}

/**
 * A warning for Prisma's `?schema=` parameter: the `pg` driver ignores it, so the check read the
 * tables on the server's default `search_path`, which may not be the ones the app uses.
 */
function prismaSchemaWarning(target: SchemaTarget, from: string): Finding[] {
  if (target.kind !== "postgres") return []
  let schema: string | null
  try {
    schema = new URL(target.url).searchParams.get("schema")
  } catch {
    return []
  }
  if (schema === null) return []
  return [
    {
      check: CHECK,
      level: "warn",
      message: `${from} has a schema= parameter (Prisma's), which the PostgreSQL driver ignores: this check read the default search_path; to check that schema, pass --url with options=-csearch_path%3D<schema> instead`,
    },
  ]
}

/** The command that applies the missing steps to the database checked; never with the URL, which may hold a password. */
function applyCommand(options: DatabaseOptions): string {
  const command = "npx gatehouse-auth migrate apply"
  if (options.file !== undefined) return `${command} --file ${/^[\w./-]+$/.test(options.file) ? options.file : JSON.stringify(options.file)}`
  return options.url !== undefined ? `${command} --url <url>` : command
}
