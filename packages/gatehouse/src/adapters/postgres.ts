/**
 * A Gatehouse adapter for PostgreSQL through `pg` (or any driver with its `query` API), on the
 * tables of Auth.js's `@auth/pg-adapter`: an existing Auth.js database works unchanged after
 * {@link migrate}, which also creates the tables on an empty one.
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import { PostgresAdapter, migrate } from "gatehouse-auth/adapters/postgres"
 *
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5000 })
 * await migrate(pool)
 * export const config = { adapter: PostgresAdapter(pool), providers: [] }
 * ```
 * @module gatehouse-auth/adapters/postgres
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
  MemberChangeRefusal,
  OrganizationStore,
  StoredAdapter,
  UserStatusStore,
  VerificationToken,
} from "./index.js"
import { checkLimit, likePrefix, organizationRowReaders, OWNER_ROLE } from "./organization-fields.js"
import { readPostgresSchema, type PostgresQueryable, type PostgresRow } from "./postgres-schema.js"
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
  hashSessionTokens,
  migrate,
  postgresMigrationSql,
  postgresSchema,
  POSTGRES_MIGRATION_STEPS,
  readPostgresSchema,
} from "./postgres-schema.js"
export type {
  MigrationResult,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryResult,
  PostgresRow,
  SchemaMigration,
  SchemaState,
} from "./postgres-schema.js"

/** Options of {@link PostgresAdapter}. */
export interface PostgresAdapterOptions {
  /**
   * Run every statement as a named, prepared statement (pg's `{ name, text, values }`), so the
   * server parses and plans it once per connection instead of on every call; a session check is
   * then about twice as fast. Default: true when `db` is a `pg` `Pool` or `Client` (or one built
   * on them), false for anything else, whose `query` may take only text. Set false behind a
   * pooler that cannot keep prepared statements (PgBouncer in transaction mode before 1.21, or
   * with `max_prepared_statements = 0`). Should the server report a prepared statement missing,
   * duplicated or made stale by a column type change, the adapter runs that query again as plain
   * text and stays with plain text.
   */
  preparedStatements?: boolean
}

/** pg's way of running a named statement, which `PostgresQueryable` does not promise. */
type NamedStatementQuery = (statement: { name: string; text: string; values: unknown[] }) => Promise<{ rows: PostgresRow[] }>

/** Whether `db` is pg's own `Pool`, `Client` or pool client, which run named statements. */
function isPgDriver(db: object): boolean {
  return "connectionParameters" in db || (typeof (db as { totalCount?: unknown }).totalCount === "number" && "options" in db)
}

/** The adapter `PostgresAdapter` returns (every method, async). */
export type PostgresAdapterMethods = StoredAdapter & OrganizationStore & UserStatusStore & Required<Pick<Adapter, "missingMigrations">>

// Ids are read as text so integer (Auth.js SERIAL) and text (fresh schema) ids look the same.
const USER = `id::text AS id, name, email, "emailVerified", image`
const SESSION = `id::text AS id, "sessionToken", "userId"::text AS "userId", expires`
const ACCOUNT_TOKEN_FIELDS = ["refresh_token", "access_token", "expires_at", "id_token", "scope", "session_state", "token_type"] as const
const ACCOUNT = `"userId"::text AS "userId", type, provider, "providerAccountId", ${ACCOUNT_TOKEN_FIELDS.join(", ")}`
const TOKEN = `identifier, token, expires`
const TWO_FACTOR = `t."userId"::text AS "userId", t.totp_secret, t.totp_pending_secret, t.totp_last_step, t.enabled_at, t.trust_version`
const NAME = "PostgresAdapter"
const ORGANIZATION = `id, name, slug, created_at, policy`
const MEMBER = `organization_id, "userId"::text AS "userId", role, created_at`
const INVITATION = `id, organization_id, email, role, inviter_id, token_hash, expires_at, status, created_at`
const AUDIT = `id, actor_id, action, organization_id, target_type, target_id, ip, user_agent, created_at, details`
const USER_STATUS = `"userId"::text AS "userId", role, banned_at, ban_reason, ban_expires_at, banned_by`
/**
 * The organization's owners, locked. A demotion or removal that reads them this way waits for a
 * concurrent one to commit and then sees its result (READ COMMITTED re-reads a locked row), so two
 * cannot each count the other as the owner who stays.
 */
const LOCKED_OWNERS = `owners AS (SELECT "userId" FROM organization_members WHERE organization_id = $1 AND role = '${OWNER_ROLE}' ORDER BY "userId" FOR UPDATE)`
const AUTHENTICATOR = `"credentialID", "userId"::text AS "userId", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`

/** Rate-limit rows whose window ended are deleted on one `hitRateLimit` call in this many. */
const RATE_LIMIT_PRUNE_EVERY = 100
/**
 * How long after its window ended a rate-limit row is pruned. Expired rows already count as
 * absent, so this only matters to instances whose clocks disagree: one running slightly fast must
 * not delete a window the others still count in.
 */
const RATE_LIMIT_PRUNE_AFTER_MS = 60_000

/** The columns an account may carry besides its keys; Auth.js's adapter stores these and drops the rest. */
const ACCOUNT_COLUMNS = ["userId", "type", "provider", "providerAccountId", ...ACCOUNT_TOKEN_FIELDS] as const

/** The SQLSTATE pg puts on a server error as `code`, if `error` carries one. */
function sqlState(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined
}

/**
 * An id that cannot be one in this database: text that is no integer for an Auth.js SERIAL id
 * (22P02, also a malformed uuid), or an integer out of range (22003). Such an id names no row.
 */
function isImpossibleId(error: unknown): boolean {
  const code = sqlState(error)
  return code === "22P02" || code === "22003"
}

/** A window length in whole milliseconds (BIGINT takes no fractions); NaN or a non-positive length would throttle wrongly. */
function windowMilliseconds(windowSeconds: number): number {
  if (typeof windowSeconds !== "number" || !Number.isFinite(windowSeconds) || windowSeconds <= 0) {
    throw new RangeError(`PostgresAdapter: windowSeconds must be a positive number, got ${String(windowSeconds)}`)
  }
  return Math.ceil(windowSeconds * 1000)
}

/** A Date from a timestamptz, whether the driver parsed it (pg's default) or not. */
function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value))
}

const { toOrganization, toMember, toInvitation, toAuditEntry, toUserStatus } = organizationRowReaders({ date: toDate, json: (value) => (value ?? null) as JsonValue | null })

/** JSON text for a JSONB parameter (pg would send an array as a PostgreSQL array), `null` kept. */
function jsonParameter(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value)
}

/** A valid Date, or a TypeError naming the field. */
function checkDate(value: unknown, field: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new TypeError(`${NAME}: ${field} must be a valid Date`)
  return value
}

function toUser(row: PostgresRow): AdapterUser {
  return {
    id: String(row.id),
    name: (row.name ?? null) as string | null,
    email: row.email as string,
    emailVerified: row.emailVerified == null ? null : toDate(row.emailVerified),
    image: (row.image ?? null) as string | null,
  }
}

function toSessionDetails(row: PostgresRow): AdapterSessionDetails | null {
  if (row.detailed !== true) return null
  const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
  return {
    createdAt: toDate(row.created_at),
    userAgent: text(row.user_agent),
    idpProvider: text(row.idp_provider),
    idpSid: text(row.idp_sid),
    ...(authenticationFromRow(row, toDate) ?? { aal: null, amr: null, secondFactorAt: null }),
  }
}

/**
 * getSessionAndUser's query, then the same without what a database migrated only so far lacks:
 * tried in order while a table is missing.
 */
const SESSION_AND_USER_QUERIES = [
  `SELECT s.id::text AS "sessionId", s."sessionToken", s."userId"::text AS "userId", s.expires,
          u.id::text AS id, u.name, u.email, u."emailVerified", u.image,
          a."sessionId" IS NOT NULL AS authenticated, a.aal, a.amr, a.second_factor_at,
          c."sessionId" IS NOT NULL AS ctx_found, c.active_organization_id AS ctx_org, c.impersonator_id AS ctx_imp, c.sign_in_provider AS ctx_prv
   FROM sessions s JOIN users u ON u.id = s."userId" LEFT JOIN session_authentication a ON a."sessionId" = s.id
     LEFT JOIN session_context c ON c."sessionId" = s.id
   WHERE s."sessionToken" = $1`,
  `SELECT s.id::text AS "sessionId", s."sessionToken", s."userId"::text AS "userId", s.expires,
          u.id::text AS id, u.name, u.email, u."emailVerified", u.image,
          a."sessionId" IS NOT NULL AS authenticated, a.aal, a.amr, a.second_factor_at
   FROM sessions s JOIN users u ON u.id = s."userId" LEFT JOIN session_authentication a ON a."sessionId" = s.id
   WHERE s."sessionToken" = $1`,
  `SELECT s.id::text AS "sessionId", s."sessionToken", s."userId"::text AS "userId", s.expires,
          u.id::text AS id, u.name, u.email, u."emailVerified", u.image
   FROM sessions s JOIN users u ON u.id = s."userId"
   WHERE s."sessionToken" = $1`,
] as const

/** A missing table (42P01): a database not migrated since the table was added. */
function isMissingTable(error: unknown): boolean {
  return sqlState(error) === "42P01"
}

function toSession(row: PostgresRow, id: unknown = row.id): AdapterSession {
  const session: AdapterSession = { sessionToken: String(row.sessionToken), userId: String(row.userId), expires: toDate(row.expires) }
  return id === null || id === undefined ? session : { id: String(id), ...session }
}

function toAccount(row: PostgresRow): AdapterAccount {
  const account: Record<string, unknown> = {
    userId: String(row.userId),
    type: row.type,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
  }
  // Absent token fields stay absent (not null): the account type has them as optional strings.
  for (const field of ACCOUNT_TOKEN_FIELDS) {
    const value = row[field]
    if (value != null) account[field] = field === "expires_at" ? Number(value) : value
  }
  return account as unknown as AdapterAccount
}

function toToken(row: PostgresRow): VerificationToken {
  return { identifier: String(row.identifier), token: String(row.token), expires: toDate(row.expires) }
}

function toAuthenticator(row: PostgresRow): AdapterAuthenticator {
  return {
    credentialID: String(row.credentialID),
    userId: String(row.userId),
    providerAccountId: String(row.providerAccountId),
    credentialPublicKey: String(row.credentialPublicKey),
    // BIGINT arrives as a string from pg.
    counter: Number(row.counter),
    credentialDeviceType: String(row.credentialDeviceType),
    credentialBackedUp: row.credentialBackedUp === true || row.credentialBackedUp === "t",
    transports: (row.transports ?? null) as string | null,
  }
}

/**
 * The prepared statement name of `text`, a function of the text alone: pg refuses one name for two
 * texts on a connection, and every adapter on a pool, from any copy of this module (hot reload,
 * separate bundles, two versions), must agree. A 53-bit hash (cyrb53, two multiplicative lanes) is
 * cheap enough for every query, and collisions among our few dozen texts are out of the question.
 */
function statementName(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return `gatehouse_${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`
}

/**
 * Errors meaning prepared statements do not work on this connection path: a pooler in
 * transaction mode lost or duplicated one (26000, 42P05), or a column's type changed under a
 * cached plan (0A000). The query is then run again as plain text, and so is every later one.
 */
function isPreparedStatementFailure(error: unknown): boolean {
  const code = sqlState(error)
  return code === "26000" || code === "42P05" || code === "0A000"
}

/** Quotes a column name we chose ourselves (never user input). */
const column = (name: string) => `"${name}"`

/**
 * An account field as its column takes it: BIGINT refuses fractions, which a computed expiry like
 * now/1000 + expires_in may carry.
 */
const accountValue = (key: string, value: unknown): unknown =>
  key === "expires_at" && typeof value === "number" && !Number.isInteger(value) ? Math.floor(value) : value

/**
 * A pg `Pool` emits `error` when an idle connection dies (the server restarts, a proxy cuts it),
 * and an EventEmitter with no `error` listener throws, which takes the whole process down. The
 * pool drops such a connection by itself and the next query that needs the server fails and
 * reports, so a listener that ignores the event is enough. One the application set is kept.
 */
function keepIdleErrorsFromCrashing(db: unknown): void {
  const emitter = db as { on?: unknown; listenerCount?: unknown; totalCount?: unknown }
  if (typeof emitter.on !== "function" || typeof emitter.listenerCount !== "function") return
  // Only a Pool replaces a dead connection; a single Client never reconnects, so silencing its
  // error would turn a crash the supervisor restarts into an outage nobody hears about.
  if (typeof emitter.totalCount !== "number") return
  const on = emitter.on as (event: string, listener: () => void) => unknown
  const listenerCount = emitter.listenerCount as (event: string) => number
  if (listenerCount.call(db, "error") === 0) on.call(db, "error", () => {})
}

/**
 * Creates the adapter on `db`: a `pg` `Pool` (recommended), a `Client`, or any object with
 * pg's `query(text, values)` API. Run {@link migrate} once before use.
 *
 * Behaviour worth knowing:
 * - PostgreSQL assigns user ids: `createUser` ignores a given `id` and returns the stored one, as
 *   text (a uuid on a fresh schema, a number on an Auth.js one). Looking up an id the column
 *   cannot hold (a uuid against a SERIAL column) finds nothing instead of throwing.
 * - Accounts keep only Auth.js's columns (token fields, `session_state`); other fields are dropped
 *   by `linkAccount` and `updateAccount`.
 * - `useVerificationToken` deletes and returns in one statement, so a token works once even under
 *   concurrent requests.
 * - `hitRateLimit` needs the `rate_limits` table, which {@link migrate} adds to databases that
 *   predate it: run `migrate` again after upgrading.
 * - The second-factor methods and `updateSessionAuthentication` need the `two_factor`,
 *   `two_factor_recovery_codes` and `session_authentication` tables, which {@link migrate} adds:
 *   run it again after upgrading. Until then `getSessionAndUser` still reads every session (with
 *   `authentication: null`); those methods fail, naming the missing table.
 * - `missingMigrations()` reads `gatehouse_migrations` (see {@link readPostgresSchema}) when
 *   Gatehouse asks, once, at the first request; a database behind is logged as the warning
 *   `schema-outdated` (naming `npx gatehouse-auth migrate apply`), and requests go on.
 * - `useTotpStep`, `useRecoveryCode`, `enableTotp`, `updateTotpSecret` and
 *   `replaceRecoveryCodes` are each one statement, so they hold under concurrent requests on any
 *   number of connections without a transaction of the caller's.
 * - On a pg `Pool` or `Client`, statements are prepared once per connection (see
 *   {@link PostgresAdapterOptions}); pass `{ preparedStatements: false }` behind a pooler that
 *   cannot keep them.
 * - If `db` is a pg `Pool` without an `error` listener, one is added that ignores the event:
 *   otherwise a connection dropped while idle (a server restart) would crash the process. The next query then fails with the driver's error instead. Add
 *   your own listener first if you want to log these.
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import { PostgresAdapter, migrate } from "gatehouse-auth/adapters/postgres"
 *
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5000 })
 * await migrate(pool)
 * const config = { adapter: PostgresAdapter(pool), session: { strategy: "database" }, providers: [] }
 * ```
 */
export function PostgresAdapter(db: PostgresQueryable, options: PostgresAdapterOptions = {}): PostgresAdapterMethods {
  keepIdleErrorsFromCrashing(db)
  let prepared = options.preparedStatements ?? isPgDriver(db)
  const named = db.query as unknown as NamedStatementQuery

  const rows = async (text: string, values: unknown[]): Promise<PostgresRow[]> => {
    if (!prepared) return (await db.query(text, values)).rows
    try {
      return (await named.call(db, { name: statementName(text), text, values })).rows
    } catch (error) {
      if (!isPreparedStatementFailure(error)) throw error
      prepared = false
      return (await db.query(text, values)).rows
    }
  }

  /** Rows of a query by id, or none when the id cannot be one here. */
  const rowsById = async (text: string, values: unknown[]): Promise<PostgresRow[]> => {
    try {
      return await rows(text, values)
    } catch (error) {
      if (isImpossibleId(error)) return []
      throw error
    }
  }

  const first = <T>(found: PostgresRow[], map: (row: PostgresRow) => T): T | null => (found[0] ? map(found[0]) : null)

  let rateLimitCalls = 0

  return markSchemaSource({
    // Read when the core asks (once, at the first request, not waited for): no query at construction.
    missingMigrations: async () => (await readPostgresSchema(db)).missing,

    // The id is PostgreSQL's (the column default or an Auth.js SERIAL), never the caller's: a
    // SERIAL column cannot take a uuid, and an id written past its sequence would collide later.
    createUser: async (user) => {
      const found = await rows(
        `INSERT INTO users (name, email, "emailVerified", image) VALUES ($1, $2, $3, $4) RETURNING ${USER}`,
        [user.name ?? null, user.email, user.emailVerified ?? null, user.image ?? null],
      )
      return toUser(found[0]!)
    },

    getUser: async (id) => first(await rowsById(`SELECT ${USER} FROM users WHERE id = $1`, [id]), toUser),

    // Email is not unique in Auth.js's layout; of several users with one, always the same one.
    getUserByEmail: async (email) => first(await rows(`SELECT ${USER} FROM users WHERE email = $1 ORDER BY id LIMIT 1`, [email]), toUser),

    getUserByAccount: async ({ provider, providerAccountId }) =>
      first(
        await rows(
          `SELECT u.id::text AS id, u.name, u.email, u."emailVerified", u.image
           FROM users u JOIN accounts a ON a."userId" = u.id
           WHERE a.provider = $1 AND a."providerAccountId" = $2`,
          [provider, providerAccountId],
        ),
        toUser,
      ),

    updateUser: async (user) => {
      const values: unknown[] = [user.id]
      const sets: string[] = []
      for (const key of ["name", "email", "emailVerified", "image"] as const) {
        if (user[key] === undefined) continue
        values.push(user[key])
        sets.push(`${column(key)} = $${values.length}`)
      }
      const text = sets.length
        ? `UPDATE users SET ${sets.join(", ")} WHERE id = $1 RETURNING ${USER}`
        : `SELECT ${USER} FROM users WHERE id = $1`
      const updated = first(await rowsById(text, values), toUser)
      if (!updated) throw new Error(`updateUser: no user with id ${JSON.stringify(user.id)}`)
      return updated
    },

    // Accounts, sessions and authenticators go with the user through ON DELETE CASCADE.
    deleteUser: async (userId) => first(await rowsById(`DELETE FROM users WHERE id = $1 RETURNING ${USER}`, [userId]), toUser),

    linkAccount: async (account) => {
      const names: string[] = []
      const values: unknown[] = []
      for (const key of ACCOUNT_COLUMNS) {
        if (account[key] === undefined) continue
        names.push(column(key))
        values.push(accountValue(key, account[key]))
      }
      const placeholders = values.map((_, i) => `$${i + 1}`).join(", ")
      const found = await rows(`INSERT INTO accounts (${names.join(", ")}) VALUES (${placeholders}) RETURNING ${ACCOUNT}`, values)
      return toAccount(found[0]!)
    },

    unlinkAccount: async ({ provider, providerAccountId }) =>
      first(
        await rows(`DELETE FROM accounts WHERE provider = $1 AND "providerAccountId" = $2 RETURNING ${ACCOUNT}`, [provider, providerAccountId]),
        toAccount,
      ) ?? undefined,

    getAccount: async (providerAccountId, provider) =>
      first(await rows(`SELECT ${ACCOUNT} FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`, [provider, providerAccountId]), toAccount),

    listAccountsByUserId: async (userId) =>
      (await rowsById(`SELECT ${ACCOUNT} FROM accounts WHERE "userId" = $1 ORDER BY provider, "providerAccountId"`, [userId])).map(toAccount),

    // Only the token columns can change: userId, type, provider and providerAccountId are never
    // written, and fields without a column are dropped as in linkAccount.
    updateAccount: async (account) => {
      const values: unknown[] = [account.provider, account.providerAccountId]
      const sets: string[] = []
      for (const key of ACCOUNT_TOKEN_FIELDS) {
        if (account[key] === undefined) continue
        values.push(accountValue(key, account[key]))
        sets.push(`${column(key)} = $${values.length}`)
      }
      const text = sets.length
        ? `UPDATE accounts SET ${sets.join(", ")} WHERE provider = $1 AND "providerAccountId" = $2 RETURNING ${ACCOUNT}`
        : `SELECT ${ACCOUNT} FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`
      return first(await rows(text, values), toAccount)
    },

    createSession: async ({ sessionToken, userId, expires }) => {
      let found: PostgresRow[]
      try {
        found = await rows(
          `INSERT INTO sessions ("sessionToken", "userId", expires) VALUES ($1, $2, $3) RETURNING ${SESSION}`,
          [sessionToken, userId, expires],
        )
      } catch (error) {
        // pg's unique-violation detail quotes the key: another browser's live session token,
        // which must not reach a log line.
        if ((error as { code?: unknown }).code === "23505") {
          throw new Error("PostgresAdapter.createSession: that sessionToken is already in use")
        }
        throw error
      }
      return toSession(found[0]!)
    },

    getSessionAndUser: async (sessionToken) => {
      let found: PostgresRow[] | undefined
      // A database not migrated since two-factor sign-in (session_authentication) or organizations
      // (session_context) came: every session stays readable with what the database has (nothing
      // recorded reads as one factor and no context) rather than every user being signed out
      // until migrate runs.
      for (const [index, text] of SESSION_AND_USER_QUERIES.entries()) {
        try {
          found = await rows(text, [sessionToken])
          break
        } catch (error) {
          if (!isMissingTable(error) || index === SESSION_AND_USER_QUERIES.length - 1) throw error
        }
      }
      const [row] = found ?? []
      return row
        ? { session: { ...toSession(row, row.sessionId), authentication: authenticationFromRow(row, toDate), context: sessionContextFromRow(row) }, user: toUser(row) }
        : null
    },

    updateSession: async (session) => {
      const values: unknown[] = [session.sessionToken]
      const sets: string[] = []
      for (const key of ["userId", "expires"] as const) {
        if (session[key] === undefined) continue
        values.push(session[key])
        sets.push(`${column(key)} = $${values.length}`)
      }
      const text = sets.length
        ? `UPDATE sessions SET ${sets.join(", ")} WHERE "sessionToken" = $1 RETURNING ${SESSION}`
        : `SELECT ${SESSION} FROM sessions WHERE "sessionToken" = $1`
      return first(await rows(text, values), toSession)
    },

    deleteSession: async (sessionToken) =>
      first(await rows(`DELETE FROM sessions WHERE "sessionToken" = $1 RETURNING ${SESSION}`, [sessionToken]), toSession),

    deleteSessionsByUserId: async (userId) => {
      await rowsById(`DELETE FROM sessions WHERE "userId" = $1`, [userId])
    },

    // One statement, so the details and the authentication are stored together or not at all;
    // details replace what was there, authentication included.
    createSessionDetails: async (sessionToken, details) => {
      const authentication = checkAuthentication(details, NAME)
      const stored = await rows(
        `WITH target AS (SELECT id FROM sessions WHERE "sessionToken" = $1),
         stored AS (
           INSERT INTO session_details ("sessionId", created_at, user_agent, idp_provider, idp_sid)
           SELECT id, $2, $3, $4, $5 FROM target
           ON CONFLICT ("sessionId") DO UPDATE SET created_at = excluded.created_at, user_agent = excluded.user_agent,
             idp_provider = excluded.idp_provider, idp_sid = excluded.idp_sid
           RETURNING "sessionId"
         ),
         cleared AS (DELETE FROM session_authentication WHERE "sessionId" IN (SELECT id FROM target) AND NOT $6::boolean),
         recorded AS (
           INSERT INTO session_authentication ("sessionId", aal, amr, second_factor_at)
           SELECT id, $7, $8, $9 FROM target WHERE $6::boolean
           ON CONFLICT ("sessionId") DO UPDATE SET aal = excluded.aal, amr = excluded.amr, second_factor_at = excluded.second_factor_at
         )
         SELECT "sessionId" FROM stored`,
        [
          sessionToken,
          details.createdAt,
          details.userAgent,
          details.idpProvider,
          details.idpSid,
          recordsAuthentication(details),
          authentication.aal,
          amrText(authentication.amr),
          authentication.secondFactorAt,
        ],
      )
      if (stored.length === 0) throw new Error("PostgresAdapter.createSessionDetails: no session to store details for")
    },

    updateSessionAuthentication: async (sessionToken, authentication) => {
      const { aal, amr, secondFactorAt } = checkAuthentication(authentication, NAME)
      const stored = await rows(
        `INSERT INTO session_authentication ("sessionId", aal, amr, second_factor_at)
         SELECT id, $2, $3, $4 FROM sessions WHERE "sessionToken" = $1
         ON CONFLICT ("sessionId") DO UPDATE SET aal = excluded.aal, amr = excluded.amr, second_factor_at = excluded.second_factor_at
         RETURNING "sessionId"`,
        [sessionToken, aal, amrText(amr), secondFactorAt],
      )
      return stored.length > 0
    },

    // One statement: the row is found by its token and upserted, only the fields named changing.
    setSessionContext: async (sessionToken, patch) => {
      const checked = checkSessionContextPatch(patch, NAME)
      const value = (field: (typeof SESSION_CONTEXT_FIELDS)[number]) => (checked[field] === undefined ? null : checked[field])
      const stored = await rows(
        `INSERT INTO session_context ("sessionId", active_organization_id, impersonator_id, sign_in_provider)
         SELECT id, $2, $3, $4 FROM sessions WHERE "sessionToken" = $1
         ON CONFLICT ("sessionId") DO UPDATE SET
           active_organization_id = CASE WHEN $5::boolean THEN excluded.active_organization_id ELSE session_context.active_organization_id END,
           impersonator_id = CASE WHEN $6::boolean THEN excluded.impersonator_id ELSE session_context.impersonator_id END,
           sign_in_provider = CASE WHEN $7::boolean THEN excluded.sign_in_provider ELSE session_context.sign_in_provider END
         RETURNING "sessionId"`,
        [
          sessionToken,
          value("activeOrganizationId"),
          value("impersonatorId"),
          value("signInProvider"),
          ...SESSION_CONTEXT_FIELDS.map((field) => field in checked),
        ],
      )
      return stored.length > 0
    },

    listSessionsByUserId: async (userId) =>
      (
        await rowsById(
          `SELECT s.id::text AS id, s."sessionToken", s."userId"::text AS "userId", s.expires,
                  d."sessionId" IS NOT NULL AS detailed, d.created_at, d.user_agent, d.idp_provider, d.idp_sid,
                  a."sessionId" IS NOT NULL AS authenticated, a.aal, a.amr, a.second_factor_at
           FROM sessions s LEFT JOIN session_details d ON d."sessionId" = s.id LEFT JOIN session_authentication a ON a."sessionId" = s.id
           WHERE s."userId" = $1`,
          [userId],
        )
      ).map((row) => ({ ...toSession(row), id: String(row.id), details: toSessionDetails(row) })),

    deleteSessionsByIdpSid: async (provider, sid) =>
      (
        await rows(
          `DELETE FROM sessions WHERE id IN (SELECT "sessionId" FROM session_details WHERE idp_provider = $1 AND idp_sid = $2) RETURNING "userId"::text AS "userId"`,
          [provider, sid],
        )
      ).map((row) => String(row.userId)),

    getSessionVersion: async (userId) => {
      try {
        return Number((await rows(`SELECT version FROM session_versions WHERE "userId" = $1`, [userId]))[0]?.version ?? 0)
      } catch (error) {
        // A database migrated before session versions existed: no revocation can have been stored,
        // so every version is 0 (incrementSessionVersion still fails, naming the missing table).
        if (sqlState(error) === "42P01") return 0
        throw error
      }
    },

    // One statement: concurrent calls queue on the row lock, so each gets its own number.
    incrementSessionVersion: async (userId) =>
      Number(
        (
          await rows(
            `INSERT INTO session_versions ("userId", version) VALUES ($1, 1)
             ON CONFLICT ("userId") DO UPDATE SET version = session_versions.version + 1
             RETURNING version`,
            [userId],
          )
        )[0]!.version,
      ),

    createVerificationToken: async ({ identifier, token, expires }) => {
      const found = await rows(
        `INSERT INTO verification_token (identifier, token, expires) VALUES ($1, $2, $3) RETURNING ${TOKEN}`,
        [identifier, token, expires],
      )
      return toToken(found[0]!)
    },

    // One statement: concurrent calls on a key queue on its row lock (a racing first insert turns
    // into the update), so each gets its own count. The CASEs read the row as it was before this
    // update; `now` is the application's clock, never the server's.
    hitRateLimit: async (key, windowSeconds) => {
      const windowMs = windowMilliseconds(windowSeconds)
      const now = Date.now()
      const found = await rows(
        `INSERT INTO rate_limits (key, count, reset_at) VALUES ($1, 1, $2)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.reset_at <= $3 THEN 1 ELSE rate_limits.count + 1 END,
           reset_at = CASE WHEN rate_limits.reset_at <= $3 THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
         RETURNING count`,
        [key, now + windowMs, now],
      )
      if (++rateLimitCalls % RATE_LIMIT_PRUNE_EVERY === 0) {
        // Housekeeping only (the next sweep retries); the hit above is counted and must be reported.
        await db.query(`DELETE FROM rate_limits WHERE reset_at < $1`, [now - RATE_LIMIT_PRUNE_AFTER_MS]).catch(() => {})
      }
      return Number(found[0]!.count)
    },

    // One statement: of any number of concurrent calls, exactly one gets the row. Expiry is the
    // caller's check, as in Auth.js; an expired token is still consumed and returned.
    useVerificationToken: async ({ identifier, token }) =>
      first(await rows(`DELETE FROM verification_token WHERE identifier = $1 AND token = $2 RETURNING ${TOKEN}`, [identifier, token]), toToken),

    deleteVerificationTokens: async (identifier) =>
      (await rows(`DELETE FROM verification_token WHERE identifier = $1 RETURNING identifier`, [identifier])).length,

    createAuthenticator: async (authenticator) => {
      const found = await rows(
        `INSERT INTO authenticators ("credentialID", "userId", "providerAccountId", "credentialPublicKey", counter,
           "credentialDeviceType", "credentialBackedUp", transports)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${AUTHENTICATOR}`,
        [
          authenticator.credentialID,
          authenticator.userId,
          authenticator.providerAccountId,
          authenticator.credentialPublicKey,
          authenticator.counter,
          authenticator.credentialDeviceType,
          authenticator.credentialBackedUp,
          authenticator.transports ?? null,
        ],
      )
      return toAuthenticator(found[0]!)
    },

    getAuthenticator: async (credentialID) =>
      first(await rows(`SELECT ${AUTHENTICATOR} FROM authenticators WHERE "credentialID" = $1`, [credentialID]), toAuthenticator),

    listAuthenticatorsByUserId: async (userId) =>
      (await rowsById(`SELECT ${AUTHENTICATOR} FROM authenticators WHERE "userId" = $1 ORDER BY "credentialID"`, [userId])).map(toAuthenticator),

    updateAuthenticatorCounter: async (credentialID, newCounter) => {
      const updated = first(
        await rows(`UPDATE authenticators SET counter = $2 WHERE "credentialID" = $1 RETURNING ${AUTHENTICATOR}`, [credentialID, newCounter]),
        toAuthenticator,
      )
      if (!updated) throw new Error(`updateAuthenticatorCounter: no authenticator with credentialID ${JSON.stringify(credentialID)}`)
      return updated
    },

    deleteAuthenticator: async (credentialID) =>
      first(await rows(`DELETE FROM authenticators WHERE "credentialID" = $1 RETURNING ${AUTHENTICATOR}`, [credentialID]), toAuthenticator),

    getTwoFactor: async (userId) =>
      first(
        await rowsById(
          `SELECT ${TWO_FACTOR},
                  (SELECT count(*) FROM two_factor_recovery_codes c WHERE c."userId" = t."userId" AND c.generation = t.codes_generation) AS codes_left
           FROM two_factor t WHERE t."userId" = $1`,
          [userId],
        ),
        (row) => twoFactorFromRow(row, toDate),
      ),

    // The foreign key refuses an unknown user.
    setTotpPendingSecret: async (userId, sealed) => {
      checkText(sealed, "the sealed secret", NAME)
      await rows(
        `INSERT INTO two_factor ("userId", totp_pending_secret, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT ("userId") DO UPDATE SET totp_pending_secret = excluded.totp_pending_secret, updated_at = excluded.updated_at`,
        [userId, sealed, new Date()],
      )
    },

    // One statement, so one transaction: the compare on the pending secret, the secret, the step
    // and the new codes. A concurrent confirmation waits on the row lock, then finds the pending
    // secret gone and changes nothing.
    enableTotp: async (userId, { sealed, step, recoveryCodeHashes }) => {
      checkText(sealed, "the sealed secret", NAME)
      checkTotpStep(step, NAME)
      const hashes = checkHashes(recoveryCodeHashes, NAME)
      const found = await rowsById(
        `WITH enabled AS (
           UPDATE two_factor SET totp_secret = $2, totp_pending_secret = NULL, totp_last_step = $3, enabled_at = $4,
             trust_version = trust_version + 1, codes_generation = codes_generation + 1, updated_at = $4
           WHERE "userId" = $1 AND totp_pending_secret = $2
           RETURNING "userId", codes_generation
         ),
         cleared AS (DELETE FROM two_factor_recovery_codes c USING enabled e WHERE c."userId" = e."userId"),
         added AS (
           INSERT INTO two_factor_recovery_codes ("userId", code_hash, generation)
           SELECT e."userId", h, e.codes_generation FROM enabled e CROSS JOIN unnest($5::text[]) AS h
         )
         SELECT 1 AS enabled FROM enabled`,
        [userId, sealed, step, new Date(), hashes],
      )
      return found.length > 0
    },

    // One statement, a compare-and-set: a concurrent use of the same step waits on the row lock,
    // then sees the step recorded and matches nothing.
    useTotpStep: async (userId, step) => {
      checkTotpStep(step, NAME)
      const found = await rowsById(
        `UPDATE two_factor SET totp_last_step = $2, updated_at = $3
         WHERE "userId" = $1 AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2)
         RETURNING "userId"::text AS "userId"`,
        [userId, step, new Date()],
      )
      return found.length > 0
    },

    updateTotpSecret: async (userId, sealed, previousSealed) => {
      checkText(sealed, "the sealed secret", NAME)
      const found = await rowsById(
        `UPDATE two_factor SET totp_secret = $2, updated_at = $4 WHERE "userId" = $1 AND totp_secret = $3 RETURNING "userId"::text AS "userId"`,
        [userId, sealed, previousSealed, new Date()],
      )
      return found.length > 0
    },

    // One statement. The delete cannot see codes a concurrent replacement committed meanwhile, so
    // the codes are written under the bumped generation and only the current one counts.
    replaceRecoveryCodes: async (userId, hashes) => {
      const unique = checkHashes(hashes, NAME)
      await rows(
        `WITH bumped AS (
           INSERT INTO two_factor ("userId", trust_version, codes_generation, updated_at) VALUES ($1, 1, 1, $3)
           ON CONFLICT ("userId") DO UPDATE SET trust_version = two_factor.trust_version + 1,
             codes_generation = two_factor.codes_generation + 1, updated_at = excluded.updated_at
           RETURNING "userId", codes_generation
         ),
         cleared AS (DELETE FROM two_factor_recovery_codes c USING bumped b WHERE c."userId" = b."userId"),
         added AS (
           INSERT INTO two_factor_recovery_codes ("userId", code_hash, generation)
           SELECT b."userId", h, b.codes_generation FROM bumped b CROSS JOIN unnest($2::text[]) AS h
         )
         SELECT 1 AS replaced FROM bumped`,
        [userId, unique, new Date()],
      )
    },

    // One statement: of concurrent uses of a code exactly one deletes it.
    useRecoveryCode: async (userId, hash) =>
      (
        await rowsById(
          `DELETE FROM two_factor_recovery_codes c USING two_factor t
           WHERE c."userId" = $1 AND c.code_hash = $2 AND t."userId" = c."userId" AND c.generation = t.codes_generation
           RETURNING c.code_hash`,
          [userId, hash],
        )
      ).length > 0,

    incrementTwoFactorTrustVersion: async (userId) =>
      Number(
        (await rowsById(`UPDATE two_factor SET trust_version = trust_version + 1, updated_at = $2 WHERE "userId" = $1 RETURNING trust_version`, [userId, new Date()]))[0]
          ?.trust_version ?? 0,
      ),

    deleteTwoFactor: async (userId) =>
      (
        await rowsById(
          `WITH codes AS (DELETE FROM two_factor_recovery_codes WHERE "userId" = $1 RETURNING 1),
           removed AS (DELETE FROM two_factor WHERE "userId" = $1 RETURNING 1)
           SELECT 1 FROM codes UNION ALL SELECT 1 FROM removed`,
          [userId],
        )
      ).length > 0,

    createOrganization: async (organization, ownerId) => {
      const id = typeof organization.id === "string" && organization.id !== "" ? organization.id : globalThis.crypto.randomUUID()
      // One statement: the organization and its owner together. The owner's id goes through a
      // lookup in users, so an unknown owner is a NULL that the NOT NULL column refuses, and the
      // whole statement (the organization too) fails.
      const found = await rows(
        `WITH org AS (
           INSERT INTO organizations (id, name, slug, created_at, policy) VALUES ($1, $2, $3, $4, $5::jsonb)
           ON CONFLICT (slug) DO NOTHING RETURNING ${ORGANIZATION}
         ),
         owner AS (
           INSERT INTO organization_members (organization_id, "userId", role, created_at)
           SELECT org.id, (SELECT u.id FROM users u WHERE u.id = $6), '${OWNER_ROLE}', org.created_at FROM org
           RETURNING 1
         )
         SELECT org.*, (SELECT count(*) FROM owner) AS owners FROM org`,
        [
          id,
          checkText(organization.name, "organization.name", NAME),
          checkText(organization.slug, "organization.slug", NAME),
          checkDate(organization.createdAt ?? new Date(), "organization.createdAt"),
          jsonParameter(organization.policy),
          checkText(ownerId, "ownerId", NAME),
        ],
      )
      return found[0] ? toOrganization(found[0]) : "slug-taken"
    },

    getOrganization: async (key) =>
      first(
        "id" in key
          ? await rows(`SELECT ${ORGANIZATION} FROM organizations WHERE id = $1`, [key.id])
          : await rows(`SELECT ${ORGANIZATION} FROM organizations WHERE slug = $1`, [key.slug]),
        toOrganization,
      ),

    updateOrganization: async (id, patch) => {
      const values: unknown[] = [id]
      const sets: string[] = []
      if (patch.name !== undefined) {
        values.push(checkText(patch.name, "organization.name", NAME))
        sets.push(`name = $${values.length}`)
      }
      if (patch.slug !== undefined) {
        values.push(checkText(patch.slug, "organization.slug", NAME))
        sets.push(`slug = $${values.length}`)
      }
      if (patch.policy !== undefined) {
        values.push(jsonParameter(patch.policy))
        sets.push(`policy = $${values.length}::jsonb`)
      }
      if (sets.length === 0) return first(await rows(`SELECT ${ORGANIZATION} FROM organizations WHERE id = $1`, values), toOrganization)
      try {
        return first(await rows(`UPDATE organizations SET ${sets.join(", ")} WHERE id = $1 RETURNING ${ORGANIZATION}`, values), toOrganization)
      } catch (error) {
        // The unique constraint decides, so two renames to one slug cannot both pass a check first.
        if (sqlState(error) === "23505" && (error as { constraint?: unknown }).constraint === "organizations_slug_key") return "slug-taken"
        throw error
      }
    },

    deleteOrganization: async (id) => (await rows(`DELETE FROM organizations WHERE id = $1 RETURNING id`, [id])).length > 0,

    listOrganizationsByUserId: async (userId) =>
      (
        await rowsById(
          `SELECT o.id, o.name, o.slug, o.created_at, o.policy, m.role AS member_role, m.created_at AS joined_at
           FROM organization_members m JOIN organizations o ON o.id = m.organization_id
           WHERE m."userId" = $1 ORDER BY m.created_at, m.organization_id`,
          [userId],
        )
      ).map((row) => ({ organization: toOrganization(row), role: String(row.member_role), joinedAt: toDate(row.joined_at) })),

    addMember: async (member) => {
      // Not rowsById: an id that cannot be a user's must reject, as an unknown one does.
      const found = await rows(
        `INSERT INTO organization_members (organization_id, "userId", role, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (organization_id, "userId") DO NOTHING RETURNING ${MEMBER}`,
        [member.organizationId, member.userId, checkText(member.role, "member.role", NAME), checkDate(member.createdAt ?? new Date(), "member.createdAt")],
      )
      return found[0] ? toMember(found[0]) : "already-member"
    },

    getMember: async (organizationId, userId) =>
      first(await rowsById(`SELECT ${MEMBER} FROM organization_members WHERE organization_id = $1 AND "userId" = $2`, [organizationId, userId]), toMember),

    getMembership: async (organizationId, userId) =>
      first(
        await rowsById(
          `SELECT o.id, o.name, o.slug, o.created_at, o.policy, m.role AS member_role, m.created_at AS joined_at
           FROM organization_members m JOIN organizations o ON o.id = m.organization_id
           WHERE m.organization_id = $1 AND m."userId" = $2`,
          [organizationId, userId],
        ),
        (row) => ({ organization: toOrganization(row), role: String(row.member_role), joinedAt: toDate(row.joined_at) }),
      ),

    updateMemberRole: async (organizationId, userId, role) => {
      const found = await rowsById(
        `WITH ${LOCKED_OWNERS}
         UPDATE organization_members m SET role = $3::text
         WHERE m.organization_id = $1 AND m."userId" = $2
           AND (m.role <> '${OWNER_ROLE}' OR $3::text = '${OWNER_ROLE}' OR EXISTS (SELECT 1 FROM owners o WHERE o."userId" <> $2))
         RETURNING ${MEMBER}`,
        [organizationId, userId, checkText(role, "role", NAME)],
      )
      return found[0] ? toMember(found[0]) : refusalOf(organizationId, userId)
    },

    removeMember: async (organizationId, userId) => {
      const found = await rowsById(
        `WITH ${LOCKED_OWNERS}
         DELETE FROM organization_members m
         WHERE m.organization_id = $1 AND m."userId" = $2
           AND (m.role <> '${OWNER_ROLE}' OR EXISTS (SELECT 1 FROM owners o WHERE o."userId" <> $2))
         RETURNING ${MEMBER}`,
        [organizationId, userId],
      )
      return found[0] ? toMember(found[0]) : refusalOf(organizationId, userId)
    },

    listMembers: async (organizationId, { after, limit, search }) => {
      const values: unknown[] = [organizationId]
      const where = [`m.organization_id = $1`]
      if (after) {
        values.push(checkDate(after.createdAt, "after.createdAt"), after.userId)
        where.push(`(m.created_at, m."userId") > ($${values.length - 1}, $${values.length})`)
      }
      const pattern = likePrefix(search)
      if (pattern !== null) {
        values.push(pattern)
        where.push(`(u.email ILIKE $${values.length} OR u.name ILIKE $${values.length})`)
      }
      values.push(checkLimit(NAME, limit))
      return (
        await rowsById(
          `SELECT m.organization_id, m."userId"::text AS "userId", m.role, m.created_at, u.name, u.email, u.image
           FROM organization_members m JOIN users u ON u.id = m."userId"
           WHERE ${where.join(" AND ")} ORDER BY m.created_at, m."userId" LIMIT $${values.length}`,
          values,
        )
      ).map((row): AdapterMemberListing => ({
        ...toMember(row),
        user: { name: (row.name ?? null) as string | null, email: row.email as string, image: (row.image ?? null) as string | null },
      }))
    },

    createInvitation: async (invitation) => {
      const found = await rows(
        `INSERT INTO organization_invitations (${INVITATION}) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8) RETURNING ${INVITATION}`,
        [
          typeof invitation.id === "string" && invitation.id !== "" ? invitation.id : globalThis.crypto.randomUUID(),
          invitation.organizationId,
          checkText(invitation.email, "invitation.email", NAME),
          checkText(invitation.role, "invitation.role", NAME),
          checkText(invitation.inviterId, "invitation.inviterId", NAME),
          checkText(invitation.tokenHash, "invitation.tokenHash", NAME),
          checkDate(invitation.expiresAt, "invitation.expiresAt"),
          checkDate(invitation.createdAt ?? new Date(), "invitation.createdAt"),
        ],
      )
      return toInvitation(found[0]!)
    },

    getInvitation: async (id) => first(await rows(`SELECT ${INVITATION} FROM organization_invitations WHERE id = $1`, [id]), toInvitation),

    getInvitationByTokenHash: async (tokenHash) =>
      first(await rows(`SELECT ${INVITATION} FROM organization_invitations WHERE token_hash = $1`, [tokenHash]), toInvitation),

    // One conditional UPDATE: a concurrent one waits for the row and re-checks the status it changed.
    setInvitationStatus: async (id, from, to) =>
      first(
        await rows(`UPDATE organization_invitations SET status = $3 WHERE id = $1 AND status = $2 RETURNING ${INVITATION}`, [
          id,
          checkText(from, "from", NAME),
          checkText(to, "to", NAME),
        ]),
        toInvitation,
      ),

    listInvitations: async (organizationId) =>
      (await rows(`SELECT ${INVITATION} FROM organization_invitations WHERE organization_id = $1 ORDER BY created_at DESC, id DESC`, [organizationId])).map(toInvitation),

    appendAuditEntry: async (entry) => {
      const found = await rows(
        `INSERT INTO audit_log (${AUDIT}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb) RETURNING ${AUDIT}`,
        [
          typeof entry.id === "string" && entry.id !== "" ? entry.id : globalThis.crypto.randomUUID(),
          entry.actorId ?? null,
          checkText(entry.action, "entry.action", NAME),
          entry.organizationId ?? null,
          entry.targetType ?? null,
          entry.targetId ?? null,
          entry.ip ?? null,
          entry.userAgent ?? null,
          checkDate(entry.createdAt ?? new Date(), "entry.createdAt"),
          jsonParameter(entry.details),
        ],
      )
      return toAuditEntry(found[0]!)
    },

    listAuditEntries: async ({ organizationId, actorId, action, before, limit }) => {
      const values: unknown[] = []
      const where: string[] = []
      const filter = (condition: (next: number) => string, ...given: unknown[]): void => {
        values.push(...given)
        where.push(condition(values.length - given.length + 1))
      }
      if (organizationId !== undefined) filter((n) => `organization_id = $${n}`, organizationId)
      if (actorId !== undefined) filter((n) => `actor_id = $${n}`, actorId)
      if (action !== undefined) filter((n) => `action = $${n}`, action)
      if (before) filter((n) => `(created_at, id) < ($${n}, $${n + 1})`, checkDate(before.createdAt, "before.createdAt"), before.id)
      values.push(checkLimit(NAME, limit))
      return (
        await rows(
          `SELECT ${AUDIT} FROM audit_log ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id DESC LIMIT $${values.length}`,
          values,
        )
      ).map(toAuditEntry)
    },

    getUserStatus: async (userId) => first(await rowsById(`SELECT ${USER_STATUS} FROM user_status WHERE "userId" = $1`, [userId]), toUserStatus),

    // Not rowsById: an id that cannot be a user's must reject, as the foreign key rejects an unknown one.
    setUserRole: async (userId, role) => {
      await rows(`INSERT INTO user_status ("userId", role) VALUES ($1, $2) ON CONFLICT ("userId") DO UPDATE SET role = excluded.role`, [
        userId,
        role === null ? null : checkText(role, "role", NAME),
      ])
    },

    banUser: async (userId, { banReason, banExpiresAt, bannedBy }) => {
      await rows(
        `INSERT INTO user_status ("userId", banned_at, ban_reason, ban_expires_at, banned_by) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("userId") DO UPDATE SET banned_at = excluded.banned_at, ban_reason = excluded.ban_reason,
           ban_expires_at = excluded.ban_expires_at, banned_by = excluded.banned_by`,
        [userId, new Date(), banReason ?? null, banExpiresAt === null || banExpiresAt === undefined ? null : checkDate(banExpiresAt, "banExpiresAt"), bannedBy ?? null],
      )
    },

    unbanUser: async (userId) =>
      (
        await rowsById(
          `UPDATE user_status SET banned_at = NULL, ban_reason = NULL, ban_expires_at = NULL, banned_by = NULL
           WHERE "userId" = $1 AND banned_at IS NOT NULL RETURNING "userId"`,
          [userId],
        )
      ).length > 0,

    searchUsers: async ({ after, limit, search }) => {
      const values: unknown[] = []
      const where: string[] = []
      // The primary key is walked from the cursor on (integer order on an Auth.js SERIAL id).
      if (after !== undefined) {
        values.push(after)
        where.push(`id > $${values.length}`)
      }
      const pattern = likePrefix(search)
      if (pattern !== null) {
        values.push(pattern)
        where.push(`(email ILIKE $${values.length} OR name ILIKE $${values.length})`)
      }
      values.push(checkLimit(NAME, limit))
      return (
        await rowsById(`SELECT ${USER} FROM users ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id LIMIT $${values.length}`, values)
      ).map(toUser)
    },
  }, db)

  /** Why a guarded change matched no row: the member is not there, or is the last owner. */
  async function refusalOf(organizationId: string, userId: string): Promise<MemberChangeRefusal> {
    const found = await rowsById(`SELECT 1 FROM organization_members WHERE organization_id = $1 AND "userId" = $2`, [organizationId, userId])
    return found.length > 0 ? "last-owner" : "not-found"
  }
}

export default PostgresAdapter
