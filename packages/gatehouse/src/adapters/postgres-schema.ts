/**
 * The PostgreSQL schema of `gatehouse-auth/adapters/postgres` and {@link migrate}, which applies it.
 *
 * Table and column names are those of Auth.js's `@auth/pg-adapter`, so a database made for
 * Auth.js (SERIAL integer ids) keeps working; the script only adds what that schema lacks.
 * Needs PostgreSQL 13 or newer (`gen_random_uuid()` in core).
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import { migrate } from "gatehouse-auth/adapters/postgres"
 *
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL })
 * await migrate(pool) // at deploy or startup: idempotent, and instances take turns
 * ```
 * @module
 */
import { GATEHOUSE_TABLES, idLiteral, MIGRATIONS_TABLE, schemaState, type MigrationResult, type SchemaMigration, type SchemaState } from "./schema-migrations.js"

export type { MigrationResult, SchemaMigration, SchemaState } from "./schema-migrations.js"

/** A row as the driver returns it. */
export type PostgresRow = Record<string, unknown>

/** What a query resolves to; `pg`'s `QueryResult` fits. */
export interface PostgresQueryResult {
  /** The rows returned. */
  rows: PostgresRow[]
  /** Rows affected (or returned); `null` for commands that report none. */
  rowCount: number | null
}

/**
 * Anything that runs a parameterized query the way `pg` does: a `Pool`, a `Client`, a
 * `PoolClient`, or a driver with the same API (for example `@neondatabase/serverless`).
 */
export interface PostgresQueryable {
  /** Runs `text` with `$1`, `$2`, … bound to `values`. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>
}

/** A checked-out connection of a {@link PostgresPool}. */
export interface PostgresPoolClient extends PostgresQueryable {
  /** Returns the connection to the pool; with an error (or `true`), the pool discards it. */
  release(error?: Error | boolean): void
}

/** A connection pool: queries go to any connection, `connect()` checks one out. */
export interface PostgresPool extends PostgresQueryable {
  /** Checks out one connection, for statements that must share it (a transaction). */
  connect(): Promise<PostgresPoolClient>
}

// Any constant works as long as every Gatehouse instance uses the same one; these are the bytes
// of "gatehse". Advisory locks are per database, so migrations of different schemas also queue,
// which is harmless for a script that takes milliseconds.
const MIGRATION_LOCK_KEY = "29099075146642277"

/**
 * The whole schema as one idempotent SQL script; {@link migrate} runs it in a transaction under
 * an advisory lock. It can also be run by hand (`psql -f`), once at a time. Tables are created
 * in, and looked up through, the connection's `search_path`.
 *
 * Fresh tables get `TEXT` ids from `gen_random_uuid()`. Tables that already exist are left as
 * they are; on every database, fresh or from Auth.js, the script then adds whatever of these is
 * missing (judged by what exists, not by name):
 * - the `rate_limits` table (`key`, `count`, `reset_at`), Gatehouse's own, where `hitRateLimit`
 *   counts sign-in emails for every instance at once;
 * - the `session_versions` table (`"userId"`, `version`), Gatehouse's own, which lets
 *   `signOutEverywhere` end JWT sessions;
 * - the `session_details` table (`"sessionId"`, `created_at`, `user_agent`, `idp_provider`,
 *   `idp_sid`), Gatehouse's own: listing a user's sessions, and back-channel logout;
 * - the `session_authentication` table (`"sessionId"`, `aal`, `amr`, `second_factor_at`),
 *   Gatehouse's own: how each database session was authenticated (two-factor sign-in);
 * - the `two_factor` table (`"userId"`, `totp_secret`, `totp_pending_secret`, `totp_last_step`,
 *   `enabled_at`, `trust_version`, `codes_generation`, `updated_at`) and the
 *   `two_factor_recovery_codes` table (`"userId"`, `code_hash`, `generation`), Gatehouse's own:
 *   each user's second factors;
 * - a unique index on `sessions("sessionToken")` and on `accounts(provider, "providerAccountId")`
 *   (fails, naming the key, if an old database holds duplicates: those must be resolved by hand);
 * - an index on `users(email)` and on each `"userId"` column;
 * - `FOREIGN KEY ("userId") REFERENCES users (id) ON DELETE CASCADE` on `accounts`, `sessions`
 *   and `authenticators`, added `NOT VALID` so orphan rows an Auth.js database may hold do not
 *   block the migration (new rows are checked, deletes cascade). After removing orphans, run
 *   `ALTER TABLE accounts VALIDATE CONSTRAINT "accounts_userId_fkey"` (and so on) if you like.
 *
 * On a large existing Auth.js database, the first run builds the new indexes inside its
 * transaction, which holds writes to `sessions` and `accounts` until it finishes: run it once at
 * a quiet moment (or create those indexes `CONCURRENTLY` by hand first; the script then finds
 * them and adds nothing).
 */
export const postgresSchema = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT NOT NULL DEFAULT gen_random_uuid()::text,
  name TEXT,
  email TEXT,
  "emailVerified" TIMESTAMPTZ,
  image TEXT,
  PRIMARY KEY (id)
);

CREATE TABLE IF NOT EXISTS verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
);

-- Not in Auth.js: hitRateLimit's fixed windows, one row per key. reset_at is when the window
-- ends, in milliseconds since the epoch by the application's clock (never the server's).
CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  reset_at BIGINT NOT NULL,
  PRIMARY KEY (key)
);

-- Not in Auth.js: each user's session version (signOutEverywhere for JWT sessions). No foreign
-- key: a credentials user of a JWT app need not be stored to have one. TEXT holds any id type.
CREATE TABLE IF NOT EXISTS session_versions (
  "userId" TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY ("userId")
);

DO $gatehouse$
DECLARE
  -- New tables pointing at users take the type of users.id: TEXT on a fresh schema, INTEGER
  -- on an Auth.js one (a foreign key needs matching types).
  user_id_type TEXT := (
    SELECT format_type(atttypid, atttypmod) FROM pg_attribute
    WHERE attrelid = 'users'::regclass AND attname = 'id'
  );
  tbl TEXT;
  session_id_type TEXT;
BEGIN
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS accounts (
      id TEXT NOT NULL DEFAULT gen_random_uuid()::text,
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      provider TEXT NOT NULL,
      "providerAccountId" TEXT NOT NULL,
      refresh_token TEXT,
      access_token TEXT,
      expires_at BIGINT,
      id_token TEXT,
      scope TEXT,
      session_state TEXT,
      token_type TEXT,
      PRIMARY KEY (id)
    )$sql$, user_id_type);

  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS sessions (
      id TEXT NOT NULL DEFAULT gen_random_uuid()::text,
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      expires TIMESTAMPTZ NOT NULL,
      "sessionToken" TEXT NOT NULL,
      PRIMARY KEY (id)
    )$sql$, user_id_type);

  -- Not in @auth/pg-adapter's schema; the names follow Auth.js's other adapters. BIGINT because
  -- a WebAuthn signature counter is an unsigned 32-bit number.
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS authenticators (
      "credentialID" TEXT NOT NULL,
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      "providerAccountId" TEXT NOT NULL,
      "credentialPublicKey" TEXT NOT NULL,
      counter BIGINT NOT NULL,
      "credentialDeviceType" TEXT NOT NULL,
      "credentialBackedUp" BOOLEAN NOT NULL,
      transports TEXT,
      PRIMARY KEY ("credentialID")
    )$sql$, user_id_type);

  -- Not in Auth.js: when and where each database session started, and the identity provider's
  -- session id (back-channel logout). A table of its own rather than columns on sessions, so
  -- Auth.js's tables stay exactly its own (its adapter reads sessions with SELECT *); the id
  -- takes the type of sessions.id (TEXT fresh, INTEGER from Auth.js) and goes with its row.
  session_id_type := (
    SELECT format_type(atttypid, atttypmod) FROM pg_attribute
    WHERE attrelid = 'sessions'::regclass AND attname = 'id'
  );
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS session_details (
      "sessionId" %s NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      created_at TIMESTAMPTZ NOT NULL,
      user_agent TEXT,
      idp_provider TEXT,
      idp_sid TEXT,
      PRIMARY KEY ("sessionId")
    )$sql$, session_id_type);
  CREATE INDEX IF NOT EXISTS session_details_idp_idx ON session_details (idp_provider, idp_sid);

  -- Not in Auth.js: how each database session was authenticated (two-factor sign-in): its
  -- assurance level, its amr values space-joined, when a second factor was last checked. A table
  -- beside session_details, as in the SQLite schema, so a session without details can be raised.
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS session_authentication (
      "sessionId" %s NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      aal SMALLINT CHECK (aal IN (1, 2)),
      amr TEXT,
      second_factor_at TIMESTAMPTZ,
      PRIMARY KEY ("sessionId")
    )$sql$, session_id_type);

  -- Not in Auth.js: each user's second factors. The TOTP secrets are sealed by Gatehouse before
  -- they get here; totp_last_step refuses a used code again. codes_generation names the current
  -- set of recovery codes: a replacement bumps it and writes the new set under it, so a set a
  -- concurrent replacement wrote (invisible to this statement's delete) is void all the same.
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS two_factor (
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      totp_secret TEXT,
      totp_pending_secret TEXT,
      totp_last_step BIGINT,
      enabled_at TIMESTAMPTZ,
      trust_version INTEGER NOT NULL DEFAULT 0,
      codes_generation INTEGER NOT NULL DEFAULT 0,
      updated_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY ("userId")
    )$sql$, user_id_type);

  -- Not in Auth.js: one row per unused recovery code, by its hash only.
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS two_factor_recovery_codes (
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      code_hash TEXT NOT NULL,
      generation INTEGER NOT NULL,
      PRIMARY KEY ("userId", code_hash)
    )$sql$, user_id_type);

  FOREACH tbl IN ARRAY ARRAY['accounts', 'sessions', 'authenticators'] LOOP
    IF NOT EXISTS (
      SELECT 1 FROM pg_constraint c
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.conrelid = tbl::regclass AND c.contype = 'f' AND cardinality(c.conkey) = 1
        AND c.confrelid = 'users'::regclass AND a.attname = 'userId'
    ) THEN
      EXECUTE format(
        'ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY ("userId") REFERENCES users (id) ON DELETE CASCADE NOT VALID',
        tbl, tbl || '_userId_fkey');
    END IF;

    IF NOT EXISTS (
      SELECT 1 FROM pg_index i
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
      WHERE i.indrelid = tbl::regclass AND a.attname = 'userId'
    ) THEN
      EXECUTE format('CREATE INDEX %I ON %I ("userId")', tbl || '_userId_idx', tbl);
    END IF;
  END LOOP;

  -- A unique index (or constraint, or primary key) on exactly these columns already does the job.
  IF NOT EXISTS (
    SELECT 1 FROM pg_index i
    WHERE i.indrelid = 'sessions'::regclass AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
      AND ARRAY(
        SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
        WHERE k.n <= i.indnkeyatts ORDER BY 1
      ) = ARRAY['sessionToken']
  ) THEN
    CREATE UNIQUE INDEX "sessions_sessionToken_key" ON sessions ("sessionToken");
  END IF;

  IF NOT EXISTS (
    SELECT 1 FROM pg_index i
    WHERE i.indrelid = 'accounts'::regclass AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
      AND ARRAY(
        SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
        WHERE k.n <= i.indnkeyatts ORDER BY 1
      ) = ARRAY['provider', 'providerAccountId']
  ) THEN
    CREATE UNIQUE INDEX "accounts_provider_providerAccountId_key" ON accounts (provider, "providerAccountId");
  END IF;

  IF NOT EXISTS (
    SELECT 1 FROM pg_index i
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
    WHERE i.indrelid = 'users'::regclass AND a.attname = 'email'
  ) THEN
    CREATE INDEX users_email_idx ON users (email);
  END IF;
END
$gatehouse$;
`

/** Whether `db` is a pool we must check a connection out of, rather than one connection. */
function isPool(db: PostgresQueryable | PostgresPool): db is PostgresPool {
  // A pg `Client` has connect() too, but calling it again on a connected client throws: a Pool
  // is told apart by having neither a checked-out client's release() nor a Client's parameters.
  return typeof (db as Partial<PostgresPool>).connect === "function" &&
    typeof (db as Partial<PostgresPoolClient>).release !== "function" &&
    !("connectionParameters" in db)
}

/** The tables step 1 creates: a database holding all of them ran {@link postgresSchema} (a previous release's migrate). */
const BASELINE_TABLES = GATEHOUSE_TABLES

/**
 * Every migration, in order, each with its stable id; a new one is appended and never edits an
 * earlier one. Applied steps are recorded in the `gatehouse_migrations` table.
 *
 * Step 1 (`0001_gatehouse_schema`) is {@link postgresSchema}, the one script releases before the
 * record ran on every start. It is idempotent and judges by what exists, so it is the baseline of
 * every database: a fresh one, one made by Auth.js's `@auth/pg-adapter`, and one made by an
 * earlier Gatehouse, for which running it again adds nothing and records it.
 *
 * @example
 * ```ts
 * import { POSTGRES_MIGRATION_STEPS } from "gatehouse-auth/adapters/postgres"
 *
 * // One file per step for a tool that runs migrations itself, named by the step's stable id.
 * for (const step of POSTGRES_MIGRATION_STEPS) console.log(`${step.id}.sql: ${step.description}`)
 * ```
 */
export const POSTGRES_MIGRATION_STEPS: readonly SchemaMigration[] = [
  {
    id: "0001_gatehouse_schema",
    description: "Auth.js's tables where absent, Gatehouse's own tables, and the indexes and foreign keys they need",
    sql: postgresSchema,
  },
  // Gatehouse's own, for organizations (issue 39), as in the SQLite schema: members keyed by the
  // pair, a listing index for listMembers' keyset order and a role index for the last-owner
  // check; invitations keyed by the link token's hash; an audit log without foreign keys (its rows
  // outlive what they name). "userId" takes the type of users.id, as in step 1.
  {
    id: "0002_organizations",
    description: "organizations, organization_members, organization_invitations, audit_log, session_context, user_status (Gatehouse's own)",
    sql: `
-- session_context: a database session's active organization, impersonating admin and sign-in
-- provider, keyed and cascading like session_authentication ("sessionId" of sessions.id's type) (part B).
DO $gatehouse$
BEGIN
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS session_context (
      "sessionId" %s NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      active_organization_id TEXT,
      impersonator_id TEXT,
      sign_in_provider TEXT,
      PRIMARY KEY ("sessionId")
    )$sql$, (SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'sessions'::regclass AND attname = 'id'));
END
$gatehouse$;

CREATE TABLE IF NOT EXISTS organizations (
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  policy JSONB,
  PRIMARY KEY (id),
  CONSTRAINT organizations_slug_key UNIQUE (slug)
);

DO $gatehouse$
DECLARE
  user_id_type TEXT := (
    SELECT format_type(atttypid, atttypmod) FROM pg_attribute
    WHERE attrelid = 'users'::regclass AND attname = 'id'
  );
BEGIN
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS organization_members (
      organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (organization_id, "userId")
    )$sql$, user_id_type);
  -- The admin API's: a user's role and ban, gone with the user; its key is the one lookup a
  -- sign-in makes while the admin API is on.
  EXECUTE format($sql$
    CREATE TABLE IF NOT EXISTS user_status (
      "userId" %s NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role TEXT,
      banned_at TIMESTAMPTZ,
      ban_reason TEXT,
      ban_expires_at TIMESTAMPTZ,
      banned_by TEXT,
      PRIMARY KEY ("userId")
    )$sql$, user_id_type);
END
$gatehouse$;
CREATE INDEX IF NOT EXISTS "organization_members_userId_idx" ON organization_members ("userId");
CREATE INDEX IF NOT EXISTS organization_members_listing_idx ON organization_members (organization_id, created_at, "userId");
CREATE INDEX IF NOT EXISTS organization_members_role_idx ON organization_members (organization_id, role);

CREATE TABLE IF NOT EXISTS organization_invitations (
  id TEXT NOT NULL,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  inviter_id TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'revoked')),
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (id),
  CONSTRAINT organization_invitations_token_hash_key UNIQUE (token_hash)
);
CREATE INDEX IF NOT EXISTS organization_invitations_organization_idx ON organization_invitations (organization_id, created_at);

CREATE TABLE IF NOT EXISTS audit_log (
  id TEXT NOT NULL,
  actor_id TEXT,
  action TEXT NOT NULL,
  organization_id TEXT,
  target_type TEXT,
  target_id TEXT,
  ip TEXT,
  user_agent TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  details JSONB,
  PRIMARY KEY (id)
);
CREATE INDEX IF NOT EXISTS audit_log_organization_idx ON audit_log (organization_id, created_at, id);
CREATE INDEX IF NOT EXISTS audit_log_actor_idx ON audit_log (actor_id, created_at, id);
CREATE INDEX IF NOT EXISTS audit_log_created_idx ON audit_log (created_at, id);
`,
  },
]

const RECORD_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  id TEXT NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (id)
);`
const LOCK = `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});`
const record = (id: string): string => `INSERT INTO ${MIGRATIONS_TABLE} (id) VALUES (${idLiteral(id)}) ON CONFLICT (id) DO NOTHING;`


/**
 * Which migrations a PostgreSQL database has applied and which it lacks, changing nothing. Steps
 * are read from `gatehouse_migrations` (looked up through the connection's `search_path`); a
 * database migrated by a release before that table has none, and counts step 1 as applied
 * (`unrecorded`) when every table it creates exists. A database Auth.js made counts nothing.
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import { readPostgresSchema } from "gatehouse-auth/adapters/postgres"
 *
 * const { missing } = await readPostgresSchema(new Pool({ connectionString: process.env.DATABASE_URL }))
 * if (missing.length > 0) console.log("run: npx gatehouse-auth migrate apply")
 * ```
 */
export async function readPostgresSchema(db: PostgresQueryable): Promise<SchemaState> {
  const { rows } = await db.query(
    `SELECT to_regclass($1) IS NOT NULL AS recorded,
            (SELECT count(*) FROM unnest($2::text[]) AS t(name) WHERE to_regclass(t.name) IS NOT NULL)::int AS baseline`,
    [MIGRATIONS_TABLE, BASELINE_TABLES],
  )
  const found = rows[0] ?? {}
  const recorded = found.recorded === true
    ? new Set((await db.query(`SELECT id FROM ${MIGRATIONS_TABLE}`)).rows.map((row) => String(row.id)))
    : new Set<string>()
  const unrecorded = new Set(Number(found.baseline) === BASELINE_TABLES.length ? [POSTGRES_MIGRATION_STEPS[0]!.id] : [])
  return schemaState(POSTGRES_MIGRATION_STEPS, recorded, unrecorded)
}

/**
 * Applies the migrations the database lacks (see {@link POSTGRES_MIGRATION_STEPS} and
 * {@link postgresSchema}), each step in its own transaction holding a transaction-level advisory
 * lock, and records each in `gatehouse_migrations`. Idempotent, and safe when several app
 * instances (or `npx gatehouse-auth migrate apply`) run it at once: they take turns, each step
 * re-reads the record under the lock, and a failed step changes nothing. An up-to-date database
 * is only read, without the lock. Resolves to what it did.
 *
 * Given a pool, it checks out one connection (a transaction must stay on one); given a `Client`
 * or `PoolClient`, it uses it directly, which must then not be inside a transaction already.
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import { migrate } from "gatehouse-auth/adapters/postgres"
 *
 * await migrate(new Pool({ connectionString: process.env.DATABASE_URL }))
 * ```
 */
export async function migrate(db: PostgresQueryable | PostgresPool): Promise<MigrationResult> {
  const result: MigrationResult = { applied: [], recorded: [] }
  const client = isPool(db) ? await db.connect() : db
  let failure: unknown
  try {
    const first = await readPostgresSchema(client)
    if (first.missing.length === 0 && first.unrecorded.length === 0) return result
    for (;;) {
      await client.query("BEGIN")
      let next: SchemaMigration | undefined
      let unrecorded = false
      try {
        await client.query(LOCK)
        await client.query(RECORD_TABLE)
        const state = await readPostgresSchema(client)
        next = POSTGRES_MIGRATION_STEPS.find((step) => state.missing.includes(step.id) || state.unrecorded.includes(step.id))
        if (next) {
          unrecorded = state.unrecorded.includes(next.id)
          await client.query(next.sql)
          await client.query(record(next.id))
        }
        await client.query("COMMIT")
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {})
        throw error
      }
      if (!next) return result
      ;(unrecorded ? result.recorded : result.applied).push(next.id)
    }
  } catch (error) {
    failure = error
    throw error
  } finally {
    // A connection that failed mid-migration may be broken: the pool discards it instead of reusing it.
    if (client !== db) (client as PostgresPoolClient).release(failure instanceof Error ? failure : undefined)
  }
}

/**
 * The SQL {@link migrate} would run, as one script for review or for another tool (Drizzle Kit,
 * Prisma Migrate, Flyway, `psql -f`): the steps of `state.missing` and `state.unrecorded` (every
 * step without a state), each in its own transaction under the same advisory lock as
 * {@link migrate}, with its record. Running it leaves the database as `migrate apply` would.
 *
 * @example
 * ```ts
 * import { postgresMigrationSql, readPostgresSchema } from "gatehouse-auth/adapters/postgres"
 *
 * console.log(postgresMigrationSql(await readPostgresSchema(pool)))
 * ```
 */
export function postgresMigrationSql(state?: SchemaState): string {
  const wanted = state ? [...state.unrecorded, ...state.missing] : POSTGRES_MIGRATION_STEPS.map((step) => step.id)
  const parts = [`-- Gatehouse schema migrations for PostgreSQL. Each step runs in its own transaction under the\n-- advisory lock migrate() takes, and is recorded in ${MIGRATIONS_TABLE}.\n`]
  for (const step of POSTGRES_MIGRATION_STEPS) {
    if (!wanted.includes(step.id)) continue
    const note = state?.unrecorded.includes(step.id) ? " (applied by an earlier release; run again, it adds nothing, and recorded)" : ""
    parts.push(`-- ${step.id}: ${step.description}${note}\nBEGIN;\n${LOCK}\n${RECORD_TABLE}\n${step.sql.trim()}\n${record(step.id)}\nCOMMIT;\n`)
  }
  return parts.join("\n")
}

/**
 * Converts a database whose `sessions` hold raw tokens (written by Auth.js, or by Gatehouse with
 * `session.hashTokens: false`) to hashed ones: each `"sessionToken"` becomes `sha256:` and the hex
 * SHA-256 of the token, which is what Gatehouse looks up by default. One statement, so it is
 * atomic; rows already hashed are left alone, so running it again is harmless and converts only
 * rows written since. Returns how many rows it converted.
 *
 * Gatehouse also finds rows stored raw (it tries the hash, then the token), so nobody is signed out
 * before this runs; run it once the last instance still storing raw tokens has stopped, so a
 * leaked copy of the table no longer holds their tokens.
 *
 * @example
 * ```ts
 * import { hashSessionTokens, migrate } from "gatehouse-auth/adapters/postgres"
 *
 * await migrate(pool)
 * console.log(`${await hashSessionTokens(pool)} sessions converted`)
 * ```
 */
export async function hashSessionTokens(db: PostgresQueryable): Promise<number> {
  // sha256() is in core since PostgreSQL 11; the prefix is HASHED_TOKEN_PREFIX.
  const result = await db.query(
    `UPDATE sessions SET "sessionToken" = 'sha256:' || encode(sha256(convert_to("sessionToken", 'UTF8')), 'hex')
     WHERE "sessionToken" NOT LIKE 'sha256:%'`,
  )
  return result.rowCount ?? 0
}
