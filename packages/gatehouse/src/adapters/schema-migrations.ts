/**
 * What the SQL adapters' versioned migrations share: a step's shape, a database's state, and the
 * table that records which steps ran (`gatehouse_migrations`, Gatehouse's own).
 * @module
 */

/** The table recording the migrations applied to a database, one row per step. */
export const MIGRATIONS_TABLE = "gatehouse_migrations"

/**
 * The tables Gatehouse's first migration creates, in either dialect: a database with none of them
 * (and no {@link MIGRATIONS_TABLE}) has never seen Gatehouse's SQL adapters.
 */
export const GATEHOUSE_TABLES = [
  "users",
  "verification_token",
  "rate_limits",
  "session_versions",
  "accounts",
  "sessions",
  "authenticators",
  "session_details",
  "session_authentication",
  "two_factor",
  "two_factor_recovery_codes",
] as const

/** One schema migration: a stable id (`0001_…`, never renamed), what it does, and its SQL. */
export interface SchemaMigration {
  /** Stable and sortable: the number orders the steps, the words say what the step does. */
  readonly id: string
  /** One line on what the step creates. */
  readonly description: string
  /** The step's statements, safe to run again (`IF NOT EXISTS`). */
  readonly sql: string
}

/** What a database has of the migrations this version of Gatehouse knows. */
export interface SchemaState {
  /** The ids recorded in `gatehouse_migrations`, or taken as applied (see `unrecorded`), in order. */
  applied: string[]
  /**
   * Ids among `applied` that a previous release applied without recording them in
   * `gatehouse_migrations`: SQLite's first `PRAGMA user_version` steps, or PostgreSQL's first
   * step when every table it creates exists. `apply` records them.
   */
  unrecorded: string[]
  /** The ids this version needs that are not applied, in order. */
  missing: string[]
}

/** What a run of the migrations did. */
export interface MigrationResult {
  /** The ids of the steps run now, in order. */
  applied: string[]
  /**
   * The ids an earlier release had applied without recording them, recorded now (SQLite's
   * `PRAGMA user_version` steps are only recorded; PostgreSQL's step 1 is run again, which adds
   * nothing, then recorded).
   */
  recorded: string[]
}

/** The state of a database whose recorded (or taken-as-applied) ids are `applied`. */
export function schemaState(steps: readonly SchemaMigration[], applied: ReadonlySet<string>, unrecorded: ReadonlySet<string>): SchemaState {
  // Ids this version does not know (a newer release ran) are listed too: status shows them as applied.
  const known = steps.map((step) => step.id)
  const extra = [...applied].filter((id) => !known.includes(id)).sort()
  return {
    applied: [...known.filter((id) => applied.has(id) || unrecorded.has(id)), ...extra],
    unrecorded: known.filter((id) => unrecorded.has(id) && !applied.has(id)),
    missing: known.filter((id) => !applied.has(id) && !unrecorded.has(id)),
  }
}

/** `id` as an SQL string literal; ids are ours (`0001_words`), the check keeps the script sound regardless. */
export function idLiteral(id: string): string {
  if (!/^[0-9]{4}_[a-z0-9_]+$/.test(id)) throw new RangeError(`Not a migration id: ${id}`)
  return `'${id}'`
}
