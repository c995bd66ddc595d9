/**
 * Which of Gatehouse's schema migrations a database has and which it lacks: what `migrate status`
 * prints and what `doctor` checks. Also the one place a command opens the database it names.
 * @module
 */
import { isAbsolute, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { migrate, postgresMigrationSql, readPostgresSchema } from "../adapters/postgres-schema.js"
import { GATEHOUSE_TABLES, MIGRATIONS_TABLE, type MigrationResult, type SchemaState } from "../adapters/schema-migrations.js"
import { isSQLiteUpToDate, migrateSQLite, readSQLiteSchema, sqliteMigrationSql } from "../adapters/sqlite-schema.js"
import { SchemaAccessError } from "./schema-access-error.js"
import { maskedUrl, scrubbed } from "./redaction.js"
import { connectPostgres, openSQLite, postgresQueryReason, sqliteReason } from "./schema-drivers.js"


/** The database a command works on: PostgreSQL by connection string, or a SQLite file. */
export type SchemaTarget = { kind: "postgres"; url: string } | { kind: "sqlite"; file: string }

/** What a database has of the schema this version needs. */
export interface SchemaStatus {
  /** The database as it may be shown: the URL without its password, or the file's path. */
  location: string
  /** The ids of the migrations applied (recorded, or taken as applied: see `unrecorded`), in order. */
  applied: string[]
  /** The ids of the migrations this version needs that are not applied, in order. */
  missing: string[]
  /**
   * Ids among `applied` that a previous release applied without recording them (it had no
   * `gatehouse_migrations` table); `migrate apply` records them. Not a problem by itself.
   */
  unrecorded: string[]
  /**
   * Whether the database has `gatehouse_migrations` or any table Gatehouse's first migration
   * creates; `false` for a database no Gatehouse SQL adapter has used (an app's own data, one
   * managed by Prisma or Drizzle under other names).
   */
  gatehouseTables: boolean
}

/**
 * The target of `--url` / `--file`, else of `DATABASE_URL`; `undefined` when none is given. A URL
 * is PostgreSQL's (`postgres://`, `postgresql://`) or a SQLite file's (`file:./auth.db`,
 * `file:///srv/auth.db`). A relative file is resolved against `cwd` (default: the process's).
 * @throws {@link SchemaAccessError} for a URL that is neither PostgreSQL's nor a SQLite file's,
 *   or for both `url` and `file`.
 */
export function schemaTarget(
  options: { url?: string | undefined; file?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): SchemaTarget | undefined {
  if (options.url !== undefined && options.file !== undefined) throw new SchemaAccessError("give --url or --file, not both")
  if (options.file !== undefined) return { kind: "sqlite", file: resolve(cwd, options.file) }
  if (options.url !== undefined) return targetOfUrl(options.url, "--url", cwd)
  const fromEnv = env.DATABASE_URL
  if (fromEnv !== undefined && fromEnv.trim() !== "") return targetOfUrl(fromEnv.trim(), "DATABASE_URL", cwd)
  return undefined
}

function targetOfUrl(url: string, source: string, cwd: string): SchemaTarget {
  if (/^postgres(ql)?:\/\//i.test(url)) {
    try {
      new URL(url)
    } catch {
      // The text itself is not shown: it may hold the password.
      throw new SchemaAccessError(`${source} is not a valid PostgreSQL URL (postgres://user:password@host:5432/database)`)
    }
    return { kind: "postgres", url }
  }
  if (/^file:/i.test(url)) {
    let path: string
    try {
      path = url.startsWith("file://") ? fileURLToPath(url.split("?")[0]!) : decodeURIComponent(url.slice("file:".length).split("?")[0]!)
    } catch {
      throw new SchemaAccessError(`${source} is not a usable file: URL`)
    }
    if (path === "") throw new SchemaAccessError(`${source} names no file`)
    return { kind: "sqlite", file: isAbsolute(path) ? path : resolve(cwd, path) }
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]
  throw new SchemaAccessError(
    `${source} ${scheme ? `is a ${scheme}: URL` : "is not a URL"}; Gatehouse's schema commands take PostgreSQL (postgres://…) or a SQLite file (file:<path>, or --file <path>)`,
  )
}

/** Where a target is, as it may be shown. */
export function targetLocation(target: SchemaTarget): string {
  return target.kind === "postgres" ? maskedUrl(target.url) : target.file
}

/** An open database and what the commands do with it. */
export interface SchemaDatabase {
  readonly target: SchemaTarget
  /** What the database has and lacks. */
  read(): Promise<SchemaState>
  /** Whether it has `gatehouse_migrations` or any table Gatehouse's first migration creates. */
  hasGatehouseTables(): Promise<boolean>
  /** Applies what it lacks (each step in its own transaction, under the dialect's lock). */
  apply(): Promise<MigrationResult>
  /** Whether `apply` would write nothing, `state` being what {@link SchemaDatabase.read} returned. */
  upToDate(state: SchemaState): boolean
  /** The SQL `apply` would run for `state`. */
  sql(state: SchemaState): string
  close(): Promise<void>
}

/**
 * Opens the target: read-only unless `write` (SQLite opens the file read-only; PostgreSQL only
 * reads in `read`).
 * @throws {@link SchemaAccessError} when it cannot be reached or opened.
 */
export async function openSchemaDatabase(target: SchemaTarget, write: boolean): Promise<SchemaDatabase> {
  if (target.kind === "postgres") {
    const client = await connectPostgres(target.url, write ? "apply" : "read")
    const failed = (doing: string) => (error: unknown): never => {
      throw new SchemaAccessError(`${doing} ${maskedUrl(target.url)} failed: ${scrubbed(postgresQueryReason(error), target.url)}`)
    }
    return {
      target,
      read: () => readPostgresSchema(client).catch(failed("reading the migrations of")),
      hasGatehouseTables: async () => {
        const { rows } = await client
          .query("SELECT EXISTS (SELECT 1 FROM unnest($1::text[]) AS t(name) WHERE to_regclass(t.name) IS NOT NULL) AS found", [[MIGRATIONS_TABLE, ...GATEHOUSE_TABLES]])
          .catch(failed("reading the tables of"))
        return rows[0]?.found === true
      },
      apply: () => migrate(client).catch(failed("migrating")),
      upToDate: (state) => state.missing.length === 0 && state.unrecorded.length === 0,
      sql: (state) => postgresMigrationSql(state),
      close: () => client.end().catch(() => {}),
    }
  }
  const db = await openSQLite(target.file, write)
  const failed = (doing: string, error: unknown): never => {
    throw new SchemaAccessError(`${doing} ${target.file} failed: ${sqliteReason(error)}`)
  }
  return {
    target,
    read: async () => {
      try {
        return readSQLiteSchema(db)
      } catch (error) {
        return failed("reading the migrations of", error)
      }
    },
    apply: async () => {
      try {
        return migrateSQLite(db)
      } catch (error) {
        return failed("migrating", error)
      }
    },
    hasGatehouseTables: async () => {
      try {
        const names = [MIGRATIONS_TABLE, ...GATEHOUSE_TABLES]
        const row = db.prepare(`SELECT count(*) AS found FROM sqlite_master WHERE type = 'table' AND name IN (${names.map(() => "?").join(", ")})`).get(...names) as { found: number }
        return Number(row.found) > 0
      } catch (error) {
        return failed("reading the tables of", error)
      }
    },
    upToDate: (state) => isSQLiteUpToDate(db, state),
    sql: (state) => sqliteMigrationSql(state),
    close: async () => db.close(),
  }
}

/**
 * Reads the migrations a database has applied, changing nothing. It owns its deadline (`timeoutMs`,
 * connecting included): after it, it rejects, naming the timeout, and closes the connection (cutting it off when the
 * server does not answer), so nothing is left holding the process open.
 * @throws {@link SchemaAccessError} when it cannot be reached or read in time.
 */
export async function readSchemaStatus(target: SchemaTarget, timeoutMs: number): Promise<SchemaStatus> {
  let expired = false
  let opened: SchemaDatabase | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = true
      void opened?.close()
      reject(new SchemaAccessError(`${targetLocation(target)} did not answer within ${timeoutMs / 1000} s (a connection pooler without a free connection, or a lock?)`))
    }, timeoutMs)
  })
  const read = (async () => {
    const db = await openSchemaDatabase(target, false)
    opened = db
    try {
      if (expired) throw new SchemaAccessError("expired")
      const state = await db.read()
      // Only a database lacking a step can lack Gatehouse's tables: a second look is needed only then.
      return { location: targetLocation(target), ...state, gatehouseTables: state.missing.length === 0 || (await db.hasGatehouseTables()) }
    } finally {
      await db.close()
    }
  })()
  // The loser's outcome is dropped: after the deadline, a late failure is no longer news.
  read.catch(() => {})
  try {
    return await Promise.race([read, deadline])
  } finally {
    clearTimeout(timer)
  }
}
