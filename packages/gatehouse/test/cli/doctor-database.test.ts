/**
 * The doctor's database check against real SQLite files and a real PostgreSQL server, through the
 * schema part's `schemaTarget` / `readSchemaStatus` and its `migrate apply` (cli/schema-status.ts,
 * cli/schema-command.ts).
 */
import Database from "better-sqlite3"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { main } from "../../src/cli/main.js"
import { freePort } from "../support/free-port.js"
import { adminQuery, postgresUrl, randomSchemaName } from "../support/postgres.js"
import { appFolder, doctorJson, strongSecret, writeEnvFiles } from "./doctor-support.js"

const app = appFolder()
const secret = strongSecret()
/** The error for missing migrations, naming the command that applies them to that database. */
const missing = (command: string) => new RegExp(`lacks \\d+ migrations? this version needs \\(.+\\): run \`${command.replaceAll(".", "\\.")}\`$`)

/** `gatehouse migrate apply …args` in the app folder; throws with its output unless it exits 0. */
async function migrateApply(env: Record<string, string>, ...args: string[]): Promise<void> {
  let output = ""
  const code = await main(["migrate", "apply", ...args], { cwd: app.dir, env, stdout: (text) => void (output += text), stderr: (text) => void (output += text) })
  if (code !== 0) throw new Error(`migrate apply exited ${code}: ${output}`)
}

describe("gatehouse doctor: the database schema", () => {
  it("skips the check when no database is given, and that is not a problem", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret })
    expect(code).toBe(0)
    expect(of("database")).toEqual([{ check: "database", level: "ok", message: "skipped: no database given (DATABASE_URL unset, no --url or --file)" }])
  })

  describe("SQLite (--file)", () => {
    it("is a problem when the file lacks the migrations, naming the command that applies them; ok once applied", async () => {
      const file = join(app.dir, "app.db")
      const db = new Database(file)
      db.exec("CREATE TABLE app_notes (id INTEGER PRIMARY KEY)")
      db.close()
      const before = await doctorJson(app.dir, { AUTH_SECRET: secret }, "--file", "app.db")
      expect(before.code).toBe(1)
      expect(before.of("database")).toEqual([expect.objectContaining({ level: "error", message: expect.stringMatching(missing("npx gatehouse-auth migrate apply --file app.db")) })])

      await migrateApply({}, "--file", "app.db")
      const after = await doctorJson(app.dir, { AUTH_SECRET: secret }, "--file", "app.db")
      expect(after.of("database")).toEqual([expect.objectContaining({ level: "ok", message: expect.stringMatching(/has the schema this version needs \(\d+ migrations? applied\)$/) })])
      expect(after.code).toBe(0)
    })

    it("only warns when DATABASE_URL names a file without Gatehouse tables, and is a problem once one is there", async () => {
      const db = new Database(join(app.dir, "data.db"))
      db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
      const bare = await doctorJson(app.dir, { AUTH_SECRET: secret, DATABASE_URL: "file:./data.db" })
      expect(bare.of("database")).toEqual([expect.objectContaining({ level: "warn", message: expect.stringMatching(/has no Gatehouse tables; if your adapter is not Gatehouse's SQL adapter, ignore this/) })])
      expect(bare.code).toBe(0)
      db.exec("CREATE TABLE users (id TEXT PRIMARY KEY)")
      db.close()
      const partial = await doctorJson(app.dir, { AUTH_SECRET: secret, DATABASE_URL: "file:./data.db" })
      expect(partial.of("database")).toEqual([expect.objectContaining({ level: "error", message: expect.stringMatching(missing("npx gatehouse-auth migrate apply")) })])
      expect(partial.code).toBe(1)
    })

    it("is a problem when the file is not a database", async () => {
      writeFileSync(join(app.dir, "notes.txt"), "not a database, just text that is long enough to fill a page header ".repeat(20))
      const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret }, "--file", "notes.txt")
      expect(code).toBe(1)
      expect(of("database")).toEqual([expect.objectContaining({ level: "error", message: expect.stringMatching(/^cannot read the schema of the database from --file: \S/) })])
    })
  })

  describe("PostgreSQL (DATABASE_URL, --url)", () => {
    // A database of this file's own on the run's server: migrations are per database.
    const name = randomSchemaName()
    let url = ""
    beforeAll(async () => {
      await adminQuery(postgresUrl(), `CREATE DATABASE ${name}`)
      const parsed = new URL(postgresUrl())
      parsed.pathname = `/${name}`
      // The run's server trusts local connections: the password is ignored, and must never be shown.
      parsed.password = "pg-password-never-shown"
      url = parsed.href
    })
    afterAll(async () => {
      await adminQuery(postgresUrl(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    })

    it("is a problem before migrate apply and ok after it, reading DATABASE_URL from .env; the password never shows", async () => {
      writeEnvFiles(app.dir, { ".env": `DATABASE_URL=${url}\n` })
      // Without any Gatehouse table, DATABASE_URL may be another adapter's database: a warning (below).
      // Auth.js's pg-adapter made this one: Gatehouse's adapter uses it, and it lacks the migrations.
      await adminQuery(url, `CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`)
      const before = await doctorJson(app.dir, { AUTH_SECRET: secret })
      expect(before.code).toBe(1)
      expect(before.of("database")).toEqual([expect.objectContaining({ level: "error", message: expect.stringMatching(missing("npx gatehouse-auth migrate apply")) })])
      expect(before.stdout).not.toContain("pg-password-never-shown")
      const byUrl = await doctorJson(app.dir, { AUTH_SECRET: secret }, "--url", url)
      expect(byUrl.of("database")[0]!.message).toMatch(missing("npx gatehouse-auth migrate apply --url <url>"))
      expect(byUrl.stdout).not.toContain("pg-password-never-shown")

      await migrateApply({}, "--url", url)
      const after = await doctorJson(app.dir, { AUTH_SECRET: secret })
      expect(after.of("database")).toEqual([expect.objectContaining({ level: "ok", message: expect.stringMatching(/has the schema this version needs/) })])
      expect(after.code).toBe(0)
      expect(after.stdout).not.toContain("pg-password-never-shown")
      // --url wins over DATABASE_URL, as for migrate.
      const closed = await freePort()
      const overridden = await doctorJson(app.dir, { AUTH_SECRET: secret }, "--url", `postgres://postgres@127.0.0.1:${closed}/postgres`)
      expect(overridden.of("database")[0]!.level).toBe("error")
    })

    it("only warns when DATABASE_URL names a database without any Gatehouse table (another adapter's, the app's own); --url to it is a problem", async () => {
      const bare = randomSchemaName()
      await adminQuery(postgresUrl(), `CREATE DATABASE ${bare}`)
      try {
        const parsed = new URL(url)
        parsed.pathname = `/${bare}`
        await adminQuery(parsed.href, `CREATE TABLE "User" (id TEXT PRIMARY KEY)`)
        const fromEnv = await doctorJson(app.dir, { AUTH_SECRET: secret, DATABASE_URL: parsed.href })
        expect(fromEnv.of("database")).toEqual([
          expect.objectContaining({ level: "warn", message: expect.stringMatching(/has no Gatehouse tables; if your adapter is not Gatehouse's SQL adapter, ignore this, else run `npx gatehouse-auth migrate apply`$/) }),
        ])
        expect(fromEnv.code).toBe(0)
        const byUrl = await doctorJson(app.dir, { AUTH_SECRET: secret }, "--url", parsed.href)
        expect(byUrl.of("database")).toEqual([expect.objectContaining({ level: "error", message: expect.stringMatching(missing("npx gatehouse-auth migrate apply --url <url>")) })])
        expect(byUrl.code).toBe(1)
      } finally {
        await adminQuery(postgresUrl(), `DROP DATABASE IF EXISTS ${bare} WITH (FORCE)`)
      }
    })

    it("warns that Prisma's schema= parameter is not what the check read", async () => {
      await migrateApply({}, "--url", url)
      const prisma = new URL(url)
      prisma.searchParams.set("schema", "auth")
      const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, DATABASE_URL: prisma.href })
      expect(of("database")).toEqual([
        expect.objectContaining({ level: "warn", message: expect.stringMatching(/^DATABASE_URL \(from the environment\) has a schema= parameter \(Prisma's\), which the PostgreSQL driver ignores/) }),
        expect.objectContaining({ level: "ok" }),
      ])
      expect(code).toBe(0)
    })

    it("is a problem, with the one-line reason, when the server is unreachable", async () => {
      const port = await freePort()
      const unreachable = `postgres://gatehouse:pg-password-never-shown@127.0.0.1:${port}/app`
      const { code, of, stdout } = await doctorJson(app.dir, { AUTH_SECRET: secret, DATABASE_URL: unreachable })
      expect(code).toBe(1)
      expect(of("database")).toEqual([
        expect.objectContaining({ level: "error", message: expect.stringMatching(/^cannot read the schema of the database from DATABASE_URL \(from the environment\): [^\n]+$/) }),
      ])
      expect(stdout).not.toContain("pg-password-never-shown")
    }, 30_000)

    it("is a problem when DATABASE_URL names a database it cannot check", async () => {
      const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, DATABASE_URL: "mysql://root:pw@127.0.0.1/app" })
      expect(code).toBe(1)
      expect(of("database")).toEqual([expect.objectContaining({ level: "error", message: expect.stringMatching(/^DATABASE_URL \(from the environment\) is not usable: \S/) })])
    })
  })
})
