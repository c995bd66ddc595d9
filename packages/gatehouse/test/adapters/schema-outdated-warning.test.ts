/**
 * A database that lacks migrations is never a reason to refuse a sign-in: the SQL adapters name
 * what is missing (missingMigrations), Gatehouse asks each database once and logs `schema-outdated`
 * once per process for the same missing steps, naming the command to run, and goes on serving.
 */
import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { migrate, PostgresAdapter } from "../../src/adapters/postgres.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { SQLITE_MIGRATIONS, SQLiteAdapter } from "../../src/adapters/sqlite.js"
import { Client, credentialsConfig, recordingLogger } from "../flow/flow-helpers.js"
import { testSchema } from "../support/postgres.js"
import { authjsSchema } from "./authjs-adapters/pg-adapter-schema.js"

const dir = mkdtempSync(join(tmpdir(), "gatehouse-schema-warning-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A SQLite file as a release with the first `steps` migrations left it (user_version, no record table). */
function previousReleaseFile(name: string, steps: number): string {
  const file = join(dir, name)
  const db = new Database(file)
  for (const migration of SQLITE_MIGRATIONS.slice(0, steps)) db.exec(migration)
  db.pragma(`user_version = ${steps}`)
  db.close()
  return file
}

/**
 * Signs ada in (credentials, JWT sessions beside the adapter) and reads her session; `warnings()`
 * lists the schema-outdated lines logged. The check is not waited for by any request, so callers
 * poll for the line rather than expect it at once. `checks` holds every answer of
 * `missingMigrations` the check asked for, and `settled()` waits until each has been logged (or not).
 */
async function signInAndCountWarnings(adapter: Adapter) {
  const { logger, lines } = recordingLogger()
  const checks: Promise<unknown>[] = []
  const missingMigrations = adapter.missingMigrations!.bind(adapter)
  const watched: Adapter = {
    ...adapter,
    missingMigrations: () => {
      const answer = Promise.resolve(missingMigrations())
      checks.push(answer)
      return answer
    },
  }
  const client = new Client(credentialsConfig({ adapter: watched, logger, session: { strategy: "jwt" } }))
  const signIn = await client.signIn()
  const session = await client.session()
  const warnings = () => lines.filter((line) => line.code === "schema-outdated")
  // After the answers, the check's own handler runs within the same turn; a macrotask comes after it.
  const settled = async () => {
    await Promise.allSettled(checks)
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { signIn, session, warnings, lines, client, checks, settled }
}

describe("the adapters' schema check", () => {
  it("SQLite, a read-only file missing migrations: the adapter opens, sign-in works, one warning names the command", async () => {
    const file = previousReleaseFile("behind.db", 3)
    const adapter = SQLiteAdapter(new Database(file, { readonly: true }))
    expect(await adapter.missingMigrations()).toEqual(["0004_session_details", "0005_two_factor", "0006_organizations"])

    const { signIn, session, warnings, client, checks, settled } = await signInAndCountWarnings(adapter)
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe("https://app.test")
    expect(session).toMatchObject({ user: { email: "ada@app.test" } })
    await expect.poll(() => warnings().length).toBe(1)
    const [line] = warnings()
    expect(line?.level).toBe("warn")
    expect(String(line?.message[0])).toContain("npx gatehouse-auth migrate apply")
    expect(String(line?.message[0])).toContain("0004_session_details, 0005_two_factor, 0006_organizations")

    // Once per adapter: more requests log nothing more.
    await client.session()
    await client.session()
    expect(checks).toHaveLength(1)
    await settled()
    expect(warnings()).toHaveLength(1)
  })

  it("SQLite, a read-only file a previous release migrated fully: nothing is missing, nothing is logged", async () => {
    const file = previousReleaseFile("previous-full.db", SQLITE_MIGRATIONS.length)
    const adapter = SQLiteAdapter(new Database(file, { readonly: true }))
    expect(await adapter.missingMigrations()).toEqual([])
    const { session, lines, checks, settled } = await signInAndCountWarnings(adapter)
    expect(session).toMatchObject({ user: { email: "ada@app.test" } })
    expect(checks).toHaveLength(1)
    await settled()
    expect(lines.filter((line) => line.code === "schema-outdated")).toEqual([])
  })

  it("SQLite, a writable file: opening migrates it, so nothing is missing", async () => {
    const file = previousReleaseFile("writable.db", 2)
    const adapter = SQLiteAdapter(new Database(file))
    expect(await adapter.missingMigrations()).toEqual([])
  })

  it("a configuration built per request (a new adapter each time over one connection): the database is asked once, the warning logged once", async () => {
    const db = new Database(previousReleaseFile("per-request.db", 2), { readonly: true })
    const { logger, lines } = recordingLogger()
    let asked = 0
    // As NextAuth((req) => ({ adapter: SQLiteAdapter(db), … })) does; the spread keeps what the adapter marks.
    const perRequest = (): Adapter => {
      const adapter = SQLiteAdapter(db)
      return { ...adapter, missingMigrations: () => (asked++, adapter.missingMigrations()) }
    }
    for (let i = 0; i < 3; i++) {
      const session = await new Client(credentialsConfig({ adapter: perRequest(), logger, session: { strategy: "jwt" } })).session()
      expect(session).toBeNull()
    }
    await expect.poll(() => lines.filter((line) => line.code === "schema-outdated").length).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(lines.filter((line) => line.code === "schema-outdated")).toHaveLength(1)
    expect(asked).toBe(1)
  })

  it("a custom adapter built per request, naming no database: asked once (not again for ten minutes), the warning logged once", async () => {
    const { logger, lines } = recordingLogger()
    let asked = 0
    const perRequest = (): Adapter => ({ ...MemoryAdapter(), missingMigrations: () => (asked++, ["0009_custom"]) })
    for (let i = 0; i < 3; i++) {
      await new Client(credentialsConfig({ adapter: perRequest(), logger, session: { strategy: "jwt" } })).session()
    }
    await expect.poll(() => lines.filter((line) => line.code === "schema-outdated").length).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(lines.filter((line) => line.code === "schema-outdated")).toHaveLength(1)
    expect(String(lines.find((line) => line.code === "schema-outdated")?.message[0])).toContain("Missing: 0009_custom.")
    expect(asked).toBe(1)
  })

  describe("PostgreSQL", () => {
    const schema = testSchema()
    beforeAll(() => schema.create())
    afterAll(() => schema.drop())

    it("an Auth.js database not migrated: sign-in works, one warning names the command, and after migrate none", async () => {
      const pool = schema.pool()
      await pool.query(authjsSchema)
      const adapter = PostgresAdapter(pool)
      expect(await adapter.missingMigrations()).toEqual(["0001_gatehouse_schema", "0002_organizations"])

      const { signIn, session, warnings, client, checks, settled } = await signInAndCountWarnings(adapter)
      expect(signIn.status).toBe(302)
      expect(session).toMatchObject({ user: { email: "ada@app.test" } })
      await expect.poll(() => warnings().length).toBe(1)
      expect(String(warnings()[0]?.message[0])).toContain("npx gatehouse-auth migrate apply")
      await client.session()
      expect(checks).toHaveLength(1)
      await settled()
      expect(warnings()).toHaveLength(1)

      await migrate(pool)
      const fresh = PostgresAdapter(pool)
      expect(await fresh.missingMigrations()).toEqual([])
      const after = await signInAndCountWarnings(fresh)
      expect(after.session).toMatchObject({ user: { email: "ada@app.test" } })
      // The database was asked once in this process already; a new adapter over it is not asked again.
      expect(after.checks).toEqual([])
      await after.settled()
      expect(after.warnings()).toEqual([])
    })
  })
})
