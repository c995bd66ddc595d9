/**
 * Per-file isolation on the run's shared PostgreSQL server: each test file works in its own fresh
 * schema (`gh_<random>`), reached through `search_path`, and drops it afterwards.
 */
import pg from "pg"
import { afterAll, beforeAll, inject } from "vitest"
import { migrate } from "../../src/adapters/postgres.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"

/** The URL of the run's server; throws the global setup's failure when there is none. */
export function postgresUrl(): string {
  const url = inject("postgresUrl")
  if (!url) throw new Error(`No PostgreSQL server for the tests: ${inject("postgresError") || "global setup did not run"}`)
  return url
}

/** A schema name no other test file uses. */
export function randomSchemaName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6))
  return `gh_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`
}

/** Pool settings that put every connection into `schema` (and only there). */
export function schemaPoolConfig(url: string, schema: string, extra: pg.PoolConfig = {}): pg.PoolConfig {
  return { connectionString: url, options: `-c search_path=${schema}`, connectionTimeoutMillis: 10_000, ...extra }
}

/** Runs `sql` once on a short-lived connection to the server (outside any test schema). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  // pg waits for a connection for ever by default: a server that went away must fail the file.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** A fresh, empty schema: create it before the tests, drop it (and everything in it) after. */
export interface TestSchema {
  name: string
  url: string
  /** A new Pool whose connections all use this schema. */
  pool(extra?: pg.PoolConfig): pg.Pool
  create(): Promise<void>
  drop(): Promise<void>
}

/**
 * Names a fresh schema without touching the server yet, so a test file can build its pool and
 * adapter at module level (the conformance suite wants the adapter then) and create the schema in
 * `beforeAll`.
 */
export function testSchema(): TestSchema {
  const url = postgresUrl()
  const name = randomSchemaName()
  const pools: pg.Pool[] = []
  return {
    name,
    url,
    pool(extra) {
      const pool = new pg.Pool(schemaPoolConfig(url, name, extra))
      pools.push(pool)
      return pool
    },
    create: () => adminQuery(url, `CREATE SCHEMA ${name}`),
    async drop() {
      // A test may have ended its pool already; ending twice throws.
      await Promise.all(pools.filter((pool) => !pool.ended && !pool.ending).map((pool) => pool.end()))
      await adminQuery(url, `DROP SCHEMA IF EXISTS ${name} CASCADE`)
    },
  }
}

/**
 * A cluster of the calling test file's own, with a migrated Pool on it, for tests that stop and
 * start the server (doing that to the run's shared server would break the other files). Registers
 * its own beforeAll/afterAll; read `server` and `pool` inside tests.
 */
export function ownMigratedPostgres(): { readonly server: PostgresServer; readonly pool: pg.Pool } {
  let server: PostgresServer | undefined
  let pool: pg.Pool | undefined
  beforeAll(async () => {
    server = await startPostgres()
    // connectionTimeoutMillis: with the server down, a connection attempt must give up, not hang.
    pool = new pg.Pool({ connectionString: server.url, max: 4, connectionTimeoutMillis: 2_000 })
    await migrate(pool)
  }, 120_000)
  afterAll(async () => {
    await pool?.end()
    await server?.destroy()
  }, 60_000)
  return {
    get server() {
      return server!
    },
    get pool() {
      return pool!
    },
  }
}
