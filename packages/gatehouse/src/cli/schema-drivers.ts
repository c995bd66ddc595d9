/**
 * The database drivers the schema command uses, loaded only when a command needs one (they are
 * optional peer dependencies), and their failures in one line that names the problem and never
 * the password.
 * @module
 */
import { statSync } from "node:fs"
import type { PostgresQueryable } from "../adapters/postgres-schema.js"
import type { SQLiteDatabase } from "../adapters/sqlite-schema.js"
import { firstLine, maskedUrl, scrubbed } from "./redaction.js"
import { SchemaAccessError } from "./schema-access-error.js"

/** A connected PostgreSQL client, as the schema functions use it. */
export interface PostgresConnection extends PostgresQueryable {
  end(): Promise<void>
}

/** An open SQLite database, as the schema functions use it. */
export interface SQLiteConnection extends SQLiteDatabase {
  close(): void
}

interface PgClientConfig {
  connectionString: string
  connectionTimeoutMillis: number
  query_timeout?: number
  options?: string
}

interface PgClient extends PostgresConnection {
  connect(): Promise<void>
  on(event: "error", listener: (error: unknown) => void): unknown
  /** pg's connection; its socket is what a close that gets no answer destroys. */
  connection?: { stream?: { destroy(): void } }
}

interface PgModule {
  Client: new (config: PgClientConfig) => PgClient
}

type BetterSqlite3 = new (file: string, options: { readonly: boolean; fileMustExist: boolean; timeout: number }) => SQLiteConnection

/** How long a connection attempt may take before the command gives up, naming the host. */
const CONNECT_TIMEOUT_MS = 10_000

/**
 * How long one query of a read (`migrate status`, `--sql`, `doctor`) may go unanswered. A server
 * that completes the handshake and then never answers (a pooler with no free connection, a lock)
 * would otherwise hang the command.
 */
export const QUERY_TIMEOUT_MS = 10_000

/** The same limits on the server's side, so it stops a statement the command has given up on. */
const READ_SESSION_OPTIONS = "-c statement_timeout=10000 -c lock_timeout=5000"

/** How long a goodbye may take before the socket is destroyed. */
const CLOSE_TIMEOUT_MS = 2_000

/**
 * `import(name)`, or a {@link SchemaAccessError} saying how to install it when it is not installed.
 * @internal
 */
export async function importDriver(name: string, what: string): Promise<unknown> {
  try {
    return await import(name)
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new SchemaAccessError(`the ${what} driver "${name}" is not installed: npm install ${name}`)
    }
    throw new SchemaAccessError(`the ${what} driver "${name}" could not be loaded: ${firstLine(error)}`)
  }
}

/**
 * Connects to PostgreSQL at `url`, or throws a {@link SchemaAccessError} in one line. A `read`
 * connection has {@link QUERY_TIMEOUT_MS} per query and the server's statement and lock timeouts;
 * one that applies migrations has neither (a step may take long, or wait its turn for the lock).
 * The connection's `end()` never hangs: a server that does not answer the goodbye is cut off.
 */
export async function connectPostgres(url: string, use: "read" | "apply" = "read"): Promise<PostgresConnection> {
  const { default: pg } = (await importDriver("pg", "PostgreSQL")) as { default: PgModule }
  const location = maskedUrl(url)
  const limits = use === "read" ? { query_timeout: QUERY_TIMEOUT_MS, options: READ_SESSION_OPTIONS } : {}
  try {
    return await connectClient(pg, { connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...limits })
  } catch (error) {
    // PgBouncer refuses startup parameters it does not track; the client's own timeout still holds.
    if (limits.options === undefined || !/unsupported startup parameter/i.test(firstLine(error))) throw failedConnect(error, url, location)
  }
  try {
    return await connectClient(pg, { connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS })
  } catch (error) {
    throw failedConnect(error, url, location)
  }
}

async function connectClient(pg: PgModule, config: PgClientConfig): Promise<PostgresConnection> {
  const client = new pg.Client(config)
  // A connection dropped while the command runs is reported by the query that fails, not as a crash.
  client.on("error", () => {})
  const end = () => boundedEnd(client)
  try {
    await client.connect()
  } catch (error) {
    await end()
    throw error
  }
  return { query: (text, values) => client.query(text, values), end }
}

/** `client.end()`, or the socket destroyed when the server does not see it off within {@link CLOSE_TIMEOUT_MS}. */
async function boundedEnd(client: PgClient): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), CLOSE_TIMEOUT_MS)
  })
  const outcome = await Promise.race([client.end().then(() => "ended" as const, () => "late" as const), late])
  clearTimeout(timer)
  if (outcome === "late") client.connection?.stream?.destroy()
}

function failedConnect(error: unknown, url: string, location: string): SchemaAccessError {
  if (error instanceof SchemaAccessError) return error
  return new SchemaAccessError(`cannot connect to ${location}: ${scrubbed(postgresReason(error), url)}`)
}

/** A failed query's reason: pg's "Query read timeout" in words. */
export function postgresQueryReason(error: unknown): string {
  const message = firstLine(error)
  return message === "Query read timeout" ? `no answer within ${QUERY_TIMEOUT_MS / 1000} s (the query timed out)` : message
}

/** Why a connection failed, in words: the cause for network errors, the server's message otherwise. */
function postgresReason(error: unknown): string {
  const { code } = (error ?? {}) as { code?: unknown }
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused (is PostgreSQL running there?)"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found"
    case "ETIMEDOUT":
      return "timed out"
    case "ECONNRESET":
      return "the server closed the connection"
  }
  const message = firstLine(error)
  if (/timeout/i.test(message)) return `timed out after ${CONNECT_TIMEOUT_MS / 1000} s`
  return message
}

/**
 * Opens the SQLite file, read-only unless `write`; the file must exist (a typo must not create a
 * database and report it up to date; the app's adapter creates it on first open).
 */
export async function openSQLite(file: string, write: boolean): Promise<SQLiteConnection> {
  let isFile: boolean
  try {
    isFile = statSync(file).isFile()
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new SchemaAccessError(code === "ENOENT" ? `no such file: ${file}` : `cannot read ${file}: ${firstLine(error)}`)
  }
  if (!isFile) throw new SchemaAccessError(`${file} is not a file`)
  const { default: Database } = (await importDriver("better-sqlite3", "SQLite")) as { default: BetterSqlite3 }
  let db: SQLiteConnection
  try {
    db = new Database(file, { readonly: !write, fileMustExist: true, timeout: 5000 })
  } catch (error) {
    throw new SchemaAccessError(`cannot open ${file}: ${sqliteReason(error)}`)
  }
  try {
    // Reading the header is what tells a database from any other file.
    db.prepare("PRAGMA user_version").get()
  } catch (error) {
    db.close()
    throw new SchemaAccessError(`cannot read ${file}: ${sqliteReason(error)}`)
  }
  return db
}

/** A SQLite failure in words. */
export function sqliteReason(error: unknown): string {
  const { code } = (error ?? {}) as { code?: unknown }
  if (typeof code === "string") {
    if (code === "SQLITE_NOTADB") return "it is not a SQLite database"
    if (code.startsWith("SQLITE_READONLY")) return "the file (or its folder) is read-only"
    if (code.startsWith("SQLITE_BUSY")) return "the database stayed locked by another process for 5 s; try again"
    if (code.startsWith("SQLITE_CANTOPEN")) return "the file cannot be opened"
  }
  return firstLine(error)
}
