/**
 * `gatehouse migrate` on the tests' real PostgreSQL, run in-process through `main` with the
 * environment given. Each case gets a database of its own (the command takes a URL, and a URL
 * names a database), dropped afterwards. The URLs carry a password the server (trust auth)
 * ignores, so every output can be checked for it.
 */
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { PostgresAdapter, postgresSchema } from "../../src/adapters/postgres.js"
import { main } from "../../src/cli/main.js"
import { freePort } from "../support/free-port.js"
import { adminQuery, postgresUrl } from "../support/postgres.js"
import { authjsSchema } from "../adapters/authjs-adapters/pg-adapter-schema.js"

const PASSWORD = "hunter2-never-shown"
const created: string[] = []

afterAll(async () => {
  for (const name of created) await adminQuery(postgresUrl(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
})

/** A new, empty database and its URL, with {@link PASSWORD} in it. */
async function freshDatabase(): Promise<{ url: string; masked: string; query: (sql: string) => Promise<pg.QueryResult> }> {
  const name = `gh_cli_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`
  await adminQuery(postgresUrl(), `CREATE DATABASE ${name}`)
  created.push(name)
  const url = new URL(postgresUrl())
  url.password = PASSWORD
  url.pathname = `/${name}`
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: url.href })
    await client.connect()
    try {
      return await client.query(sql)
    } finally {
      await client.end()
    }
  }
  return { url: url.href, masked: url.href.replace(PASSWORD, "***"), query }
}

async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = ""
  let stderr = ""
  const code = await main(args, { cwd: process.cwd(), env, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) })
  expect(stdout + stderr).not.toContain(PASSWORD)
  return { code, stdout, stderr }
}

const tables = async (query: (sql: string) => Promise<pg.QueryResult>) =>
  (await query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).rows.map((row) => row.tablename as string)
const records = async (query: (sql: string) => Promise<pg.QueryResult>) =>
  (await query(`SELECT id, applied_at FROM gatehouse_migrations ORDER BY id`)).rows as { id: string; applied_at: Date }[]

function expectOneLine(stderr: string, pattern: RegExp) {
  expect(stderr).toMatch(/^gatehouse: [^\n]+\n$/)
  expect(stderr).toMatch(pattern)
}

describe("gatehouse migrate on PostgreSQL", () => {
  it("status of an empty database: the step missing, exit 1, the location without its password", async () => {
    const { url, masked } = await freshDatabase()
    const { code, stdout, stderr } = await run(["migrate", "status", "--url", url])
    expect(code).toBe(1)
    expect(stderr).toBe("")
    expect(stdout).toContain(`Database: ${masked} (PostgreSQL)`)
    expect(masked).toContain(":***@")
    expect(stdout).toMatch(/missing {2}0001_gatehouse_schema/)
    expect(stdout).toContain("npx gatehouse-auth migrate apply")
  })

  it("apply from DATABASE_URL: creates the schema, records the step, exit 0; again: nothing to apply, the record unchanged", async () => {
    const { url, query } = await freshDatabase()
    const first = await run(["migrate", "apply"], { DATABASE_URL: url })
    expect(first.code).toBe(0)
    expect(first.stdout).toContain("Applied  0001_gatehouse_schema")
    expect(await tables(query)).toEqual(expect.arrayContaining(["users", "sessions", "accounts", "two_factor", "gatehouse_migrations"]))
    const recorded = await records(query)
    expect(recorded.map((row) => row.id)).toEqual(["0001_gatehouse_schema", "0002_organizations"])

    const second = await run(["migrate", "apply"], { DATABASE_URL: url })
    expect(second.code).toBe(0)
    expect(second.stdout).toContain("Nothing to apply.")
    expect(await records(query)).toEqual(recorded)
    const status = await run(["migrate", "status", "--json"], { DATABASE_URL: url })
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ kind: "postgres", applied: ["0001_gatehouse_schema", "0002_organizations"], missing: [], unrecorded: [], upToDate: true })
  })

  it("--sql prints the SQL and changes nothing; the printed SQL, run by another tool, leaves the database up to date", async () => {
    const { url, query } = await freshDatabase()
    const { code, stdout } = await run(["migrate", "apply", "--sql", "--url", url])
    expect(code).toBe(0)
    expect(stdout).toContain("-- 0001_gatehouse_schema")
    expect(stdout).toContain("pg_advisory_xact_lock")
    expect(await tables(query)).toEqual([])
    await query(stdout)
    const status = await run(["migrate", "status", "--url", url])
    expect(status.code).toBe(0)
    expect(status.stdout).toContain("Up to date: 2 of 2 migrations applied.")
  })

  it("--sql postgres prints every step without a database", async () => {
    const { code, stdout } = await run(["migrate", "--sql", "postgres"])
    expect(code).toBe(0)
    expect(stdout).toContain("-- 0001_gatehouse_schema")
    expect(stdout).toContain("CREATE TABLE IF NOT EXISTS gatehouse_migrations")
  })

  it("three applies at once all succeed, with one record", async () => {
    const { url, query } = await freshDatabase()
    const results = await Promise.all([1, 2, 3].map(() => run(["migrate", "apply", "--url", url])))
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: "" })
    expect(results.filter((result) => result.stdout.includes("Applied  0001_gatehouse_schema"))).toHaveLength(1)
    expect((await records(query)).map((row) => row.id)).toEqual(["0001_gatehouse_schema", "0002_organizations"])
  })

  it("a previous release's database (the script applied, no record): read as applied, not yet recorded; apply records it and keeps the rows", async () => {
    const { url, query } = await freshDatabase()
    await query(postgresSchema)
    await query(`INSERT INTO users (id, email) VALUES ('kept', 'kept@example.com')`)
    const status = await run(["migrate", "status", "--url", url])
    // Missing the steps after the first, which that release did not have.
    expect(status.code).toBe(1)
    expect(status.stdout).toMatch(/applied {2}0001_gatehouse_schema .*not yet recorded/)
    expect(status.stdout).toMatch(/missing {2}0002_organizations/)
    const applied = await run(["migrate", "apply", "--url", url])
    expect(applied.code).toBe(0)
    expect(applied.stdout).toContain("Recorded 0001_gatehouse_schema (applied by a previous release)")
    expect(applied.stdout).toContain("Applied  0002_organizations")
    expect((await records(query)).map((row) => row.id)).toEqual(["0001_gatehouse_schema", "0002_organizations"])
    expect((await query(`SELECT email FROM users`)).rows).toEqual([{ email: "kept@example.com" }])
  })

  it("an Auth.js database (@auth/pg-adapter's schema): step 1 missing; apply migrates it, and the adapter reads its rows", async () => {
    const { url, query } = await freshDatabase()
    await query(authjsSchema)
    await query(`INSERT INTO users (name, email) VALUES ('Ada', 'ada@example.com')`)
    expect((await run(["migrate", "status", "--url", url])).code).toBe(1)
    const applied = await run(["migrate", "apply", "--url", url])
    expect(applied.code).toBe(0)
    expect(applied.stdout).toContain("Applied  0001_gatehouse_schema")
    const pool = new pg.Pool({ connectionString: url })
    try {
      const adapter = PostgresAdapter(pool)
      expect(await adapter.getUserByEmail("ada@example.com")).toMatchObject({ id: "1", name: "Ada" })
      expect(await adapter.hitRateLimit("k", 60)).toBe(1)
      expect(await adapter.missingMigrations()).toEqual([])
    } finally {
      await pool.end()
    }
  })

  it("an unreachable port: one line naming the location (password masked), exit 1", async () => {
    const port = await freePort()
    const url = `postgres://app:${PASSWORD}@127.0.0.1:${port}/app`
    for (const sub of ["status", "apply"]) {
      const { code, stdout, stderr } = await run(["migrate", sub, "--url", url])
      expect(code).toBe(1)
      expect(stdout).toBe("")
      expectOneLine(stderr, new RegExp(`cannot connect to postgres://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/app: connection refused`))
    }
  })

  it("a password in the query string is not shown either", async () => {
    const port = await freePort()
    const { code, stderr } = await run(["migrate", "status", "--url", `postgres://app@127.0.0.1:${port}/app?password=${PASSWORD}&sslmode=disable`])
    expect(code).toBe(1)
    expectOneLine(stderr, new RegExp(`cannot connect to postgres://app@127\\.0\\.0\\.1:${port}/app: connection refused`))
  })

  it("a database or a role that does not exist: the server's reason in one line, exit 1", async () => {
    const base = new URL(postgresUrl())
    base.password = PASSWORD
    base.pathname = "/no_such_database"
    const missingDatabase = await run(["migrate", "status", "--url", base.href])
    expect(missingDatabase.code).toBe(1)
    expectOneLine(missingDatabase.stderr, /database "no_such_database" does not exist/)
    base.username = "no_such_role"
    base.pathname = "/postgres"
    const missingRole = await run(["migrate", "status"], { DATABASE_URL: base.href })
    expect(missingRole.code).toBe(1)
    expectOneLine(missingRole.stderr, /role "no_such_role" does not exist/)
  })

  it("a URL that is not one: one line that does not repeat it, exit 1", async () => {
    for (const url of [`postgres://app:${PASSWORD}@[not-a-host/app`, `mysql://app:${PASSWORD}@localhost/app`, "auth.db"]) {
      const { code, stderr } = await run(["migrate", "status", "--url", url])
      expect(code).toBe(1)
      expectOneLine(stderr, /--url (is not a valid PostgreSQL URL|is a mysql: URL|is not a URL)/)
    }
  })
})
