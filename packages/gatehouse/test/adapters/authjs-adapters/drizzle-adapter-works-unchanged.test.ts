/**
 * `@auth/drizzle-adapter` unchanged, with drizzle-orm on SQLite (a better-sqlite3 file) and on
 * PostgreSQL (`pg`), each on the schema Auth.js documents for it, created by drizzle-kit from those
 * table definitions as `drizzle-kit push` would.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import Database from "better-sqlite3"
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import { createRequire } from "node:module"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { testSchema } from "../../support/postgres.js"
import { describeAuthjsAdapter } from "./authjs-adapter-checks.js"
import { pgSchema, sqliteSchema } from "./drizzle-schema.js"

/** drizzle-kit's programmatic API: the statements it would run to create the tables from nothing. */
const drizzleKit = createRequire(import.meta.url)("drizzle-kit/api") as typeof import("drizzle-kit/api")

async function sqliteStatements(): Promise<string[]> {
  return drizzleKit.generateSQLiteMigration(await drizzleKit.generateSQLiteDrizzleJson({}), await drizzleKit.generateSQLiteDrizzleJson(sqliteSchema))
}

async function pgStatements(): Promise<string[]> {
  const statements = await drizzleKit.generateMigration(drizzleKit.generateDrizzleJson({}), drizzleKit.generateDrizzleJson(pgSchema))
  // drizzle-kit names the public schema in foreign keys; each test file here has a schema of its own.
  return statements.map((statement) => statement.replaceAll('"public".', ""))
}

describeAuthjsAdapter({
  name: "@auth/drizzle-adapter on SQLite (better-sqlite3)",
  store: () => {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-drizzle-"))
    const sqlite = new Database(join(dir, "auth.db"))
    const db = drizzleSqlite(sqlite)
    return {
      adapter: DrizzleAdapter(db, sqliteSchema),
      open: async () => {
        for (const statement of await sqliteStatements()) sqlite.exec(statement)
      },
      close: async () => {
        sqlite.close()
        rmSync(dir, { recursive: true, force: true })
      },
      sessionTokens: async () => (sqlite.prepare(`SELECT "sessionToken" FROM "session"`).all() as { sessionToken: string }[]).map((row) => row.sessionToken),
      verificationTokens: async () => sqlite.prepare(`SELECT identifier, token FROM "verificationToken"`).all() as { identifier: string; token: string }[],
    }
  },
  lacks: [],
  knownLimits: {},
})

describeAuthjsAdapter({
  name: "@auth/drizzle-adapter on PostgreSQL (pg)",
  store: () => {
    const schema = testSchema()
    const pool = schema.pool({ max: 4 })
    return {
      adapter: DrizzleAdapter(drizzlePg(pool), pgSchema),
      open: async () => {
        await schema.create()
        for (const statement of await pgStatements()) await pool.query(statement)
      },
      close: () => schema.drop(),
      sessionTokens: async () => (await pool.query<{ sessionToken: string }>(`SELECT "sessionToken" FROM "session"`)).rows.map((row) => row.sessionToken),
      verificationTokens: async () => (await pool.query<{ identifier: string; token: string }>(`SELECT identifier, token FROM "verificationToken"`)).rows,
    }
  },
  lacks: [],
  knownLimits: {},
})
