/**
 * `gatehouse-auth/adapters/sqlite`: the embedded default adapter, storing users, accounts, sessions,
 * verification tokens, authenticators and rate-limit counts in one SQLite file.
 *
 * Works with `better-sqlite3` and with Node's built-in `node:sqlite` (`DatabaseSync`); it imports
 * neither, and only uses the few methods both share.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3"
 * import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
 *
 * const config = { adapter: SQLiteAdapter(new Database("auth.db")), providers: [] }
 * ```
 * @module gatehouse-auth/adapters/sqlite
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterMemberListing,
  AdapterSession,
  AdapterSessionAuthentication,
  AdapterSessionDetails,
  AdapterTwoFactor,
  AdapterUser,
  JsonValue,
  NewAdapterUser,
  OrganizationStore,
  StoredAdapter,
  UserStatusStore,
  VerificationToken,
} from "./index.js"
import { HASHED_TOKEN_PREFIX, hashedSessionToken } from "./hashed-session-token.js"
import { immediateTransaction, migrateSQLite, readSQLiteSchema, type SQLiteDatabase, type SQLiteStatement } from "./sqlite-schema.js"
import { checkLimit, likePrefix, organizationRowReaders, OWNER_ROLE } from "./organization-fields.js"
import { markSchemaSource } from "./schema-source.js"
import { checkSessionContextPatch, SESSION_CONTEXT_FIELDS, sessionContextFromRow } from "./session-context-fields.js"
import {
  amrText,
  authenticationFromRow,
  checkAuthentication,
  checkHashes,
  checkText,
  checkTotpStep,
  recordsAuthentication,
  twoFactorFromRow,
} from "./two-factor-fields.js"

export {
  migrateSQLite,
  readSQLiteSchema,
  sqliteMigrationSql,
  SQLITE_MIGRATION_STEPS,
  SQLITE_MIGRATIONS,
  SQLITE_SCHEMA,
  SQLITE_SCHEMA_VERSION,
} from "./sqlite-schema.js"
export type { MigrationResult, SchemaMigration, SchemaState, SQLiteDatabase, SQLiteStatement } from "./sqlite-schema.js"

/** A value both better-sqlite3 and `node:sqlite` bind to a positional `?` parameter. */
export type SQLiteValue = string | number | bigint | null

/** What `createUser` takes: a user whose `id` may be left out. */
export type NewSQLiteUser = NewAdapterUser

/** The adapter `SQLiteAdapter` returns (every method, async). */
export type SQLiteAdapterMethods = StoredAdapter & OrganizationStore & UserStatusStore & Required<Pick<Adapter, "missingMigrations">>

type Row = Record<string, unknown>

/** better-sqlite3's default, used when the connection has none. */
const DEFAULT_BUSY_TIMEOUT_MS = 5000

/** Rate-limit rows whose window ended are deleted on one `hitRateLimit` call in this many. */
const RATE_LIMIT_PRUNE_EVERY = 100
/**
 * How long after its window ended a rate-limit row is pruned. Expired rows already count as
 * absent, so this only matters to processes whose clocks disagree: a slightly fast clock must not
 * delete a window another process still counts in.
 */
const RATE_LIMIT_PRUNE_AFTER_MS = 60_000

const USER_COLUMNS = `id, name, email, "emailVerified", image`
const SESSION_COLUMNS = `"sessionToken", "userId", expires`
const TOKEN_COLUMNS = `identifier, token, expires`
const TWO_FACTOR_COLUMNS = `"userId", totp_secret, totp_pending_secret, totp_last_step, enabled_at, trust_version`
const NAME = "SQLiteAdapter"
const ORGANIZATION_COLUMNS = `id, name, slug, created_at, policy`
const MEMBER_COLUMNS = `organization_id, "userId", role, created_at`
const INVITATION_COLUMNS = `id, organization_id, email, role, inviter_id, token_hash, expires_at, status, created_at`
const AUDIT_COLUMNS = `id, actor_id, action, organization_id, target_type, target_id, ip, user_agent, created_at, details`
const USER_STATUS_COLUMNS = `"userId", role, banned_at, ban_reason, ban_expires_at, banned_by`
const AUTHENTICATOR_COLUMNS = `"credentialID", "userId", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`

/** The token-response fields that have a column; any other account field is not stored. */
const ACCOUNT_TOKEN_FIELDS = [
  "refresh_token",
  "access_token",
  "expires_at",
  "id_token",
  "scope",
  "session_state",
  "token_type",
] as const
const ACCOUNT_COLUMNS = `"userId", type, provider, "providerAccountId", ${ACCOUNT_TOKEN_FIELDS.join(", ")}`

/** A window length in whole milliseconds; NaN or a non-positive length would throttle wrongly. */
function windowMilliseconds(windowSeconds: number): number {
  if (typeof windowSeconds !== "number" || !Number.isFinite(windowSeconds) || windowSeconds <= 0) {
    throw new RangeError(`SQLiteAdapter: windowSeconds must be a positive number, got ${String(windowSeconds)}`)
  }
  return Math.ceil(windowSeconds * 1000)
}

/** Converts a JavaScript value to one both drivers bind, naming the field when it cannot. */
function bind(value: unknown, field: string): SQLiteValue {
  if (value === undefined || value === null) return null
  if (typeof value === "boolean") return value ? 1 : 0
  if (value instanceof Date) return milliseconds(value, field)
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") return value
  throw new TypeError(`SQLiteAdapter: cannot store a value of type ${typeof value} in "${field}"`)
}

/**
 * A date as integer milliseconds. Strings and numbers are accepted too because a date that went
 * through JSON (a session callback, a cache) arrives as one, and storing it as text would make it
 * unreadable later.
 */
function milliseconds(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null
  const date = value instanceof Date ? value : typeof value === "string" || typeof value === "number" ? new Date(value) : null
  const time = date?.getTime()
  if (time === undefined || Number.isNaN(time)) throw new RangeError(`SQLiteAdapter: "${field}" is not a valid date`)
  return time
}

// Integers come back as bigint when the caller turned on better-sqlite3's safeIntegers or
// node:sqlite's readBigInts, so every numeric read goes through Number(). Text dates (ISO
// strings, as other SQLite layouts such as Auth.js's D1 adapter write them) are read too.
const toDate = (value: unknown): Date =>
  typeof value === "string" && !/^-?\d+$/.test(value) ? new Date(value) : new Date(Number(value))
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))

const { toOrganization, toMember, toInvitation, toAuditEntry, toUserStatus } = organizationRowReaders({ date: toDate, json: (value) => (value === null || value === undefined ? null : (JSON.parse(String(value)) as JsonValue)) })

/** A date that must be given, as integer milliseconds. */
function requiredMilliseconds(value: unknown, field: string): number {
  const time = milliseconds(value, field)
  if (time === null) throw new TypeError(`SQLiteAdapter: "${field}" must be a date`)
  return time
}

/** JSON text for a JSON column, `null` kept as SQL NULL. */
function jsonText(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value)
}

function toUser(row: Row): AdapterUser {
  return {
    id: String(row.id),
    name: textOrNull(row.name),
    // The contract types email as a string, but a user from a provider that shares no email
    // address is stored without one; such a row reads back as null.
    email: textOrNull(row.email) as string,
    emailVerified: row.emailVerified === null || row.emailVerified === undefined ? null : toDate(row.emailVerified),
    image: textOrNull(row.image),
  }
}

/**
 * Token fields whose column is NULL are left out rather than set to `null`: their type is
 * `string | undefined`, and leaving them out gives back what was linked.
 */
function toAccount(row: Row): AdapterAccount {
  const account: Record<string, unknown> = {
    userId: String(row.userId),
    type: String(row.type),
    provider: String(row.provider),
    providerAccountId: String(row.providerAccountId),
  }
  for (const field of ACCOUNT_TOKEN_FIELDS) {
    const value = row[field]
    if (value === null || value === undefined) continue
    account[field] = field === "expires_at" ? Number(value) : String(value)
  }
  return account as AdapterAccount
}

function toSessionDetails(row: Row): AdapterSessionDetails | null {
  if (row.detailed === null || row.detailed === undefined) return null
  return {
    createdAt: toDate(row.created_at),
    userAgent: textOrNull(row.user_agent),
    idpProvider: textOrNull(row.idp_provider),
    idpSid: textOrNull(row.idp_sid),
    ...(authenticationFromRow(row, toDate) ?? { aal: null, amr: null, secondFactorAt: null }),
  }
}

function toSession(row: Row, id: unknown = row.id): AdapterSession {
  const session: AdapterSession = { sessionToken: String(row.sessionToken), userId: String(row.userId), expires: toDate(row.expires) }
  return id === null || id === undefined ? session : { id: String(id), ...session }
}

function toVerificationToken(row: Row): VerificationToken {
  return { identifier: String(row.identifier), token: String(row.token), expires: toDate(row.expires) }
}

function toAuthenticator(row: Row): AdapterAuthenticator {
  return {
    credentialID: String(row.credentialID),
    userId: String(row.userId),
    providerAccountId: String(row.providerAccountId),
    credentialPublicKey: String(row.credentialPublicKey),
    counter: Number(row.counter),
    credentialDeviceType: String(row.credentialDeviceType),
    credentialBackedUp: Number(row.credentialBackedUp) !== 0,
    transports: textOrNull(row.transports),
  }
}

/**
 * The SET list of a partial update: a field left `undefined` keeps its stored value, while `null`
 * clears it. Columns keep the order given, so each combination is one cached statement.
 */
function assignments(fields: [column: string, given: unknown, value: SQLiteValue][]): { sets: string; params: SQLiteValue[] } {
  const present = fields.filter(([, given]) => given !== undefined)
  return { sets: present.map(([column]) => `${column} = ?`).join(", "), params: present.map(([, , value]) => value) }
}

/** Whether an error from either driver is SQLITE_BUSY (better-sqlite3 sets `code`, node:sqlite `errcode`). */
function isBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown }
  return (typeof code === "string" && code.startsWith("SQLITE_BUSY")) || (typeof errcode === "number" && (errcode & 0xff) === 5)
}

/**
 * Turns on WAL, retrying SQLITE_BUSY for up to `timeoutMs`. Switching a rollback-journal file (a
 * new file is one) to WAL rewrites its header: SQLite reads it under a shared lock, then upgrades
 * to a write lock. When another connection is switching the same file at that moment, the upgrade
 * fails with SQLITE_BUSY at once, without calling the busy handler (waiting there could deadlock;
 * see sqlite3_busy_handler), so processes opening a new file together can get "database is
 * locked" despite the busy timeout. On retry the other connection has usually switched the file
 * already and this is a no-op; otherwise its lock now makes SQLite wait through the busy handler.
 */
function enableWal(db: SQLiteDatabase, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs
  for (let attempt = 1; ; attempt++) {
    try {
      db.exec("PRAGMA journal_mode = WAL")
      return
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error
      // The adapter is built synchronously, so wait synchronously, briefly and increasingly.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(5 * attempt, 50))
    }
  }
}

/** Whether an error from either driver is SQLITE_READONLY (a read-only file or connection). */
function isReadOnly(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown }
  return (typeof code === "string" && code.startsWith("SQLITE_READONLY")) || (typeof errcode === "number" && (errcode & 0xff) === 8)
}

/**
 * Converts a database whose `sessions` hold raw tokens (written by Gatehouse with
 * `session.hashTokens: false`, or copied from an Auth.js database) to hashed ones: each
 * `"sessionToken"` becomes `sha256:` and the hex SHA-256 of the token, which is what Gatehouse
 * looks up by default. One transaction; rows already hashed are left alone, so running it again
 * is harmless. Resolves to how many rows it converted. Run it before the app with hashing on serves.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3"
 * import { hashSessionTokens } from "gatehouse-auth/adapters/sqlite"
 *
 * await hashSessionTokens(new Database("auth.db"))
 * ```
 */
export async function hashSessionTokens(db: SQLiteDatabase): Promise<number> {
  const raw = db.prepare(`SELECT "sessionToken" AS token FROM sessions WHERE substr("sessionToken", 1, 7) <> ?`).all(HASHED_TOKEN_PREFIX) as { token: string }[]
  // Hashed before the transaction (Web Crypto is asynchronous); a row deleted meanwhile is simply not found.
  const hashed = await Promise.all(raw.map(async ({ token }) => [await hashedSessionToken(token), token] as const))
  const update = db.prepare(`UPDATE sessions SET "sessionToken" = ? WHERE "sessionToken" = ?`)
  immediateTransaction(db, () => {
    for (const [hash, token] of hashed) update.run(hash, token)
  })
  return hashed.length
}

/**
 * Creates the SQLite adapter over an open connection, turning on foreign keys (which cascade user
 * deletion) and WAL journaling, setting a 5 s busy timeout when the connection has none, and
 * creating or migrating the tables ({@link migrateSQLite}, each step recorded in `gatehouse_migrations`).
 * A database it cannot write (a read-only file or connection) is served as it is: the adapter
 * does not throw, and its `missingMigrations` names the steps it lacks, which Gatehouse logs on the
 * first request, once per process, as the warning `schema-outdated` (naming `npx gatehouse-auth migrate apply`).
 *
 * Dates are stored as integer milliseconds, booleans as 0/1. Account fields without a column
 * (anything but the standard token-response fields) are dropped on `linkAccount` and
 * `updateAccount`, as Auth.js's SQL adapters do. Token fields stored as NULL come back omitted;
 * `name`, `image` and `transports` come back as `null`.
 *
 * @param db A better-sqlite3 `Database` or a `node:sqlite` `DatabaseSync`, used from here on by the adapter only.
 * @example
 * ```ts
 * import Database from "better-sqlite3"
 * import { Auth } from "gatehouse-auth"
 * import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
 *
 * const db = new Database("auth.db")
 * const config = { adapter: SQLiteAdapter(db), session: { strategy: "database" as const }, providers: [] }
 * const response = await Auth(request, config)
 * ```
 */
export function SQLiteAdapter(db: SQLiteDatabase): SQLiteAdapterMethods {
  // Foreign keys are off by default and per connection; without them deleteUser would leave orphans.
  db.exec("PRAGMA foreign_keys = ON")
  // Another connection writing (a second process, a worker) makes a write fail at once with
  // SQLITE_BUSY unless the connection waits. better-sqlite3 waits 5 s by default, node:sqlite not
  // at all; give the latter the same default but keep any timeout the caller chose. Set before
  // the journal mode and the migration, which both may have to wait for another connection.
  const busy = db.prepare("PRAGMA busy_timeout").get() as Row | undefined
  const chosen = Number(busy?.timeout ?? 0)
  const timeout = chosen || DEFAULT_BUSY_TIMEOUT_MS
  if (chosen === 0) db.exec(`PRAGMA busy_timeout = ${timeout}`)
  // WAL lets readers proceed while a write is under way; :memory: databases keep "memory" silently.
  // A database that cannot be written (a read-only file or connection) still serves what it can
  // read: the journal mode and the migrations are skipped, and missingMigrations names what is
  // missing, which the core logs once (schema-outdated) instead of refusing every request.
  try {
    enableWal(db, timeout)
  } catch (error) {
    if (!isReadOnly(error)) throw error
  }
  try {
    migrateSQLite(db)
  } catch (error) {
    if (!isReadOnly(error)) throw error
  }

  const statements = new Map<string, SQLiteStatement>()
  // Dynamic SQL (partial updates) is built in a fixed column order, so the cache stays small.
  const statement = (sql: string): SQLiteStatement => {
    let prepared = statements.get(sql)
    if (!prepared) {
      prepared = db.prepare(sql)
      statements.set(sql, prepared)
    }
    return prepared
  }
  const one = (sql: string, ...params: SQLiteValue[]): Row | undefined => statement(sql).get(...params) as Row | undefined
  const many = (sql: string, ...params: SQLiteValue[]): Row[] => statement(sql).all(...params) as Row[]

  let rateLimitCalls = 0

  /**
   * Runs `work` (synchronous statements only) in one write transaction: other connections and
   * processes see all of it or none, and wait for it rather than interleave.
   */
  const transaction = <T>(work: () => T): T => immediateTransaction(db, work)

  /** Replaces the user's recovery codes; inside a transaction. */
  const storeRecoveryCodes = (userId: SQLiteValue, hashes: string[]): void => {
    statement(`DELETE FROM two_factor_recovery_codes WHERE "userId" = ?`).run(userId)
    const insert = statement(`INSERT INTO two_factor_recovery_codes ("userId", code_hash) VALUES (?, ?)`)
    for (const hash of hashes) insert.run(userId, hash)
  }

  const getUser = async (id: string): Promise<AdapterUser | null> => {
    const row = one(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, id)
    return row ? toUser(row) : null
  }

  return markSchemaSource({
    missingMigrations: async () => readSQLiteSchema(db).missing,

    createUser: async (user) => {
      const id = typeof user.id === "string" && user.id !== "" ? user.id : globalThis.crypto.randomUUID()
      const row = one(
        `INSERT INTO users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, ?) RETURNING ${USER_COLUMNS}`,
        id,
        bind(user.name, "name"),
        bind(user.email, "email"),
        milliseconds(user.emailVerified, "emailVerified"),
        bind(user.image, "image"),
      )
      return toUser(row!)
    },

    getUser,

    getUserByEmail: async (email) => {
      // Several rows can share an email (Auth.js's layout has no unique constraint); the oldest wins.
      const row = one(`SELECT ${USER_COLUMNS} FROM users WHERE email = ? ORDER BY rowid LIMIT 1`, email)
      return row ? toUser(row) : null
    },

    getUserByAccount: async ({ provider, providerAccountId }) => {
      const row = one(
        `SELECT u.id, u.name, u.email, u."emailVerified", u.image FROM accounts a JOIN users u ON u.id = a."userId"
         WHERE a.provider = ? AND a."providerAccountId" = ?`,
        provider,
        providerAccountId,
      )
      return row ? toUser(row) : null
    },

    updateUser: async (user) => {
      const { sets, params } = assignments([
        ["name", user.name, bind(user.name, "name")],
        ["email", user.email, bind(user.email, "email")],
        [`"emailVerified"`, user.emailVerified, milliseconds(user.emailVerified, "emailVerified")],
        ["image", user.image, bind(user.image, "image")],
      ])
      const row =
        sets === ""
          ? one(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, user.id)
          : one(`UPDATE users SET ${sets} WHERE id = ? RETURNING ${USER_COLUMNS}`, ...params, user.id)
      if (!row) throw new Error(`SQLiteAdapter.updateUser: no user with id ${JSON.stringify(user.id)}`)
      return toUser(row)
    },

    deleteUser: async (userId) => {
      const row = one(`DELETE FROM users WHERE id = ? RETURNING ${USER_COLUMNS}`, userId)
      return row ? toUser(row) : null
    },

    linkAccount: async (account) => {
      const row = one(
        `INSERT INTO accounts (id, ${ACCOUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ${ACCOUNT_TOKEN_FIELDS.map(() => "?").join(", ")})
         RETURNING ${ACCOUNT_COLUMNS}`,
        globalThis.crypto.randomUUID(),
        bind(account.userId, "userId"),
        bind(account.type, "type"),
        bind(account.provider, "provider"),
        bind(account.providerAccountId, "providerAccountId"),
        ...ACCOUNT_TOKEN_FIELDS.map((field) => bind(account[field], field)),
      )
      return toAccount(row!)
    },

    unlinkAccount: async ({ provider, providerAccountId }) => {
      const row = one(
        `DELETE FROM accounts WHERE provider = ? AND "providerAccountId" = ? RETURNING ${ACCOUNT_COLUMNS}`,
        provider,
        providerAccountId,
      )
      return row ? toAccount(row) : undefined
    },

    getAccount: async (providerAccountId, provider) => {
      const row = one(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider = ? AND "providerAccountId" = ?`,
        provider,
        providerAccountId,
      )
      return row ? toAccount(row) : null
    },

    listAccountsByUserId: async (userId) =>
      many(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE "userId" = ? ORDER BY rowid`, userId).map(toAccount),

    // Only the token columns can change: userId, type, provider and providerAccountId are never
    // written, and fields without a column are dropped as in linkAccount.
    updateAccount: async (account) => {
      const { sets, params } = assignments(
        ACCOUNT_TOKEN_FIELDS.map((field): [string, unknown, SQLiteValue] => [field, account[field], bind(account[field], field)]),
      )
      const row =
        sets === ""
          ? one(
              `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider = ? AND "providerAccountId" = ?`,
              account.provider,
              account.providerAccountId,
            )
          : one(
              `UPDATE accounts SET ${sets} WHERE provider = ? AND "providerAccountId" = ? RETURNING ${ACCOUNT_COLUMNS}`,
              ...params,
              account.provider,
              account.providerAccountId,
            )
      return row ? toAccount(row) : null
    },

    createSession: async (session) => {
      const row = one(
        `INSERT INTO sessions (id, ${SESSION_COLUMNS}) VALUES (?, ?, ?, ?) RETURNING id, ${SESSION_COLUMNS}`,
        globalThis.crypto.randomUUID(),
        bind(session.sessionToken, "sessionToken"),
        bind(session.userId, "userId"),
        milliseconds(session.expires, "expires"),
      )
      return toSession(row!)
    },

    getSessionAndUser: async (sessionToken) => {
      // One round trip: the session and its user can't be read from two different states of the database.
      const row = one(
        `SELECT s.id AS "sessionId", s."sessionToken", s."userId", s.expires, u.id, u.name, u.email, u."emailVerified", u.image,
                a."sessionId" AS authenticated, a.aal, a.amr, a.second_factor_at,
                c."sessionId" AS ctx_found, c.active_organization_id AS ctx_org, c.impersonator_id AS ctx_imp, c.sign_in_provider AS ctx_prv
         FROM sessions s JOIN users u ON u.id = s."userId" LEFT JOIN session_authentication a ON a."sessionId" = s.id
           LEFT JOIN session_context c ON c."sessionId" = s.id
         WHERE s."sessionToken" = ?`,
        sessionToken,
      )
      return row
        ? { session: { ...toSession(row, row.sessionId), authentication: authenticationFromRow(row, toDate), context: sessionContextFromRow(row) }, user: toUser(row) }
        : null
    },

    updateSession: async (session) => {
      const { sets, params } = assignments([
        [`"userId"`, session.userId, bind(session.userId, "userId")],
        ["expires", session.expires, milliseconds(session.expires, "expires")],
      ])
      const row =
        sets === ""
          ? one(`SELECT id, ${SESSION_COLUMNS} FROM sessions WHERE "sessionToken" = ?`, session.sessionToken)
          : one(
              `UPDATE sessions SET ${sets} WHERE "sessionToken" = ? RETURNING id, ${SESSION_COLUMNS}`,
              ...params,
              session.sessionToken,
            )
      return row ? toSession(row) : null
    },

    deleteSession: async (sessionToken) => {
      const row = one(`DELETE FROM sessions WHERE "sessionToken" = ? RETURNING id, ${SESSION_COLUMNS}`, sessionToken)
      return row ? toSession(row) : null
    },

    deleteSessionsByUserId: async (userId) => {
      statement(`DELETE FROM sessions WHERE "userId" = ?`).run(bind(userId, "userId"))
    },

    createSessionDetails: async (sessionToken, details) => {
      const authentication = checkAuthentication(details, NAME)
      const createdAt = milliseconds(details.createdAt, "createdAt")
      transaction(() => {
        const stored = one(
        `INSERT INTO session_details ("sessionId", created_at, user_agent, idp_provider, idp_sid)
         SELECT id, ?, ?, ?, ? FROM sessions WHERE "sessionToken" = ?
         ON CONFLICT ("sessionId") DO UPDATE SET created_at = excluded.created_at, user_agent = excluded.user_agent,
           idp_provider = excluded.idp_provider, idp_sid = excluded.idp_sid
         RETURNING "sessionId"`,
          createdAt,
          details.userAgent,
          details.idpProvider,
          details.idpSid,
          sessionToken,
        )
        if (!stored) throw new Error("SQLiteAdapter: no session to store details for")
        // Details replace what was there, authentication included.
        if (recordsAuthentication(details)) writeAuthentication(sessionToken, authentication)
        else statement(`DELETE FROM session_authentication WHERE "sessionId" = ?`).run(stored.sessionId as SQLiteValue)
      })
    },

    updateSessionAuthentication: async (sessionToken, authentication) =>
      writeAuthentication(sessionToken, checkAuthentication(authentication, NAME)),

    // One statement: the row is found by its token and upserted, only the fields named changing.
    setSessionContext: async (sessionToken, patch) => {
      const checked = checkSessionContextPatch(patch, NAME)
      const named = SESSION_CONTEXT_FIELDS.map((field) => field in checked)
      const value = (field: (typeof SESSION_CONTEXT_FIELDS)[number]) => (checked[field] === undefined ? null : checked[field])
      const stored = one(
        `INSERT INTO session_context ("sessionId", active_organization_id, impersonator_id, sign_in_provider)
         SELECT id, ?, ?, ? FROM sessions WHERE "sessionToken" = ?
         ON CONFLICT ("sessionId") DO UPDATE SET
           active_organization_id = CASE WHEN ? THEN excluded.active_organization_id ELSE session_context.active_organization_id END,
           impersonator_id = CASE WHEN ? THEN excluded.impersonator_id ELSE session_context.impersonator_id END,
           sign_in_provider = CASE WHEN ? THEN excluded.sign_in_provider ELSE session_context.sign_in_provider END
         RETURNING "sessionId"`,
        value("activeOrganizationId"),
        value("impersonatorId"),
        value("signInProvider"),
        bind(sessionToken, "sessionToken"),
        ...named.map((isNamed) => (isNamed ? 1 : 0)),
      )
      return stored !== undefined
    },

    listSessionsByUserId: async (userId) =>
      many(
        `SELECT s.id, s."sessionToken", s."userId", s.expires, d.created_at, d.user_agent, d.idp_provider, d.idp_sid, d."sessionId" AS detailed,
                a."sessionId" AS authenticated, a.aal, a.amr, a.second_factor_at
         FROM sessions s LEFT JOIN session_details d ON d."sessionId" = s.id LEFT JOIN session_authentication a ON a."sessionId" = s.id
         WHERE s."userId" = ?`,
        bind(userId, "userId"),
      ).map((row) => ({ ...toSession(row), id: String(row.id), details: toSessionDetails(row) })),

    deleteSessionsByIdpSid: async (provider, sid) =>
      many(
        `DELETE FROM sessions WHERE id IN (SELECT "sessionId" FROM session_details WHERE idp_provider = ? AND idp_sid = ?) RETURNING "userId"`,
        provider,
        sid,
      ).map((row) => String(row.userId)),

    getSessionVersion: async (userId) =>
      Number(one(`SELECT version FROM session_versions WHERE "userId" = ?`, bind(userId, "userId"))?.version ?? 0),

    // One statement, so concurrent calls (other connections too) each get their own number.
    incrementSessionVersion: async (userId) =>
      Number(
        one(
          `INSERT INTO session_versions ("userId", version) VALUES (?, 1)
           ON CONFLICT ("userId") DO UPDATE SET version = session_versions.version + 1
           RETURNING version`,
          bind(userId, "userId"),
        )!.version,
      ),

    createVerificationToken: async (verificationToken) => {
      const row = one(
        `INSERT INTO verification_token (${TOKEN_COLUMNS}) VALUES (?, ?, ?) RETURNING ${TOKEN_COLUMNS}`,
        bind(verificationToken.identifier, "identifier"),
        bind(verificationToken.token, "token"),
        milliseconds(verificationToken.expires, "expires"),
      )
      return toVerificationToken(row!)
    },

    // One statement, so atomic also across connections and processes. The CASEs read the row as it
    // was before this update; `now` is the application's clock, never SQLite's.
    hitRateLimit: async (key, windowSeconds) => {
      const windowMs = windowMilliseconds(windowSeconds)
      const now = Date.now()
      const row = one(
        `INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.reset_at <= ? THEN 1 ELSE rate_limits.count + 1 END,
           reset_at = CASE WHEN rate_limits.reset_at <= ? THEN excluded.reset_at ELSE rate_limits.reset_at END
         RETURNING count`,
        bind(key, "key"),
        now + windowMs,
        now,
        now,
      )
      if (++rateLimitCalls % RATE_LIMIT_PRUNE_EVERY === 0) {
        try {
          statement(`DELETE FROM rate_limits WHERE reset_at < ?`).run(now - RATE_LIMIT_PRUNE_AFTER_MS)
        } catch {
          // Housekeeping only (the next sweep retries); the hit above is counted and must be reported.
        }
      }
      return Number(row!.count)
    },

    useVerificationToken: async ({ identifier, token }) => {
      // Expired tokens are still returned: the core checks expiry and reports it to the user.
      const row = one(
        `DELETE FROM verification_token WHERE identifier = ? AND token = ? RETURNING ${TOKEN_COLUMNS}`,
        identifier,
        token,
      )
      return row ? toVerificationToken(row) : null
    },

    deleteVerificationTokens: async (identifier) => many(`DELETE FROM verification_token WHERE identifier = ? RETURNING identifier`, identifier).length,

    createAuthenticator: async (authenticator) => {
      const row = one(
        `INSERT INTO authenticators (${AUTHENTICATOR_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${AUTHENTICATOR_COLUMNS}`,
        bind(authenticator.credentialID, "credentialID"),
        bind(authenticator.userId, "userId"),
        bind(authenticator.providerAccountId, "providerAccountId"),
        bind(authenticator.credentialPublicKey, "credentialPublicKey"),
        bind(authenticator.counter, "counter"),
        bind(authenticator.credentialDeviceType, "credentialDeviceType"),
        bind(authenticator.credentialBackedUp, "credentialBackedUp"),
        bind(authenticator.transports, "transports"),
      )
      return toAuthenticator(row!)
    },

    getAuthenticator: async (credentialID) => {
      const row = one(`SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "credentialID" = ?`, credentialID)
      return row ? toAuthenticator(row) : null
    },

    listAuthenticatorsByUserId: async (userId) =>
      many(`SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "userId" = ? ORDER BY rowid`, userId).map(toAuthenticator),

    updateAuthenticatorCounter: async (credentialID, newCounter) => {
      const row = one(
        `UPDATE authenticators SET counter = ? WHERE "credentialID" = ? RETURNING ${AUTHENTICATOR_COLUMNS}`,
        bind(newCounter, "counter"),
        credentialID,
      )
      if (!row) throw new Error(`SQLiteAdapter.updateAuthenticatorCounter: no authenticator with id ${JSON.stringify(credentialID)}`)
      return toAuthenticator(row)
    },

    deleteAuthenticator: async (credentialID) => {
      const row = one(`DELETE FROM authenticators WHERE "credentialID" = ? RETURNING ${AUTHENTICATOR_COLUMNS}`, credentialID)
      return row ? toAuthenticator(row) : null
    },

    getTwoFactor: async (userId) => {
      const row = one(
        `SELECT ${TWO_FACTOR_COLUMNS}, (SELECT count(*) FROM two_factor_recovery_codes c WHERE c."userId" = t."userId") AS codes_left
         FROM two_factor t WHERE t."userId" = ?`,
        bind(userId, "userId"),
      )
      return row ? twoFactorFromRow(row, toDate) : null
    },

    // The foreign key refuses an unknown user.
    setTotpPendingSecret: async (userId, sealed) => {
      checkText(sealed, "the sealed secret", NAME)
      statement(
        `INSERT INTO two_factor ("userId", totp_pending_secret, updated_at) VALUES (?, ?, ?)
         ON CONFLICT ("userId") DO UPDATE SET totp_pending_secret = excluded.totp_pending_secret, updated_at = excluded.updated_at`,
      ).run(bind(userId, "userId"), sealed, Date.now())
    },

    // One transaction: the compare on the pending secret and every write, so concurrent
    // confirmations cannot both enable, nor leave one's secret with the other's codes.
    enableTotp: async (userId, { sealed, step, recoveryCodeHashes }) => {
      checkText(sealed, "the sealed secret", NAME)
      checkTotpStep(step, NAME)
      const hashes = checkHashes(recoveryCodeHashes, NAME)
      const id = bind(userId, "userId")
      const now = Date.now()
      return transaction(() => {
        const enabled = one(
          `UPDATE two_factor SET totp_secret = ?, totp_pending_secret = NULL, totp_last_step = ?, enabled_at = ?,
             trust_version = trust_version + 1, updated_at = ?
           WHERE "userId" = ? AND totp_pending_secret = ? RETURNING "userId"`,
          sealed,
          step,
          now,
          now,
          id,
          sealed,
        )
        if (!enabled) return false
        storeRecoveryCodes(id, hashes)
        return true
      })
    },

    // One statement, a compare-and-set: of concurrent uses of a step only one finds it unused.
    useTotpStep: async (userId, step) => {
      checkTotpStep(step, NAME)
      const row = one(
        `UPDATE two_factor SET totp_last_step = ?, updated_at = ?
         WHERE "userId" = ? AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < ?)
         RETURNING "userId"`,
        step,
        Date.now(),
        bind(userId, "userId"),
        step,
      )
      return row !== undefined
    },

    updateTotpSecret: async (userId, sealed, previousSealed) => {
      checkText(sealed, "the sealed secret", NAME)
      const row = one(
        `UPDATE two_factor SET totp_secret = ?, updated_at = ? WHERE "userId" = ? AND totp_secret = ? RETURNING "userId"`,
        sealed,
        Date.now(),
        bind(userId, "userId"),
        bind(previousSealed, "previousSealed"),
      )
      return row !== undefined
    },

    replaceRecoveryCodes: async (userId, hashes) => {
      const unique = checkHashes(hashes, NAME)
      const id = bind(userId, "userId")
      const now = Date.now()
      transaction(() => {
        statement(
          `INSERT INTO two_factor ("userId", trust_version, updated_at) VALUES (?, 1, ?)
           ON CONFLICT ("userId") DO UPDATE SET trust_version = two_factor.trust_version + 1, updated_at = excluded.updated_at`,
        ).run(id, now)
        storeRecoveryCodes(id, unique)
      })
    },

    useRecoveryCode: async (userId, hash) =>
      one(`DELETE FROM two_factor_recovery_codes WHERE "userId" = ? AND code_hash = ? RETURNING code_hash`, bind(userId, "userId"), bind(hash, "hash")) !==
      undefined,

    incrementTwoFactorTrustVersion: async (userId) =>
      Number(
        one(`UPDATE two_factor SET trust_version = trust_version + 1, updated_at = ? WHERE "userId" = ? RETURNING trust_version`, Date.now(), bind(userId, "userId"))
          ?.trust_version ?? 0,
      ),

    deleteTwoFactor: async (userId) => {
      const id = bind(userId, "userId")
      return transaction(() => {
        const codes = many(`DELETE FROM two_factor_recovery_codes WHERE "userId" = ? RETURNING code_hash`, id).length
        const rows = many(`DELETE FROM two_factor WHERE "userId" = ? RETURNING "userId"`, id).length
        return codes + rows > 0
      })
    },

    createOrganization: async (organization, ownerId) => {
      const id = typeof organization.id === "string" && organization.id !== "" ? organization.id : globalThis.crypto.randomUUID()
      const name = checkText(organization.name, "organization.name", NAME)
      const slug = checkText(organization.slug, "organization.slug", NAME)
      const createdAt = milliseconds(organization.createdAt ?? new Date(), "createdAt")
      const owner = checkText(ownerId, "ownerId", NAME)
      return transaction(() => {
        // ON CONFLICT names the slug only: a clash of ids is a caller's bug and throws.
        const row = one(
          `INSERT INTO organizations (${ORGANIZATION_COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING RETURNING ${ORGANIZATION_COLUMNS}`,
          id,
          name,
          slug,
          createdAt,
          jsonText(organization.policy),
        )
        if (!row) return "slug-taken" as const
        // An unknown owner fails the foreign key here, which rolls the organization back too.
        statement(`INSERT INTO organization_members (${MEMBER_COLUMNS}) VALUES (?, ?, ?, ?)`).run(id, owner, OWNER_ROLE, createdAt)
        return toOrganization(row)
      })
    },

    getOrganization: async (key) => {
      const row = "id" in key
        ? one(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE id = ?`, bind(key.id, "id"))
        : one(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE slug = ?`, bind(key.slug, "slug"))
      return row ? toOrganization(row) : null
    },

    updateOrganization: async (id, patch) => {
      if (patch.name !== undefined) checkText(patch.name, "organization.name", NAME)
      if (patch.slug !== undefined) checkText(patch.slug, "organization.slug", NAME)
      const { sets, params } = assignments([
        ["name", patch.name, bind(patch.name, "name")],
        ["slug", patch.slug, bind(patch.slug, "slug")],
        ["policy", patch.policy, jsonText(patch.policy)],
      ])
      return transaction(() => {
        if (patch.slug !== undefined && one(`SELECT 1 AS taken FROM organizations WHERE slug = ? AND id <> ?`, patch.slug, id)) return "slug-taken" as const
        const row =
          sets === ""
            ? one(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE id = ?`, id)
            : one(`UPDATE organizations SET ${sets} WHERE id = ? RETURNING ${ORGANIZATION_COLUMNS}`, ...params, id)
        return row ? toOrganization(row) : null
      })
    },

    deleteOrganization: async (id) => many(`DELETE FROM organizations WHERE id = ? RETURNING id`, bind(id, "id")).length > 0,

    listOrganizationsByUserId: async (userId) =>
      many(
        `SELECT o.id, o.name, o.slug, o.created_at, o.policy, m.role AS member_role, m.created_at AS joined_at
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
         WHERE m."userId" = ? ORDER BY m.created_at, m.organization_id`,
        bind(userId, "userId"),
      ).map((row) => ({ organization: toOrganization(row), role: String(row.member_role), joinedAt: toDate(row.joined_at) })),

    addMember: async (member) => {
      const row = one(
        `INSERT INTO organization_members (${MEMBER_COLUMNS}) VALUES (?, ?, ?, ?)
         ON CONFLICT (organization_id, "userId") DO NOTHING RETURNING ${MEMBER_COLUMNS}`,
        bind(member.organizationId, "organizationId"),
        bind(member.userId, "userId"),
        checkText(member.role, "member.role", NAME),
        milliseconds(member.createdAt ?? new Date(), "createdAt"),
      )
      return row ? toMember(row) : "already-member"
    },

    getMember: async (organizationId, userId) => {
      const row = one(`SELECT ${MEMBER_COLUMNS} FROM organization_members WHERE organization_id = ? AND "userId" = ?`, bind(organizationId, "organizationId"), bind(userId, "userId"))
      return row ? toMember(row) : null
    },

    getMembership: async (organizationId, userId) => {
      const row = one(
        `SELECT o.id, o.name, o.slug, o.created_at, o.policy, m.role AS member_role, m.created_at AS joined_at
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
         WHERE m.organization_id = ? AND m."userId" = ?`,
        bind(organizationId, "organizationId"),
        bind(userId, "userId"),
      )
      return row ? { organization: toOrganization(row), role: String(row.member_role), joinedAt: toDate(row.joined_at) } : null
    },

    updateMemberRole: async (organizationId, userId, role) => {
      checkText(role, "role", NAME)
      return transaction(() => {
        const refused = memberChangeRefusal(organizationId, userId, role)
        if (refused) return refused
        const row = one(
          `UPDATE organization_members SET role = ? WHERE organization_id = ? AND "userId" = ? RETURNING ${MEMBER_COLUMNS}`,
          role,
          bind(organizationId, "organizationId"),
          bind(userId, "userId"),
        )
        return toMember(row!)
      })
    },

    removeMember: async (organizationId, userId) =>
      transaction(() => {
        const refused = memberChangeRefusal(organizationId, userId, null)
        if (refused) return refused
        const row = one(
          `DELETE FROM organization_members WHERE organization_id = ? AND "userId" = ? RETURNING ${MEMBER_COLUMNS}`,
          bind(organizationId, "organizationId"),
          bind(userId, "userId"),
        )
        return toMember(row!)
      }),

    listMembers: async (organizationId, { after, limit, search }) => {
      checkLimit(NAME, limit)
      const where = [`m.organization_id = ?`]
      const params: SQLiteValue[] = [bind(organizationId, "organizationId")]
      if (after) {
        // A row value: SQLite walks organization_members_listing_idx from the cursor on.
        where.push(`(m.created_at, m."userId") > (?, ?)`)
        params.push(milliseconds(after.createdAt, "after.createdAt"), bind(after.userId, "after.userId"))
      }
      const pattern = likePrefix(search)
      if (pattern !== null) {
        where.push(`(u.email LIKE ? ESCAPE '\\' OR u.name LIKE ? ESCAPE '\\')`)
        params.push(pattern, pattern)
      }
      return many(
        `SELECT m.organization_id, m."userId", m.role, m.created_at, u.name, u.email, u.image
         FROM organization_members m JOIN users u ON u.id = m."userId"
         WHERE ${where.join(" AND ")} ORDER BY m.created_at, m."userId" LIMIT ?`,
        ...params,
        limit,
      ).map((row): AdapterMemberListing => ({ ...toMember(row), user: { name: textOrNull(row.name), email: textOrNull(row.email) as string, image: textOrNull(row.image) } }))
    },

    createInvitation: async (invitation) => {
      const row = one(
        `INSERT INTO organization_invitations (${INVITATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?) RETURNING ${INVITATION_COLUMNS}`,
        typeof invitation.id === "string" && invitation.id !== "" ? invitation.id : globalThis.crypto.randomUUID(),
        bind(invitation.organizationId, "organizationId"),
        checkText(invitation.email, "invitation.email", NAME),
        checkText(invitation.role, "invitation.role", NAME),
        checkText(invitation.inviterId, "invitation.inviterId", NAME),
        checkText(invitation.tokenHash, "invitation.tokenHash", NAME),
        requiredMilliseconds(invitation.expiresAt, "expiresAt"),
        milliseconds(invitation.createdAt ?? new Date(), "createdAt"),
      )
      return toInvitation(row!)
    },

    getInvitation: async (id) => {
      const row = one(`SELECT ${INVITATION_COLUMNS} FROM organization_invitations WHERE id = ?`, bind(id, "id"))
      return row ? toInvitation(row) : null
    },

    getInvitationByTokenHash: async (tokenHash) => {
      const row = one(`SELECT ${INVITATION_COLUMNS} FROM organization_invitations WHERE token_hash = ?`, bind(tokenHash, "tokenHash"))
      return row ? toInvitation(row) : null
    },

    setInvitationStatus: async (id, from, to) => {
      // One conditional UPDATE: the status it checks is the one it changes, so only one caller wins.
      const row = one(
        `UPDATE organization_invitations SET status = ? WHERE id = ? AND status = ? RETURNING ${INVITATION_COLUMNS}`,
        checkText(to, "to", NAME),
        bind(id, "id"),
        checkText(from, "from", NAME),
      )
      return row ? toInvitation(row) : null
    },

    listInvitations: async (organizationId) =>
      many(
        `SELECT ${INVITATION_COLUMNS} FROM organization_invitations WHERE organization_id = ? ORDER BY created_at DESC, id DESC`,
        bind(organizationId, "organizationId"),
      ).map(toInvitation),

    appendAuditEntry: async (entry) => {
      const row = one(
        `INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${AUDIT_COLUMNS}`,
        typeof entry.id === "string" && entry.id !== "" ? entry.id : globalThis.crypto.randomUUID(),
        bind(entry.actorId, "actorId"),
        checkText(entry.action, "entry.action", NAME),
        bind(entry.organizationId, "organizationId"),
        bind(entry.targetType, "targetType"),
        bind(entry.targetId, "targetId"),
        bind(entry.ip, "ip"),
        bind(entry.userAgent, "userAgent"),
        milliseconds(entry.createdAt ?? new Date(), "createdAt"),
        jsonText(entry.details),
      )
      return toAuditEntry(row!)
    },

    listAuditEntries: async ({ organizationId, actorId, action, before, limit }) => {
      checkLimit(NAME, limit)
      const where: string[] = []
      const params: SQLiteValue[] = []
      const filter = (condition: string, ...values: SQLiteValue[]): void => {
        where.push(condition)
        params.push(...values)
      }
      if (organizationId !== undefined) filter(`organization_id = ?`, bind(organizationId, "organizationId"))
      if (actorId !== undefined) filter(`actor_id = ?`, bind(actorId, "actorId"))
      if (action !== undefined) filter(`action = ?`, bind(action, "action"))
      // A row value: the (…, created_at, id) indexes are walked from the cursor on.
      if (before) filter(`(created_at, id) < (?, ?)`, milliseconds(before.createdAt, "before.createdAt"), bind(before.id, "before.id"))
      return many(
        `SELECT ${AUDIT_COLUMNS} FROM audit_log ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id DESC LIMIT ?`,
        ...params,
        limit,
      ).map(toAuditEntry)
    },

    getUserStatus: async (userId) => {
      const row = one(`SELECT ${USER_STATUS_COLUMNS} FROM user_status WHERE "userId" = ?`, bind(userId, "userId"))
      return row ? toUserStatus(row) : null
    },

    // The foreign key rejects an unknown user; the ban columns are left as they are.
    setUserRole: async (userId, role) => {
      statement(`INSERT INTO user_status ("userId", role) VALUES (?, ?) ON CONFLICT ("userId") DO UPDATE SET role = excluded.role`).run(
        bind(userId, "userId"),
        role === null ? null : checkText(role, "role", NAME),
      )
    },

    banUser: async (userId, { banReason, banExpiresAt, bannedBy }) => {
      statement(
        `INSERT INTO user_status ("userId", banned_at, ban_reason, ban_expires_at, banned_by) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT ("userId") DO UPDATE SET banned_at = excluded.banned_at, ban_reason = excluded.ban_reason,
           ban_expires_at = excluded.ban_expires_at, banned_by = excluded.banned_by`,
      ).run(bind(userId, "userId"), Date.now(), bind(banReason, "banReason"), milliseconds(banExpiresAt, "banExpiresAt"), bind(bannedBy, "bannedBy"))
    },

    unbanUser: async (userId) =>
      many(
        `UPDATE user_status SET banned_at = NULL, ban_reason = NULL, ban_expires_at = NULL, banned_by = NULL
         WHERE "userId" = ? AND banned_at IS NOT NULL RETURNING "userId"`,
        bind(userId, "userId"),
      ).length > 0,

    searchUsers: async ({ after, limit, search }) => {
      checkLimit(NAME, limit)
      const where: string[] = []
      const params: SQLiteValue[] = []
      // The primary key is walked from the cursor on: a page costs its own rows, however deep.
      if (after !== undefined) {
        where.push(`id > ?`)
        params.push(bind(after, "after"))
      }
      const pattern = likePrefix(search)
      if (pattern !== null) {
        where.push(`(email LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\')`)
        params.push(pattern, pattern)
      }
      return many(
        `SELECT ${USER_COLUMNS} FROM users ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id LIMIT ?`,
        ...params,
        limit,
      ).map(toUser)
    },
  }, db)

  /**
   * Why changing the member's role to `newRole` (or removing them: `null`) is refused, if it is.
   * Called inside the write transaction that then makes the change, so no other demotion or
   * removal can pass between the check and the change.
   */
  function memberChangeRefusal(organizationId: string, userId: string, newRole: string | null): "not-found" | "last-owner" | null {
    const member = one(`SELECT role FROM organization_members WHERE organization_id = ? AND "userId" = ?`, bind(organizationId, "organizationId"), bind(userId, "userId"))
    if (!member) return "not-found"
    if (member.role !== OWNER_ROLE || newRole === OWNER_ROLE) return null
    const otherOwner = one(
      `SELECT 1 AS found FROM organization_members WHERE organization_id = ? AND role = ? AND "userId" <> ? LIMIT 1`,
      organizationId,
      OWNER_ROLE,
      userId,
    )
    return otherOwner ? null : "last-owner"
  }

  /** Upserts how the session under `sessionToken` was authenticated; `false` when there is no such session. */
  function writeAuthentication(sessionToken: string, authentication: AdapterSessionAuthentication): boolean {
    const stored = one(
      `INSERT INTO session_authentication ("sessionId", aal, amr, second_factor_at)
       SELECT id, ?, ?, ? FROM sessions WHERE "sessionToken" = ?
       ON CONFLICT ("sessionId") DO UPDATE SET aal = excluded.aal, amr = excluded.amr, second_factor_at = excluded.second_factor_at
       RETURNING "sessionId"`,
      authentication.aal,
      amrText(authentication.amr),
      authentication.secondFactorAt === null ? null : authentication.secondFactorAt.getTime(),
      bind(sessionToken, "sessionToken"),
    )
    return stored !== undefined
  }
}

export default SQLiteAdapter
