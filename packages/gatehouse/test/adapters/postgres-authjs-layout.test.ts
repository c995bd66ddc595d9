/**
 * An existing Auth.js database: @auth/pg-adapter's documented schema (SERIAL integer ids, no
 * foreign keys, no unique indexes), with rows written the way that adapter writes them. After
 * migrate() Gatehouse must read those rows and pass the conformance suite on that layout.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { hashSessionTokens, migrate, PostgresAdapter } from "../../src/adapters/postgres.js"
import { Auth } from "../../src/core/handler.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { secret, storedKey } from "../flow/flow-helpers.js"
import { runAdapterConformance } from "../../src/testing/adapter.js"
import { testSchema } from "../support/postgres.js"
import { authjsSchema } from "./authjs-adapters/pg-adapter-schema.js"

const expires = new Date("2031-01-02T03:04:05.000Z")
const verified = new Date("2024-06-01T10:00:00.000Z")

describe("an Auth.js database with rows in it", () => {
  const schema = testSchema()
  const pool = schema.pool()
  const adapter = PostgresAdapter(pool)
  let userId = ""
  let sessionId = ""

  beforeAll(async () => {
    await schema.create()
    await pool.query(authjsSchema)
    // The statements @auth/pg-adapter runs for createUser, createSession and linkAccount.
    const user = await pool.query(
      `INSERT INTO users (name, email, "emailVerified", image) VALUES ($1, $2, $3, $4) RETURNING id, name, email, "emailVerified", image`,
      ["Ada Lovelace", "ada@example.com", verified, "https://example.com/ada.png"],
    )
    userId = String(user.rows[0].id)
    const session = await pool.query(`INSERT INTO sessions ("userId", expires, "sessionToken") VALUES ($1, $2, $3) RETURNING id`, [userId, expires, "authjs-session-token"])
    sessionId = String(session.rows[0].id)
    await pool.query(
      `INSERT INTO accounts ("userId", provider, type, "providerAccountId", access_token, expires_at, refresh_token, id_token, scope, session_state, token_type)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [userId, "github", "oauth", "gh-12345", "gho_token", 1_900_000_000, null, null, "read:user", null, "bearer"],
    )
    // Auth.js never deleted a user's sessions reliably: an orphan must not block the migration.
    await pool.query(`INSERT INTO sessions ("userId", expires, "sessionToken") VALUES (999999, $1, 'orphan')`, [expires])
    await migrate(pool)
  })
  afterAll(() => schema.drop())

  test("migrate keeps the layout and adds keys, indexes, rate_limits and session_versions, the foreign keys NOT VALID", async () => {
    const types = await pool.query(
      `SELECT table_name, data_type FROM information_schema.columns
       WHERE table_schema = $1 AND column_name IN ('id', 'userId') ORDER BY table_name, column_name`,
      [schema.name],
    )
    expect(types.rows).toEqual([
      { table_name: "accounts", data_type: "integer" },
      { table_name: "accounts", data_type: "integer" },
      // Gatehouse's own audit log: its id is its own, and it names no user by foreign key.
      { table_name: "audit_log", data_type: "text" },
      // Created by migrate: its userId matches users.id so the foreign key can exist.
      { table_name: "authenticators", data_type: "integer" },
      // Gatehouse's own record of the migrations applied (its id is the step's).
      { table_name: "gatehouse_migrations", data_type: "text" },
      // Gatehouse's own, for organizations: the members' userId matches users.id for the foreign key.
      { table_name: "organization_invitations", data_type: "text" },
      { table_name: "organization_members", data_type: "integer" },
      { table_name: "organizations", data_type: "text" },
      // Gatehouse's own, without a foreign key: any user id fits.
      { table_name: "session_versions", data_type: "text" },
      { table_name: "sessions", data_type: "integer" },
      { table_name: "sessions", data_type: "integer" },
      // Gatehouse's own, for two-factor sign-in: userId matches users.id for the foreign key.
      { table_name: "two_factor", data_type: "integer" },
      { table_name: "two_factor_recovery_codes", data_type: "integer" },
      // Gatehouse's own, for the admin API: userId matches users.id for the foreign key.
      { table_name: "user_status", data_type: "integer" },
      { table_name: "users", data_type: "integer" },
    ])
    const fks = await pool.query(
      `SELECT conrelid::regclass::text AS "table", convalidated FROM pg_constraint
       WHERE contype = 'f' AND connamespace = $1::regnamespace ORDER BY 1`,
      [schema.name],
    )
    expect(fks.rows).toEqual([
      { table: "accounts", convalidated: false },
      // A table migrate creates gets its key inline, checked from the start.
      { table: "authenticators", convalidated: true },
      { table: "organization_invitations", convalidated: true },
      { table: "organization_members", convalidated: true },
      { table: "organization_members", convalidated: true },
      // Gatehouse's own: its sessionId takes the type of Auth.js's SERIAL sessions.id.
      { table: "session_authentication", convalidated: true },
      { table: "session_context", convalidated: true },
      { table: "session_details", convalidated: true },
      { table: "sessions", convalidated: false },
      { table: "two_factor", convalidated: true },
      { table: "two_factor_recovery_codes", convalidated: true },
      { table: "user_status", convalidated: true },
    ])
    // Gatehouse's own table, which Auth.js's schema has no counterpart of.
    const rateLimits = await pool.query(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'rate_limits' ORDER BY ordinal_position`,
      [schema.name],
    )
    expect(rateLimits.rows).toEqual([
      { column_name: "key", data_type: "text" },
      { column_name: "count", data_type: "integer" },
      { column_name: "reset_at", data_type: "bigint" },
    ])
    const unique = await pool.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE 'CREATE UNIQUE%' ORDER BY 1`, [schema.name])
    expect(unique.rows.map((row) => row.indexname)).toEqual(
      expect.arrayContaining(["accounts_provider_providerAccountId_key", "sessions_sessionToken_key"]),
    )
  })

  test("getSessionAndUser reads the session and user Auth.js wrote", async () => {
    expect(await adapter.getSessionAndUser("authjs-session-token")).toEqual({
      // Nothing recorded of how Auth.js's session was authenticated: it reads as one factor.
      session: { id: sessionId, sessionToken: "authjs-session-token", userId, expires, authentication: null, context: null },
      user: { id: userId, name: "Ada Lovelace", email: "ada@example.com", emailVerified: verified, image: "https://example.com/ada.png" },
    })
    // The orphan session has no user to join.
    expect(await adapter.getSessionAndUser("orphan")).toBeNull()
  })

  test("getUserByAccount and getAccount read the account Auth.js wrote", async () => {
    expect((await adapter.getUserByAccount({ provider: "github", providerAccountId: "gh-12345" }))?.id).toBe(userId)
    expect(await adapter.getAccount("gh-12345", "github")).toEqual({
      userId,
      type: "oauth",
      provider: "github",
      providerAccountId: "gh-12345",
      access_token: "gho_token",
      expires_at: 1_900_000_000,
      scope: "read:user",
      token_type: "bearer",
    })
  })

  test("PostgreSQL assigns user ids; ids that cannot be integers find nothing", async () => {
    const created = await adapter.createUser({ id: "42", email: "grace@example.com", emailVerified: null })
    expect(created.id).toMatch(/^\d+$/)
    expect(Number(created.id)).toBeGreaterThan(Number(userId))
    expect((await adapter.getUser(created.id))?.email).toBe("grace@example.com")
    expect(await adapter.getUser("not-a-number")).toBeNull()
    expect(await adapter.getUser("99999999999999999999")).toBeNull()
    expect(await adapter.deleteUser("not-a-number")).toBeNull()
    expect(await adapter.listAuthenticatorsByUserId("not-a-number")).toEqual([])
    await expect(adapter.updateUser({ id: "not-a-number", name: "x" })).rejects.toThrow(/no user/)
  })

  test("new rows are checked against users, and deleting a user cascades", async () => {
    await expect(adapter.createSession({ sessionToken: "dangling", userId: "424242", expires })).rejects.toMatchObject({ code: "23503" })
    const user = await adapter.createUser({ id: "", email: "cascade@example.com", emailVerified: null })
    await adapter.createSession({ sessionToken: "to-cascade", userId: user.id, expires })
    expect(await adapter.deleteUser(user.id)).toMatchObject({ id: user.id })
    expect(await pool.query(`SELECT 1 FROM sessions WHERE "sessionToken" = 'to-cascade'`)).toMatchObject({ rowCount: 0 })
  })

  test("hashSessionTokens hashes the tokens Auth.js stored, once, and the same cookies then find their sessions", async () => {
    const config: AuthConfig & { raw?: undefined } = { secret, trustHost: true, adapter, providers: [Credentials({ authorize: () => null })] }
    const sessionOf = async (token: string) =>
      (await Auth(new Request("https://app.test/auth/session", { headers: { cookie: `__Secure-authjs.session-token=${token}` } }), config)).json()
    // Hashing is on by default, and the raw row is still found, so the switch signs no one out.
    expect(await sessionOf("authjs-session-token")).toMatchObject({ user: { email: "ada@example.com" } })
    const raw = await pool.query(`SELECT 1 FROM sessions WHERE "sessionToken" NOT LIKE 'sha256:%'`)
    expect(raw.rowCount).toBeGreaterThan(0)
    expect(await hashSessionTokens(pool)).toBe(raw.rowCount)
    const stored = await pool.query(`SELECT "sessionToken" FROM sessions WHERE "userId" = $1`, [userId])
    expect(stored.rows.map((row) => row.sessionToken)).toEqual([storedKey("authjs-session-token")])
    expect(await sessionOf("authjs-session-token")).toMatchObject({ user: { email: "ada@example.com" } })
    // Again: nothing left to convert, and a hash is never hashed twice.
    expect(await hashSessionTokens(pool)).toBe(0)
    expect(await sessionOf("authjs-session-token")).toMatchObject({ user: { email: "ada@example.com" } })
  })
})

describe("PostgresAdapter conformance on an Auth.js (SERIAL id) database", () => {
  const schema = testSchema()
  const pool = schema.pool()

  beforeAll(async () => {
    await schema.create()
    await pool.query(authjsSchema)
    await migrate(pool)
  })
  afterAll(() => schema.drop())

  runAdapterConformance({ adapter: PostgresAdapter(pool), test, additions: "required" })
})
