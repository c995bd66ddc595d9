import pg from "pg"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import DefaultExport, { migrate, PostgresAdapter, postgresSchema, type PostgresQueryable } from "../../src/adapters/postgres.js"
import { runAdapterConformance } from "../../src/testing/adapter.js"
import { schemaPoolConfig, testSchema, type TestSchema } from "../support/postgres.js"

const schema = testSchema()
// pg's default max is 10; the concurrency tests below want at least that many connections.
const pool = schema.pool({ max: 12 })
const adapter = PostgresAdapter(pool)

beforeAll(async () => {
  await schema.create()
  await migrate(pool)
})
afterAll(() => schema.drop())

describe("PostgresAdapter conformance", () => {
  runAdapterConformance({ adapter, test, additions: "required" })
})

const day = 24 * 60 * 60 * 1000
let serial = 0
const newUser = (fields: Partial<AdapterUser> = {}): AdapterUser => {
  serial += 1
  return { id: crypto.randomUUID(), email: `pg-${serial}-${crypto.randomUUID()}@example.com`, emailVerified: null, ...fields }
}

/** Catalog facts about the test schema, for checking what migrate() created. */
async function catalog(db: PostgresQueryable, schemaName: string) {
  const indexes = await db.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY tablename, indexname`,
    [schemaName],
  )
  const constraints = await db.query(
    `SELECT c.conrelid::regclass::text AS "table", c.conname, c.contype, c.confdeltype, c.convalidated,
            c.confrelid::regclass::text AS "references"
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE n.nspname = $1 ORDER BY 1, 2`,
    [schemaName],
  )
  return { indexes: indexes.rows, constraints: constraints.rows }
}

describe("PostgresAdapter", () => {
  test("is also the default export, satisfies Adapter and takes any object with pg's query API", async () => {
    expect(DefaultExport).toBe(PostgresAdapter)
    const asContract: Adapter = adapter
    expect(typeof asContract.useVerificationToken).toBe("function")
    // A Client and a checked-out PoolClient type-check as well as a Pool.
    const client = new pg.Client({ connectionString: schema.url })
    const accepted: PostgresQueryable[] = [pool, client]
    expect(accepted).toHaveLength(2)
    const checkedOut = await pool.connect()
    try {
      expect(await PostgresAdapter(checkedOut).getUser(crypto.randomUUID())).toBeNull()
    } finally {
      checkedOut.release()
    }
  })

  test("gives back the session row's own id from every session method, as Auth.js's adapter tests expect", async () => {
    const owner = await adapter.createUser(newUser())
    const sessionToken = crypto.randomUUID()
    const created = await adapter.createSession({ sessionToken, userId: owner.id, expires: new Date(Date.now() + 86_400_000) })
    const { rows } = await pool.query<{ id: string }>(`SELECT id::text AS id FROM sessions WHERE "sessionToken" = $1`, [sessionToken])
    const stored = rows[0]!.id
    expect(created.id).toBe(stored)
    expect(created.id).not.toBe(owner.id)
    expect((await adapter.getSessionAndUser(sessionToken))?.session.id).toBe(stored)
    expect((await adapter.updateSession({ sessionToken, expires: new Date(Date.now() + 2 * 86_400_000) }))?.id).toBe(stored)
    expect((await adapter.deleteSession(sessionToken))?.id).toBe(stored)
  })

  test("can be spread and a method overridden", async () => {
    const seen: string[] = []
    const custom: Adapter = {
      ...adapter,
      getUser: async (id) => {
        seen.push(id)
        return adapter.getUser(id)
      },
    }
    const user = await adapter.createUser(newUser())
    expect((await custom.getUser!(user.id))?.email).toBe(user.email)
    expect(seen).toEqual([user.id])
    expect((await custom.getUserByEmail!(user.email))?.id).toBe(user.id)
  })

  test("keeps a pool's idle-connection errors from crashing the process, and keeps the application's own listener", () => {
    expect(pool.listenerCount("error")).toBe(1)
    // What pg does when an idle connection dies; with no listener this emit would throw.
    expect(() => pool.emit("error", new Error("terminating connection due to administrator command"))).not.toThrow()

    const own = schema.pool()
    const logged: unknown[] = []
    own.on("error", (error) => logged.push(error))
    PostgresAdapter(own)
    expect(own.listenerCount("error")).toBe(1)
    own.emit("error", new Error("idle connection lost"))
    expect(logged).toHaveLength(1)
  })

  test("leaves a single Client's errors alone: it never reconnects, so they must surface", () => {
    const client = new pg.Client(schemaPoolConfig(schema.url, schema.name))
    PostgresAdapter(client)
    expect(client.listenerCount("error")).toBe(0)
  })

  test("keeps a duplicate session token out of its error message", async () => {
    const user = await adapter.createUser(newUser())
    const sessionToken = `live-${crypto.randomUUID()}`
    await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + day) })
    const error = await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + day) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(JSON.stringify(error) + String(error) + String((error as { detail?: unknown }).detail)).not.toContain(sessionToken)
  })

  test("getSessionAndUser is one query", async () => {
    const user = await adapter.createUser(newUser({ name: "One Query" }))
    const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + day) })
    const texts: string[] = []
    const counting: PostgresQueryable = {
      query: (text, values) => {
        texts.push(text)
        return pool.query(text, values)
      },
    }
    const found = await PostgresAdapter(counting).getSessionAndUser(session.sessionToken)
    expect(found?.user.name).toBe("One Query")
    expect(found?.session.userId).toBe(user.id)
    expect(found?.session.authentication).toBeNull()
    expect(texts).toHaveLength(1)
    expect(texts[0]).toMatch(/JOIN/)
  })

  test.each([
    ["prepares its statements on a pg Client, once per connection", undefined, true],
    ["runs plain statements with preparedStatements: false", false, false],
  ])("%s", async (_, preparedStatements, expectPrepared) => {
    const user = await adapter.createUser(newUser({ name: "Prepared" }))
    const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + day) })
    const client = new pg.Client(schemaPoolConfig(schema.url, schema.name))
    await client.connect()
    try {
      const options = preparedStatements === undefined ? {} : { preparedStatements }
      const onClient = PostgresAdapter(client, options)
      for (let i = 0; i < 3; i++) expect((await onClient.getSessionAndUser(session.sessionToken))?.user.name).toBe("Prepared")
      // Another adapter on the same connection names the same text the same way (pg refuses one name for two texts).
      expect((await PostgresAdapter(client, options).getSessionAndUser(session.sessionToken))?.user.name).toBe("Prepared")
      expect((await PostgresAdapter(client, options).getUser(user.id))?.name).toBe("Prepared")
      const { rows } = await client.query<{ name: string; statement: string }>(
        `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'gatehouse_%'`,
      )
      const join = rows.filter((row) => /JOIN users/.test(row.statement))
      expect(join).toHaveLength(expectPrepared ? 1 : 0)
      expect(rows.length > 0).toBe(expectPrepared)
    } finally {
      await client.end()
    }
  })

  test("prepares on a pg Pool too, and two copies of the module agree on every statement's name", async () => {
    const user = await adapter.createUser(newUser({ name: "Two Copies" }))
    const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + day) })
    // One connection, so both copies' statements meet on it (as with hot reload or two bundles).
    const single = schema.pool({ max: 1 })
    try {
      const copy = (name: string): Promise<typeof import("../../src/adapters/postgres.js")> =>
        import(/* @vite-ignore */ `../../src/adapters/postgres.js?copy=${name}`)
      const copyA = await copy("a")
      const copyB = await copy("b")
      expect(copyA.PostgresAdapter).not.toBe(copyB.PostgresAdapter)
      const a = copyA.PostgresAdapter(single)
      const b = copyB.PostgresAdapter(single)
      // Different first statements in each copy: order-dependent names would collide here.
      expect((await a.getUser(user.id))?.name).toBe("Two Copies")
      expect((await b.getSessionAndUser(session.sessionToken))?.user.name).toBe("Two Copies")
      expect((await b.getUser(user.id))?.name).toBe("Two Copies")
      expect((await a.getSessionAndUser(session.sessionToken))?.user.name).toBe("Two Copies")
      const { rows } = await single.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'gatehouse_%'`)
      expect(rows.filter((row) => /JOIN users/.test(row.statement))).toHaveLength(1)
    } finally {
      await single.end()
    }
  })

  test("falls back to plain queries when the server lost its prepared statements (a pooler in transaction mode)", async () => {
    const user = await adapter.createUser(newUser({ name: "Lost Statements" }))
    const client = new pg.Client(schemaPoolConfig(schema.url, schema.name))
    await client.connect()
    try {
      const onClient = PostgresAdapter(client)
      expect((await onClient.getUser(user.id))?.name).toBe("Lost Statements")
      // What a transaction-mode pooler does: the next query lands where the statement does not exist.
      await client.query("DEALLOCATE ALL")
      expect((await onClient.getUser(user.id))?.name).toBe("Lost Statements")
      expect((await onClient.getUserByEmail(user.email))?.name).toBe("Lost Statements")
      const { rows } = await client.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'gatehouse_%'`)
      expect(rows).toEqual([])
    } finally {
      await client.end()
    }
  })

  test("linkAccount stores only Auth.js's columns and returns expires_at as a number", async () => {
    const user = await adapter.createUser(newUser())
    const linked = await adapter.linkAccount({
      userId: user.id,
      type: "oidc",
      provider: "google",
      providerAccountId: crypto.randomUUID(),
      access_token: "at",
      expires_at: 1_900_000_000,
      session_state: "state",
      not_a_column: "dropped",
      ext_expires_in: 3600,
    })
    expect(linked).toEqual({
      userId: user.id,
      type: "oidc",
      provider: "google",
      providerAccountId: linked.providerAccountId,
      access_token: "at",
      expires_at: 1_900_000_000,
      session_state: "state",
    })
    expect(typeof (await adapter.getAccount(linked.providerAccountId, "google"))?.expires_at).toBe("number")
  })

  test("lets PostgreSQL assign user ids: a given id is ignored, the stored one returned", async () => {
    const given = crypto.randomUUID()
    const created = await adapter.createUser(newUser({ id: given }))
    expect(created.id).not.toBe(given)
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(await adapter.getUser(given)).toBeNull()
    expect((await adapter.getUser(created.id))?.email).toBe(created.email)
  })

  test("returns users with name and image null, ids as strings and dates as Dates", async () => {
    const emailVerified = new Date(Math.floor(Date.now() / 1000) * 1000)
    const created = await adapter.createUser(newUser({ emailVerified }))
    expect(created).toEqual({ id: created.id, email: created.email, emailVerified, name: null, image: null })
    expect(created.emailVerified).toBeInstanceOf(Date)
    const updated = await adapter.updateUser({ id: created.id })
    expect(updated).toEqual(created)
    await expect(adapter.updateUser({ id: crypto.randomUUID() })).rejects.toThrow(/no user/)
  })

  test("of 50 concurrent useVerificationToken calls through a pool of 12 connections, exactly one gets the token", async () => {
    const token = { identifier: "race@example.com", token: crypto.randomUUID(), expires: new Date(Date.now() + day) }
    await adapter.createVerificationToken(token)
    const results = await Promise.all(Array.from({ length: 50 }, () => adapter.useVerificationToken({ identifier: token.identifier, token: token.token })))
    expect(results.filter((result) => result !== null)).toEqual([token])
    // The calls really ran on several connections at once.
    expect(pool.totalCount).toBeGreaterThan(1)
  })

  test("hitRateLimit counts over several connections, ending windows by the application's clock in milliseconds", async () => {
    const key = `pg-${crypto.randomUUID()}`
    const before = Date.now()
    const counts = await Promise.all(Array.from({ length: 30 }, () => adapter.hitRateLimit(key, 60)))
    const after = Date.now()
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    const { rows } = await pool.query(`SELECT count, reset_at FROM rate_limits WHERE key = $1`, [key])
    expect(rows[0].count).toBe(30)
    expect(Number(rows[0].reset_at)).toBeGreaterThanOrEqual(before + 60_000)
    expect(Number(rows[0].reset_at)).toBeLessThanOrEqual(after + 60_000)
    // A window that ended restarts at 1 with a new end.
    await pool.query(`UPDATE rate_limits SET reset_at = $2 WHERE key = $1`, [key, Date.now() - 1])
    expect(await adapter.hitRateLimit(key, 60)).toBe(1)
    const renewed = await pool.query(`SELECT reset_at FROM rate_limits WHERE key = $1`, [key])
    expect(Number(renewed.rows[0].reset_at)).toBeGreaterThan(Date.now() + 59_000)
    await expect(adapter.hitRateLimit(key, 0)).rejects.toThrow(RangeError)
  })

  test("hitRateLimit prunes rows that ended over a minute ago, on one hit in 100", async () => {
    const fresh = PostgresAdapter(pool)
    const prefix = `prune-${crypto.randomUUID()}`
    await pool.query(`INSERT INTO rate_limits (key, count, reset_at) VALUES ($1, 3, $2), ($3, 3, $4)`, [
      `${prefix}-long-ended`,
      Date.now() - 2 * 60_000,
      `${prefix}-just-ended`,
      Date.now() - 1000,
    ])
    const keys = async () =>
      (await pool.query(`SELECT key FROM rate_limits WHERE key LIKE $1 ORDER BY key`, [`${prefix}%`])).rows.map((row) => row.key)
    for (let i = 0; i < 99; i++) await fresh.hitRateLimit(`${prefix}-busy`, 60)
    expect(await keys()).toEqual([`${prefix}-busy`, `${prefix}-just-ended`, `${prefix}-long-ended`])
    expect(await fresh.hitRateLimit(`${prefix}-busy`, 60)).toBe(100)
    expect(await keys()).toEqual([`${prefix}-busy`, `${prefix}-just-ended`])
  })

  test("deleting a user in SQL removes its accounts, sessions, authenticators and second factors (ON DELETE CASCADE)", async () => {
    const user = await adapter.createUser(newUser())
    await adapter.linkAccount({ userId: user.id, type: "oauth", provider: "github", providerAccountId: crypto.randomUUID() })
    const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + day) })
    await adapter.updateSessionAuthentication(session.sessionToken, { aal: 2, amr: ["otp"], secondFactorAt: new Date() })
    await adapter.setTotpPendingSecret(user.id, "sealed")
    await adapter.replaceRecoveryCodes(user.id, ["hash"])
    await adapter.createAuthenticator({
      credentialID: crypto.randomUUID(),
      userId: user.id,
      providerAccountId: "p",
      credentialPublicKey: "k",
      counter: 2 ** 32 - 1,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    })
    expect((await adapter.listAuthenticatorsByUserId(user.id))[0]?.counter).toBe(2 ** 32 - 1)

    await pool.query(`DELETE FROM users WHERE id = $1`, [user.id])
    for (const table of ["accounts", "sessions", "authenticators", "two_factor", "two_factor_recovery_codes"]) {
      const left = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE "userId" = $1`, [user.id])
      expect(left.rows[0]?.n, table).toBe(0)
    }
    const authentication = await pool.query(`SELECT count(*)::int AS n FROM session_authentication WHERE "sessionId" = $1`, [session.id])
    expect(authentication.rows[0]?.n).toBe(0)
  })

  test("rejects a session or account for a user that does not exist (foreign keys)", async () => {
    const nobody = crypto.randomUUID()
    await expect(adapter.createSession({ sessionToken: crypto.randomUUID(), userId: nobody, expires: new Date() })).rejects.toMatchObject({ code: "23503" })
    await expect(adapter.linkAccount({ userId: nobody, type: "oauth", provider: "x", providerAccountId: "y" })).rejects.toMatchObject({ code: "23503" })
  })

  test("of concurrent replaceRecoveryCodes through a pool of 12 connections, exactly one set of codes stands", async () => {
    const user = await adapter.createUser(newUser())
    await adapter.replaceRecoveryCodes(user.id, ["before-1", "before-2"])
    const sets = Array.from({ length: 10 }, (_, i) => [`set-${i}-a`, `set-${i}-b`, `set-${i}-c`])
    await Promise.all(sets.map((hashes) => adapter.replaceRecoveryCodes(user.id, hashes)))
    expect((await adapter.getTwoFactor(user.id))?.recoveryCodesLeft).toBe(3)
    expect(await adapter.useRecoveryCode(user.id, "before-1")).toBe(false)
    const usable: number[] = []
    for (const [i, hashes] of sets.entries()) if (await adapter.useRecoveryCode(user.id, hashes[0]!)) usable.push(i)
    expect(usable).toHaveLength(1)
    expect((await adapter.getTwoFactor(user.id))?.recoveryCodesLeft).toBe(2)
  })

  test("an enableTotp racing replaceRecoveryCodes leaves exactly one set of codes standing", async () => {
    const user = await adapter.createUser(newUser())
    await adapter.setTotpPendingSecret(user.id, "sealed")
    const sets = Array.from({ length: 6 }, (_, i) => [`race-${i}-a`, `race-${i}-b`])
    const [enabled] = await Promise.all([
      adapter.enableTotp(user.id, { sealed: "sealed", step: 7, recoveryCodeHashes: ["enable-a", "enable-b"] }),
      ...sets.map((hashes) => adapter.replaceRecoveryCodes(user.id, hashes)),
    ])
    expect(enabled).toBe(true)
    expect((await adapter.getTwoFactor(user.id))?.recoveryCodesLeft).toBe(2)
    let usable = 0
    for (const hashes of [["enable-a", "enable-b"], ...sets]) if (await adapter.useRecoveryCode(user.id, hashes[0]!)) usable++
    expect(usable).toBe(1)
  })
})

describe("migrate", () => {
  test("adds the unique indexes, the indexes and the cascading foreign keys Auth.js's schema lacks", async () => {
    const { indexes, constraints } = await catalog(pool, schema.name)
    const defs = indexes.map((row) => String(row.indexdef))
    const has = (pattern: RegExp) => expect(defs.some((def) => pattern.test(def)), String(pattern)).toBe(true)
    has(/^CREATE UNIQUE INDEX .* ON \S+\.sessions USING btree \("sessionToken"\)$/)
    has(/^CREATE UNIQUE INDEX .* ON \S+\.accounts USING btree \(provider, "providerAccountId"\)$/)
    has(/^CREATE INDEX .* ON \S+\.users USING btree \(email\)$/)
    for (const table of ["accounts", "sessions", "authenticators"]) {
      has(new RegExp(`^CREATE INDEX .* ON \\S+\\.${table} USING btree \\("userId"\\)$`))
      const fks = constraints.filter((row) => row.table === table && row.contype === "f")
      expect(fks, table).toEqual([expect.objectContaining({ references: "users", confdeltype: "c" })])
    }
    has(/^CREATE UNIQUE INDEX .* ON \S+\.authenticators USING btree \("credentialID"\)$/)
    has(/^CREATE UNIQUE INDEX .* ON \S+\.verification_token USING btree \(identifier, token\)$/)
  })

  test("run again changes nothing", async () => {
    const before = await catalog(pool, schema.name)
    await migrate(pool)
    await migrate(pool)
    expect(await catalog(pool, schema.name)).toEqual(before)
  })

  test("run by 5 clients at once on an empty schema succeeds, and leaves one schema", async () => {
    const fresh: TestSchema = testSchema()
    await fresh.create()
    const clients = Array.from({ length: 5 }, () => new pg.Client({ connectionString: fresh.url, options: `-c search_path=${fresh.name}` }))
    try {
      await Promise.all(clients.map((client) => client.connect()))
      await Promise.all(clients.map((client) => migrate(client)))
      // And through pools, which check out a connection each time.
      const pools = [fresh.pool(), fresh.pool()]
      await Promise.all(pools.map((p) => migrate(p)))
      const { indexes, constraints } = await catalog(clients[0]!, fresh.name)
      expect(await catalog(pool, schema.name)).toEqual({
        indexes: indexes.map((row) => ({ ...row, indexdef: String(row.indexdef).replace(fresh.name, schema.name) })),
        constraints,
      })
      const freshAdapter = PostgresAdapter(pools[0]!)
      const user = await freshAdapter.createUser(newUser())
      expect(await freshAdapter.getUser(user.id)).toEqual(user)
    } finally {
      await Promise.all(clients.map((client) => client.end()))
      await fresh.drop()
    }
  })

  test("leaves nothing behind when it fails", async () => {
    const broken = testSchema()
    await broken.create()
    const p = broken.pool()
    try {
      // A users table whose id no foreign key can point at (no unique key): the script must fail.
      await p.query(`CREATE TABLE users (id TEXT, name TEXT, email TEXT, "emailVerified" TIMESTAMPTZ, image TEXT)`)
      await expect(migrate(p)).rejects.toThrow()
      const tables = await p.query(`SELECT tablename FROM pg_tables WHERE schemaname = $1`, [broken.name])
      expect(tables.rows).toEqual([{ tablename: "users" }])
      expect(p.idleCount + p.waitingCount).toBe(p.totalCount)
    } finally {
      await broken.drop()
    }
  })

  test("reads every session version as 0 on a database migrated before session versions, and says so when asked to store one", async () => {
    const older = testSchema()
    await older.create()
    try {
      const p = older.pool()
      await migrate(p)
      // As a release before the table made it: without the table, and without the record that came later still.
      await p.query("DROP TABLE session_versions; DROP TABLE gatehouse_migrations")
      const stale = PostgresAdapter(p)
      expect(await stale.getSessionVersion("u1")).toBe(0)
      await expect(stale.incrementSessionVersion("u1")).rejects.toMatchObject({ code: "42P01" })
      await migrate(p)
      expect(await stale.incrementSessionVersion("u1")).toBe(1)
      expect(await stale.getSessionVersion("u1")).toBe(1)
    } finally {
      await older.drop()
    }
  })

  test("reads sessions on a database not migrated since two-factor sign-in came, as recording nothing, until migrate runs", async () => {
    const older = testSchema()
    await older.create()
    try {
      const p = older.pool()
      await migrate(p)
      // As a release before the table made it: without the table, and without the record that came later still.
      await p.query("DROP TABLE session_authentication; DROP TABLE gatehouse_migrations")
      const stale = PostgresAdapter(p)
      const user = await stale.createUser(newUser())
      const session = await stale.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + day) })
      const found = await stale.getSessionAndUser(session.sessionToken)
      expect(found?.user.id).toBe(user.id)
      expect(found?.session.authentication).toBeNull()
      await expect(stale.updateSessionAuthentication(session.sessionToken, { aal: 2, amr: ["otp"], secondFactorAt: new Date() })).rejects.toMatchObject({ code: "42P01" })
      await migrate(p)
      expect(await stale.updateSessionAuthentication(session.sessionToken, { aal: 2, amr: ["otp"], secondFactorAt: null })).toBe(true)
      expect((await stale.getSessionAndUser(session.sessionToken))?.session.authentication).toEqual({ aal: 2, amr: ["otp"], secondFactorAt: null })
    } finally {
      await older.drop()
    }
  })

  // Part B (session context).
  test("reads sessions on a database not migrated since organizations came, with their authentication and no context, until migrate runs", async () => {
    const older = testSchema()
    await older.create()
    try {
      const p = older.pool()
      await migrate(p)
      await p.query("DROP TABLE session_context; DELETE FROM gatehouse_migrations WHERE id = '0002_organizations'")
      const stale = PostgresAdapter(p)
      const user = await stale.createUser(newUser())
      const session = await stale.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + day) })
      expect(await stale.updateSessionAuthentication(session.sessionToken, { aal: 2, amr: ["otp"], secondFactorAt: null })).toBe(true)
      const found = await stale.getSessionAndUser(session.sessionToken)
      expect(found?.session.authentication).toEqual({ aal: 2, amr: ["otp"], secondFactorAt: null })
      expect(found?.session.context).toBeNull()
      await expect(stale.setSessionContext(session.sessionToken, { activeOrganizationId: "org-1" })).rejects.toMatchObject({ code: "42P01" })
      await migrate(p)
      expect(await stale.setSessionContext(session.sessionToken, { activeOrganizationId: "org-1" })).toBe(true)
      expect((await stale.getSessionAndUser(session.sessionToken))?.session.context).toEqual({ activeOrganizationId: "org-1", impersonatorId: null, signInProvider: null })
    } finally {
      await older.drop()
    }
  })

  test("exports its SQL, which runs by hand as well", async () => {
    expect(postgresSchema).toMatch(/CREATE TABLE IF NOT EXISTS users/)
    const byHand = testSchema()
    await byHand.create()
    try {
      const p = byHand.pool()
      await p.query(postgresSchema)
      await p.query(postgresSchema)
      const tables = await p.query(`SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY 1`, [byHand.name])
      expect(tables.rows.map((row) => row.tablename)).toEqual([
        "accounts",
        "authenticators",
        "rate_limits",
        "session_authentication",
        "session_details",
        "session_versions",
        "sessions",
        "two_factor",
        "two_factor_recovery_codes",
        "users",
        "verification_token",
      ])
    } finally {
      await byHand.drop()
    }
  })
})
