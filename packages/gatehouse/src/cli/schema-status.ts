/**
 * Which of Gatehouse's schema migrations a database has and which it lacks: what `migrate status`
 * prints and what `doctor` checks. (Seam: built by the schema part of issue 38.)
 * @module
 */

/** The database a command works on: PostgreSQL by connection string, or a SQLite file. */
export type SchemaTarget = { kind: "postgres"; url: string } | { kind: "sqlite"; file: string }

/** A database that could not be reached or read; the message is one line, without the password. */
export class SchemaAccessError extends Error {
  override name = "SchemaAccessError"
}

/** What a database has of the schema this version needs. */
export interface SchemaStatus {
  /** The database as it may be shown: the URL without its password, or the file's path. */
  location: string
  /** The ids of the migrations recorded as applied, in order. */
  applied: string[]
  /** The ids of the migrations this version needs that are not applied, in order. */
  missing: string[]
}

/**
 * The target of `--url` / `--file`, else of `DATABASE_URL`; `undefined` when none is given.
 * @throws {@link SchemaAccessError} for a URL that is neither PostgreSQL's nor a SQLite file's.
 */
export function schemaTarget(options: { url?: string | undefined; file?: string | undefined }, env: Readonly<Record<string, string | undefined>>): SchemaTarget | undefined {
  void options
  void env
  throw new SchemaAccessError("not built yet")
}

/**
 * Reads the migrations a database has applied, changing nothing.
 * @throws {@link SchemaAccessError} when it cannot be reached or read.
 */
export async function readSchemaStatus(target: SchemaTarget): Promise<SchemaStatus> {
  void target
  throw new SchemaAccessError("not built yet")
}
