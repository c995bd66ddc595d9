/**
 * The SQLite schema of `gatehouse-auth/adapters/sqlite` and its migrations.
 *
 * Table and column names are those of Auth.js's PostgreSQL adapter, which the PostgreSQL adapter
 * here shares, so the two stores look alike; `rate_limits` (for `hitRateLimit`), `session_versions`, `session_details`, `session_authentication`, `two_factor` and `two_factor_recovery_codes` are Gatehouse's own. Dates are stored as integer milliseconds since the
 * epoch (SQLite has no date type and integers compare and index exactly; ISO text written by other
 * tools is read too), booleans as 0/1, and `accounts.expires_at` stays in seconds as the OAuth
 * token response has it.
 *
 * @module
 */

/**
 * Every migration, in order. `PRAGMA user_version` records how many have run, so a new migration is
 * appended here and never edits an earlier one. Each is written to be re-runnable (`IF NOT EXISTS`)
 * because a database may already hold these tables from a copy of the schema run by hand.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `
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
  // 2: Gatehouse's own table, not in Auth.js: hitRateLimit's fixed windows, one row per key.
  // reset_at is when the window ends, in milliseconds since the epoch like the other dates.
  `
CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
);
`,
  // 3: Gatehouse's own: each user's session version, which lets signOutEverywhere end JWT
  // sessions. No foreign key: a credentials user of a JWT app need not be stored to have one.
  `
CREATE TABLE IF NOT EXISTS session_versions (
  "userId" TEXT PRIMARY KEY,
  version INTEGER NOT NULL
);
`,
  // 4: Gatehouse's own: when and where each database session started (listing a user's sessions),
  // and the identity provider's session id (back-channel logout). A table of its own rather than
  // columns on sessions, so Auth.js's tables stay exactly its own; it goes with its row (cascade).
  `
CREATE TABLE IF NOT EXISTS session_details (
  "sessionId" TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  user_agent TEXT,
  idp_provider TEXT,
  idp_sid TEXT
);
CREATE INDEX IF NOT EXISTS session_details_idp_idx ON session_details (idp_provider, idp_sid);
`,
  // 5: Gatehouse's own, for two-factor sign-in. two_factor: each user's TOTP secret (sealed by the
  // core), the one being enrolled, the last time step used (replay), when it was enabled and the
  // version that voids trusted devices. two_factor_recovery_codes: one row per unused code's hash.
  // session_authentication: how each database session was authenticated (aal, space-joined amr,
  // when a second factor was last checked), a table rather than columns on session_details
  // because SQLite's ADD COLUMN cannot be made re-runnable (IF NOT EXISTS) like the migrations are.
  `
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
]

/** The `PRAGMA user_version` of a fully migrated database. */
export const SQLITE_SCHEMA_VERSION: number = SQLITE_MIGRATIONS.length

/** The whole current schema as one script, for creating the tables with other tooling. */
export const SQLITE_SCHEMA: string = SQLITE_MIGRATIONS.join("\n")
