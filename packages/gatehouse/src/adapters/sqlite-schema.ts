/**
 * The SQLite schema of `gatehouse-auth/adapters/sqlite` and its migrations.
 *
 * Table and column names are those of Auth.js's PostgreSQL adapter, which the PostgreSQL adapter
 * here shares, so the two stores look alike; `rate_limits` (for `hitRateLimit`), `session_versions`, `session_details`, `session_authentication`, `two_factor`, `two_factor_recovery_codes`, `organizations`, `organization_members`, `organization_invitations`, `audit_log`, `session_context` and `user_status` are Gatehouse's own. Dates are stored as integer milliseconds since the
 * epoch (SQLite has no date type and integers compare and index exactly; ISO text written by other
 * tools is read too), booleans as 0/1, and `accounts.expires_at` stays in seconds as the OAuth
 * token response has it.
 *
 * @module
 */
import { idLiteral, MIGRATIONS_TABLE, schemaState, type MigrationResult, type SchemaMigration, type SchemaState } from "./schema-migrations.js"

export type { MigrationResult, SchemaMigration, SchemaState } from "./schema-migrations.js"

/**
 * The part of a prepared statement the adapter uses. The adapter only ever passes positional
 * values; the parameters are typed `unknown` because better-sqlite3's generic `prepare` is seen
 * here as returning a union that includes a named-parameter statement, which a narrower type
 * would reject.
 */
export interface SQLiteStatement {
  /** Runs a statement that returns no rows (INSERT, UPDATE, DELETE without RETURNING). */
  run(...params: unknown[]): unknown
  /** The first row, or `undefined`. */
  get(...params: unknown[]): unknown
  /** Every row. */
  all(...params: unknown[]): unknown[]
}

/** The part of a connection the adapter uses: a better-sqlite3 `Database` or a `node:sqlite` `DatabaseSync`. */
export interface SQLiteDatabase {
  /** Runs SQL without parameters (the migrations, transactions). */
  exec(sql: string): unknown
  /** Compiles a statement with `?` parameters. */
  prepare(sql: string): SQLiteStatement
}

/**
 * Every migration, in order, each with its stable id. A new migration is appended here and never
 * edits an earlier one. Each is written to be re-runnable (`IF NOT EXISTS`) because a database may
 * already hold these tables from a copy of the schema run by hand.
 *
 * Applied steps are recorded in the `gatehouse_migrations` table; `PRAGMA user_version` keeps
 * counting them as well (how releases before that table recorded them, and still read them).
 *
 * @example
 * ```ts
 * import { SQLITE_MIGRATION_STEPS } from "gatehouse-auth/adapters/sqlite"
 *
 * // One file per step for a tool that runs migrations itself, named by the step's stable id.
 * for (const step of SQLITE_MIGRATION_STEPS) console.log(`${step.id}.sql: ${step.description}`)
 * ```
 */
export const SQLITE_MIGRATION_STEPS: readonly SchemaMigration[] = [
  {
    id: "0001_authjs_tables",
    description: "Auth.js's tables: users, accounts, sessions, verification_token, authenticators",
    sql: `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  name TEXT,
  email TEXT,
  "emailVerified" INTEGER,
  image TEXT
);
CREATE INDEX IF NOT EXISTS users_email_idx ON users (email);

CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  provider TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at INTEGER,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,
  UNIQUE (provider, "providerAccountId")
);
CREATE INDEX IF NOT EXISTS "accounts_userId_idx" ON accounts ("userId");

CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires INTEGER NOT NULL,
  "sessionToken" TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS "sessions_sessionToken_key" ON sessions ("sessionToken");
CREATE INDEX IF NOT EXISTS "sessions_userId_idx" ON sessions ("userId");

CREATE TABLE IF NOT EXISTS verification_token (
  identifier TEXT NOT NULL,
  token TEXT NOT NULL,
  expires INTEGER NOT NULL,
  PRIMARY KEY (identifier, token)
);

CREATE TABLE IF NOT EXISTS authenticators (
  "credentialID" TEXT NOT NULL PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  counter INTEGER NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" INTEGER NOT NULL,
  transports TEXT
);
CREATE INDEX IF NOT EXISTS "authenticators_userId_idx" ON authenticators ("userId");
`,
  },
  // Gatehouse's own table, not in Auth.js: hitRateLimit's fixed windows, one row per key.
  // reset_at is when the window ends, in milliseconds since the epoch like the other dates.
  {
    id: "0002_rate_limits",
    description: "rate_limits: hitRateLimit's counts (Gatehouse's own)",
    sql: `
CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
);
`,
  },
  // Gatehouse's own: each user's session version, which lets signOutEverywhere end JWT
  // sessions. No foreign key: a credentials user of a JWT app need not be stored to have one.
  {
    id: "0003_session_versions",
    description: "session_versions: signOutEverywhere for JWT sessions (Gatehouse's own)",
    sql: `
CREATE TABLE IF NOT EXISTS session_versions (
  "userId" TEXT PRIMARY KEY,
  version INTEGER NOT NULL
);
`,
  },
  // Gatehouse's own: when and where each database session started (listing a user's sessions),
  // and the identity provider's session id (back-channel logout). A table of its own rather than
  // columns on sessions, so Auth.js's tables stay exactly its own; it goes with its row (cascade).
  {
    id: "0004_session_details",
    description: "session_details: where and when each database session started (Gatehouse's own)",
    sql: `
CREATE TABLE IF NOT EXISTS session_details (
  "sessionId" TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  user_agent TEXT,
  idp_provider TEXT,
  idp_sid TEXT
);
CREATE INDEX IF NOT EXISTS session_details_idp_idx ON session_details (idp_provider, idp_sid);
`,
  },
  // Gatehouse's own, for two-factor sign-in. two_factor: each user's TOTP secret (sealed by the
  // core), the one being enrolled, the last time step used (replay), when it was enabled and the
  // version that voids trusted devices. two_factor_recovery_codes: one row per unused code's hash.
  // session_authentication: how each database session was authenticated (aal, space-joined amr,
  // when a second factor was last checked), a table rather than columns on session_details
  // because SQLite's ADD COLUMN cannot be made re-runnable (IF NOT EXISTS) like the migrations are.
  {
    id: "0005_two_factor",
    description: "two_factor, two_factor_recovery_codes, session_authentication (Gatehouse's own)",
    sql: `
CREATE TABLE IF NOT EXISTS two_factor (
  "userId" TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  totp_secret TEXT,
  totp_pending_secret TEXT,
  totp_last_step INTEGER,
  enabled_at INTEGER,
  trust_version INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS two_factor_recovery_codes (
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  PRIMARY KEY ("userId", code_hash)
);

CREATE TABLE IF NOT EXISTS session_authentication (
  "sessionId" TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  aal INTEGER,
  amr TEXT,
  second_factor_at INTEGER
);
`,
  },
  // Gatehouse's own, for organizations (issue 39). Members are keyed by the pair; the listing
  // index serves listMembers' keyset order and the role index the last-owner check. Invitations
  // keep only the link token's hash; the inviter is no foreign key, so an invitation outlives its
  // inviter. The audit log has no foreign keys at all: its rows outlive what they name.
  // user_status is the admin API's: a user's role and ban, one row per user, gone with the user;
  // its primary key is the one lookup a sign-in makes while the admin API is on.
  {
    id: "0006_organizations",
    description: "organizations, organization_members, organization_invitations, audit_log, session_context, user_status (Gatehouse's own)",
    sql: `
-- session_context: a database session's active organization, impersonating admin and sign-in
-- provider, keyed and cascading like session_authentication (part B).
CREATE TABLE IF NOT EXISTS session_context (
  "sessionId" TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  active_organization_id TEXT,
  impersonator_id TEXT,
  sign_in_provider TEXT
);

CREATE TABLE IF NOT EXISTS organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  policy TEXT
);

CREATE TABLE IF NOT EXISTS organization_members (
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (organization_id, "userId")
);
CREATE INDEX IF NOT EXISTS "organization_members_userId_idx" ON organization_members ("userId");
CREATE INDEX IF NOT EXISTS organization_members_listing_idx ON organization_members (organization_id, created_at, "userId");
CREATE INDEX IF NOT EXISTS organization_members_role_idx ON organization_members (organization_id, role);

CREATE TABLE IF NOT EXISTS organization_invitations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  inviter_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'revoked')),
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS organization_invitations_organization_idx ON organization_invitations (organization_id, created_at);

CREATE TABLE IF NOT EXISTS audit_log (
  id TEXT PRIMARY KEY,
  actor_id TEXT,
  action TEXT NOT NULL,
  organization_id TEXT,
  target_type TEXT,
  target_id TEXT,
  ip TEXT,
  user_agent TEXT,
  created_at INTEGER NOT NULL,
  details TEXT
);
CREATE INDEX IF NOT EXISTS audit_log_organization_idx ON audit_log (organization_id, created_at, id);
CREATE INDEX IF NOT EXISTS audit_log_actor_idx ON audit_log (actor_id, created_at, id);
CREATE INDEX IF NOT EXISTS audit_log_created_idx ON audit_log (created_at, id);

CREATE TABLE IF NOT EXISTS user_status (
  "userId" TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  role TEXT,
  banned_at INTEGER,
  ban_reason TEXT,
  ban_expires_at INTEGER,
  banned_by TEXT
);
`,
  },
]

/** Every migration's SQL, in order (the steps of {@link SQLITE_MIGRATION_STEPS}). */
export const SQLITE_MIGRATIONS: readonly string[] = SQLITE_MIGRATION_STEPS.map((step) => step.sql)

/** The `PRAGMA user_version` of a fully migrated database. */
export const SQLITE_SCHEMA_VERSION: number = SQLITE_MIGRATIONS.length

/**
 * The whole current schema as one script, for creating the tables with other tooling. It records
 * nothing; the adapter then records the steps on open (each runs again as a no-op).
 * {@link sqliteMigrationSql} is the same with the records, as `migrate apply` leaves them.
 */
export const SQLITE_SCHEMA: string = SQLITE_MIGRATIONS.join("\n")


const RECORD_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  id TEXT PRIMARY KEY,
  applied_at INTEGER NOT NULL
);`
// Milliseconds since the epoch, like every date of the schema; strftime works on every SQLite version.
const NOW_MS = `CAST(strftime('%s', 'now') AS INTEGER) * 1000`
const record = (id: string): string => `INSERT OR IGNORE INTO ${MIGRATIONS_TABLE} (id, applied_at) VALUES (${idLiteral(id)}, ${NOW_MS});`

/** How many steps from the first are applied: what `PRAGMA user_version` holds for older releases. */
function appliedPrefix(state: SchemaState): number {
  const index = SQLITE_MIGRATION_STEPS.findIndex((step) => state.missing.includes(step.id))
  return index === -1 ? SQLITE_MIGRATION_STEPS.length : index
}

function userVersion(db: SQLiteDatabase): number {
  return Number((db.prepare("PRAGMA user_version").get() as { user_version?: unknown } | undefined)?.user_version ?? 0)
}

/**
 * Nothing to write: every step applied and recorded, and `PRAGMA user_version` counting them
 * (a tool or a person may have reset it; releases before the record read only that). What
 * {@link migrateSQLite} and `migrate apply --sql` both judge by.
 * @internal
 */
export function isSQLiteUpToDate(db: SQLiteDatabase, state: SchemaState): boolean {
  return state.missing.length === 0 && state.unrecorded.length === 0 && userVersion(db) >= appliedPrefix(state)
}

/**
 * Which migrations a SQLite database has applied and which it lacks, changing nothing (it works on
 * a read-only connection). Steps are read from `gatehouse_migrations`; a database made by a
 * release before that table has only `PRAGMA user_version`, whose first N steps count as applied
 * (listed in `unrecorded` until {@link migrateSQLite} records them).
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3"
 * import { readSQLiteSchema } from "gatehouse-auth/adapters/sqlite"
 *
 * const { missing } = readSQLiteSchema(new Database("auth.db", { readonly: true }))
 * if (missing.length > 0) console.log(`run: npx gatehouse-auth migrate apply (missing ${missing.join(", ")})`)
 * ```
 */
export function readSQLiteSchema(db: SQLiteDatabase): SchemaState {
  const version = userVersion(db)
  const fromVersion = new Set(SQLITE_MIGRATION_STEPS.slice(0, version).map((step) => step.id))
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE) !== undefined
  const recorded = hasTable
    ? new Set((db.prepare(`SELECT id FROM ${MIGRATIONS_TABLE}`).all() as { id: unknown }[]).map((row) => String(row.id)))
    : new Set<string>()
  return schemaState(SQLITE_MIGRATION_STEPS, recorded, fromVersion)
}

/**
 * Runs `work` in a `BEGIN IMMEDIATE` transaction (the write lock taken at once, so another
 * connection waits rather than interleaves) and commits, or rolls back and rethrows its error.
 * @internal
 */
export function immediateTransaction<T>(db: SQLiteDatabase, work: () => T): T {
  db.exec("BEGIN IMMEDIATE")
  try {
    const result = work()
    db.exec("COMMIT")
    return result
  } catch (error) {
    try {
      db.exec("ROLLBACK")
    } catch {
      // SQLite already rolled back on its own (some errors end the transaction); the first error is the one to report.
    }
    throw error
  }
}

/**
 * Applies the migrations a SQLite database lacks, each step in its own `BEGIN IMMEDIATE`
 * transaction (a failed step changes nothing, and the steps before it stay), recording each in
 * `gatehouse_migrations` and counting it in `PRAGMA user_version`. Idempotent, and safe when
 * several processes run it on one file at once: each step re-reads the record under the write
 * lock, so a step another process applied meanwhile is not run again. `SQLiteAdapter` runs this
 * when it opens a database; `npx gatehouse-auth migrate apply --file auth.db` runs it too.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3"
 * import { migrateSQLite } from "gatehouse-auth/adapters/sqlite"
 *
 * const { applied } = migrateSQLite(new Database("auth.db"))
 * ```
 */
export function migrateSQLite(db: SQLiteDatabase): MigrationResult {
  const result: MigrationResult = { applied: [], recorded: [] }
  // Checked first without the write lock, so an up-to-date database (every start of an app) takes none.
  if (isSQLiteUpToDate(db, readSQLiteSchema(db))) return result
  for (;;) {
    const next = immediateTransaction(db, () => {
      db.exec(RECORD_TABLE)
      const state = readSQLiteSchema(db)
      for (const id of state.unrecorded) db.exec(record(id))
      result.recorded.push(...state.unrecorded)
      const step = SQLITE_MIGRATION_STEPS.find((candidate) => state.missing.includes(candidate.id))
      if (step) {
        db.exec(step.sql)
        db.exec(record(step.id))
      }
      db.exec(`PRAGMA user_version = ${Math.max(userVersion(db), appliedPrefix(readSQLiteSchema(db)))}`)
      return step
    })
    if (!next) return result
    result.applied.push(next.id)
  }
}

/**
 * The SQL that {@link migrateSQLite} would run, as one script for review or for another tool
 * (Drizzle Kit, Prisma Migrate, Flyway): the steps of `state.missing` (every step without a
 * state), each in its own transaction with its record, the records of `state.unrecorded`, and at
 * the end, once, `PRAGMA user_version` counting every step (never lowered partway by a step
 * that counts fewer). Running it leaves the database as `migrate apply` would.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3"
 * import { readSQLiteSchema, sqliteMigrationSql } from "gatehouse-auth/adapters/sqlite"
 *
 * console.log(sqliteMigrationSql(readSQLiteSchema(new Database("auth.db", { readonly: true }))))
 * ```
 */
export function sqliteMigrationSql(state?: SchemaState): string {
  const missing = state?.missing ?? SQLITE_MIGRATION_STEPS.map((step) => step.id)
  const unrecorded = state?.unrecorded ?? []
  const parts = [`-- Gatehouse schema migrations for SQLite. Each step runs in its own transaction and is recorded\n-- in ${MIGRATIONS_TABLE}; PRAGMA user_version counts the steps for older releases.\n${RECORD_TABLE}\n`]
  if (unrecorded.length > 0) {
    parts.push(`-- Applied by a previous release (PRAGMA user_version), recorded now.\nBEGIN IMMEDIATE;\n${unrecorded.map(record).join("\n")}\nCOMMIT;\n`)
  }
  for (const step of SQLITE_MIGRATION_STEPS) {
    if (!missing.includes(step.id)) continue
    parts.push(`-- ${step.id}: ${step.description}\nBEGIN IMMEDIATE;\n${step.sql.trim()}\n${record(step.id)}\nCOMMIT;\n`)
  }
  // Once, at the end: every step is applied by then. A file a newer release migrated counts more
  // steps than this version knows, and is left alone.
  const known = new Set(SQLITE_MIGRATION_STEPS.map((step) => step.id))
  if (!(state?.applied ?? []).some((id) => !known.has(id))) {
    parts.push(`-- Every step applied: counted for releases that read only PRAGMA user_version.\nPRAGMA user_version = ${SQLITE_MIGRATION_STEPS.length};\n`)
  }
  return parts.join("\n")
}
