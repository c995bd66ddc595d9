/**
 * `gatehouse migrate` on real SQLite files, run in-process through `main` with the environment
 * given (never the machine's); the concurrent apply runs in two separate processes.
 */
import Database from "better-sqlite3"
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { SQLITE_MIGRATION_STEPS, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, SQLiteAdapter } from "../../src/adapters/sqlite.js"
import { main } from "../../src/cli/main.js"
import { importDriver } from "../../src/cli/schema-drivers.js"

const root = mkdtempSync(join(tmpdir(), "gatehouse-migrate-sqlite-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

let dir: string
let counter = 0
beforeEach(() => {
  dir = join(root, `case-${++counter}`)
  mkdirSync(dir)
})

const ids = SQLITE_MIGRATION_STEPS.map((step) => step.id)

/** `gatehouse …args` in-process in the case's folder, with `env` as the whole environment. */
async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = ""
  let stderr = ""
  const code = await main(args, { cwd: dir, env, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) })
  return { code, stdout, stderr }
}

/** A database file in the case's folder, as a release with the first `steps` migrations left it (no record table). */
function previousRelease(steps: number, name = "auth.db"): string {
  const file = join(dir, name)
  const db = new Database(file)
  for (const migration of SQLITE_MIGRATIONS.slice(0, steps)) db.exec(migration)
  db.pragma(`user_version = ${steps}`)
  if (steps > 0) db.prepare(`INSERT INTO users (id, email) VALUES ('kept', 'kept@example.com')`).run()
  db.close()
  return file
}

function records(file: string): { id: string; applied_at: number }[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare("SELECT id, applied_at FROM gatehouse_migrations ORDER BY id").all() as { id: string; applied_at: number }[]
  } finally {
    db.close()
  }
}

function userVersion(file: string): number {
  const db = new Database(file, { readonly: true })
  try {
    return db.pragma("user_version", { simple: true }) as number
  } finally {
    db.close()
  }
}

/** One line on stderr, naming the problem: no stack, nothing else. */
function expectOneLine(stderr: string, pattern: RegExp) {
  expect(stderr).toMatch(/^gatehouse: [^\n]+\n$/)
  expect(stderr).toMatch(pattern)
  expect(stderr).not.toMatch(/\n\s+at /)
}

describe("gatehouse migrate status (SQLite)", () => {
  it("lists every migration missing on an empty database and exits 1, naming the command", async () => {
    previousRelease(0)
    const { code, stdout, stderr } = await run(["migrate", "status", "--file", "auth.db"])
    expect(code).toBe(1)
    expect(stderr).toBe("")
    expect(stdout).toContain("Database: auth.db (SQLite)")
    for (const id of ids) expect(stdout).toMatch(new RegExp(`missing  ${id}`))
    expect(stdout).toContain(`${ids.length} of ${ids.length} migrations missing.`)
    expect(stdout).toContain("npx gatehouse-auth migrate apply")
  })

  it("is the default: `migrate` alone reads, changing nothing", async () => {
    const file = previousRelease(0)
    const before = readFileSync(file)
    expect((await run(["migrate", "--file", "auth.db"])).code).toBe(1)
    expect(readFileSync(file)).toEqual(before)
  })

  it("reads a previous release's database (user_version 5, no record table) as up to date, not yet recorded, and exits 0", async () => {
    const file = previousRelease(SQLITE_SCHEMA_VERSION)
    const before = readFileSync(file)
    const { code, stdout } = await run(["migrate", "status", "--file", "auth.db"])
    expect(code).toBe(0)
    for (const id of ids) expect(stdout).toMatch(new RegExp(`applied  ${id} .*not yet recorded`))
    expect(stdout).toContain(`Up to date: ${ids.length} of ${ids.length} migrations applied. ${ids.length} not yet recorded`)
    expect(readFileSync(file)).toEqual(before)
  })

  it("reads an older release's database (user_version 3) as missing the steps after the third", async () => {
    previousRelease(3)
    const { code, stdout } = await run(["migrate", "status", "--file", "auth.db", "--json"])
    expect(code).toBe(1)
    expect(JSON.parse(stdout)).toEqual({
      database: join(dir, "auth.db"),
      kind: "sqlite",
      applied: ids.slice(0, 3),
      unrecorded: ids.slice(0, 3),
      missing: ids.slice(3),
      upToDate: false,
    })
  })

  it("takes the database from DATABASE_URL as a file: URL, from the environment given or .env", async () => {
    previousRelease(SQLITE_SCHEMA_VERSION, "from-env.db")
    writeFileSync(join(dir, ".env"), "DATABASE_URL=file:./from-env.db\n")
    const fromDotenv = await run(["migrate", "status"])
    expect(fromDotenv.code).toBe(0)
    expect(fromDotenv.stdout).toContain("Database: from-env.db (SQLite)")
    // The process environment wins over .env, as in the app.
    const fromEnv = await run(["migrate", "status"], { DATABASE_URL: `file://${join(dir, "missing.db")}` })
    expect(fromEnv.code).toBe(1)
    expectOneLine(fromEnv.stderr, /no such file: .*missing\.db/)
  })
})

describe("gatehouse migrate apply (SQLite)", () => {
  it("applies every step to an empty file, records each, and a second apply changes nothing", async () => {
    const file = previousRelease(0)
    const first = await run(["migrate", "apply", "--file", "auth.db"])
    expect(first.code).toBe(0)
    expect(first.stderr).toBe("")
    for (const id of ids) expect(first.stdout).toContain(`Applied  ${id}`)
    expect(first.stdout).toContain(`Up to date: ${ids.length} of ${ids.length} migrations applied.`)
    const recorded = records(file)
    expect(recorded.map((row) => row.id)).toEqual(ids)
    expect(userVersion(file)).toBe(SQLITE_SCHEMA_VERSION)

    const before = readFileSync(file)
    const second = await run(["migrate", "apply", "--file", "auth.db"])
    expect(second.code).toBe(0)
    expect(second.stdout).toContain("Nothing to apply.")
    expect(second.stdout).not.toContain("Applied ")
    expect(records(file)).toEqual(recorded)
    expect(readFileSync(file)).toEqual(before)

    expect((await run(["migrate", "status", "--file", "auth.db"])).code).toBe(0)
  })

  it("records a previous release's steps without running them, keeps the rows, and the adapter then reads them", async () => {
    const file = previousRelease(SQLITE_SCHEMA_VERSION)
    const { code, stdout } = await run(["migrate", "apply", "--file", "auth.db"])
    expect(code).toBe(0)
    for (const id of ids) expect(stdout).toContain(`Recorded ${id} (applied by a previous release)`)
    expect(stdout).not.toContain("Applied ")
    expect(records(file).map((row) => row.id)).toEqual(ids)
    const db = new Database(file)
    try {
      expect(await SQLiteAdapter(db).getUser("kept")).toMatchObject({ email: "kept@example.com" })
    } finally {
      db.close()
    }
  })

  it("applies only what an older release's database lacks", async () => {
    const file = previousRelease(3)
    const { code, stdout } = await run(["migrate", "apply", "--file", "auth.db"])
    expect(code).toBe(0)
    expect(stdout).toContain(`Recorded ${ids[0]}`)
    expect(stdout).toContain(`Applied  ${ids[3]}`)
    expect(stdout).toContain(`Applied  ${ids[4]}`)
    expect(records(file).map((row) => row.id)).toEqual(ids)
    expect(userVersion(file)).toBe(SQLITE_SCHEMA_VERSION)
  })

  it("two processes applying to one file at once both succeed, with one set of records", async () => {
    const file = previousRelease(0)
    const go = join(dir, "go")
    const children = [applyInChildProcess(file, go), applyInChildProcess(file, go)]
    await Promise.all(children.map((child) => child.ready))
    writeFileSync(go, "")
    const results = await Promise.all(children.map((child) => child.done))
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: "" })
    expect(results.map((result) => result.stdout).join("")).toContain("Up to date")
    expect(records(file).map((row) => row.id)).toEqual(ids)
    // Every step ran once between them.
    expect(results.map((result) => result.stdout.match(/Applied /g)?.length ?? 0).reduce((a, b) => a + b)).toBe(ids.length)
  }, 60_000)
})

describe("gatehouse migrate --sql (SQLite)", () => {
  it("prints the SQL of the missing steps, changes nothing, and the SQL brings the database up to date when run", async () => {
    const file = previousRelease(3)
    const before = readFileSync(file)
    const { code, stdout, stderr } = await run(["migrate", "apply", "--sql", "--file", "auth.db"])
    expect(code).toBe(0)
    expect(stderr).toBe("")
    expect(readFileSync(file)).toEqual(before)
    expect(stdout).toContain(`-- ${ids[3]}`)
    expect(stdout).not.toContain(`-- ${ids[0]}`)
    expect(stdout).toContain("BEGIN IMMEDIATE;")
    const db = new Database(file)
    try {
      db.exec(stdout)
    } finally {
      db.close()
    }
    expect(records(file).map((row) => row.id)).toEqual(ids)
    expect(userVersion(file)).toBe(SQLITE_SCHEMA_VERSION)
    const after = await run(["migrate", "status", "--file", "auth.db"])
    expect(after.code).toBe(0)
    expect(after.stdout).not.toContain("not yet recorded")
    expect((await run(["migrate", "--sql", "--file", "auth.db"])).stdout).toMatch(/^-- .* is up to date: nothing to apply\.\n$/)
  })

  it("prints every step for a named kind without a database, which makes a fresh file up to date", async () => {
    const { code, stdout } = await run(["migrate", "--sql", "sqlite"])
    expect(code).toBe(0)
    for (const id of ids) expect(stdout).toContain(`-- ${id}`)
    const file = join(dir, "fresh.db")
    const db = new Database(file)
    db.exec(stdout)
    db.close()
    const status = await run(["migrate", "status", "--file", "fresh.db"])
    expect(status.code).toBe(0)
    expect(status.stdout).not.toContain("not yet recorded")
  })
})

describe("gatehouse migrate --sql and PRAGMA user_version (SQLite)", () => {
  it("sets user_version once, after every step, so a previous release's file is never counted lower partway", async () => {
    const { stdout } = await run(["migrate", "--sql", "sqlite"])
    const pragmas = [...stdout.matchAll(/PRAGMA user_version = (\d+);/g)]
    expect(pragmas.map((match) => Number(match[1]))).toEqual([SQLITE_SCHEMA_VERSION])
    expect(stdout.indexOf("PRAGMA user_version =")).toBeGreaterThan(stdout.lastIndexOf("COMMIT;"))
    // Run step by step on a previous release's file: no step leaves it counting fewer than it did.
    const file = previousRelease(SQLITE_SCHEMA_VERSION)
    const db = new Database(file)
    try {
      for (const statement of stdout.split(/\n(?=-- )/)) {
        db.exec(statement)
        expect(db.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION)
      }
    } finally {
      db.close()
    }
  })

  it("prints the user_version apply would restore, not 'up to date', when only user_version lags behind", async () => {
    const file = previousRelease(0)
    expect((await run(["migrate", "apply", "--file", "auth.db"])).code).toBe(0)
    const db = new Database(file)
    db.pragma("user_version = 0")
    db.close()
    const { code, stdout } = await run(["migrate", "apply", "--sql", "--file", "auth.db"])
    expect(code).toBe(0)
    expect(stdout).not.toMatch(/is up to date/)
    expect(stdout).toContain(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION};`)
    const again = new Database(file)
    again.exec(stdout)
    again.close()
    expect(userVersion(file)).toBe(SQLITE_SCHEMA_VERSION)
    expect((await run(["migrate", "apply", "--sql", "--file", "auth.db"])).stdout).toMatch(/is up to date: nothing to apply/)
  })
})

describe("gatehouse migrate: what it cannot use (SQLite)", () => {
  it("a missing file: one line, exit 1, and no file is created", async () => {
    for (const sub of ["status", "apply"]) {
      const { code, stdout, stderr } = await run(["migrate", sub, "--file", "nowhere.db"])
      expect(code).toBe(1)
      expect(stdout).toBe("")
      expectOneLine(stderr, /no such file: .*nowhere\.db/)
    }
    expect(() => readFileSync(join(dir, "nowhere.db"))).toThrow()
  })

  it("a file that is no database: one line, exit 1, the file untouched", async () => {
    const file = join(dir, "notes.txt")
    writeFileSync(file, "These are notes, not a database. ".repeat(40))
    const before = readFileSync(file)
    for (const sub of ["status", "apply"]) {
      const { code, stderr } = await run(["migrate", sub, "--file", "notes.txt"])
      expect(code).toBe(1)
      expectOneLine(stderr, /notes\.txt: it is not a SQLite database/)
    }
    expect(readFileSync(file)).toEqual(before)
  })

  it("a folder: one line, exit 1", async () => {
    const { code, stderr } = await run(["migrate", "status", "--file", "."])
    expect(code).toBe(1)
    expectOneLine(stderr, /is not a file/)
  })

  it("no database at all: one line naming the ways to give one", async () => {
    const { code, stderr } = await run(["migrate", "status"])
    expect(code).toBe(1)
    expectOneLine(stderr, /no database: pass --url <url> or --file <path>, or set DATABASE_URL/)
  })

  it("a driver that is not installed: one line naming the install command", async () => {
    await expect(importDriver("gatehouse-no-such-driver", "SQLite")).rejects.toMatchObject({
      name: "SchemaAccessError",
      message: 'the SQLite driver "gatehouse-no-such-driver" is not installed: npm install gatehouse-no-such-driver',
    })
  })

  it("refuses options and words that are not the command's, with its usage", async () => {
    for (const [args, pattern] of [
      [["migrate", "--dry-run"], /option '--dry-run' is not one of migrate's \(--sql prints what apply would run\)/],
      [["migrate", "status", "--sql"], /--sql goes with apply/],
      [["migrate", "--sql", "mysql"], /unknown database kind 'mysql'/],
      [["migrate", "upgrade"], /unexpected argument 'upgrade'/],
      [["migrate", "apply", "--json", "--file", "x.db"], /--json goes with status/],
      [["migrate", "--sql", "sqlite", "--file", "x.db"], /give it no --url or --file/],
      [["migrate", "--url", "file:a.db", "--file", "b.db"], /give --url or --file, not both/],
    ] as const) {
      const { code, stderr } = await run([...args])
      expect(code).toBe(1)
      expect(stderr).toMatch(pattern)
    }
    const help = await run(["migrate", "--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("Usage: gatehouse migrate [status|apply]")
  })
})

describe("the built gatehouse executable (npm test builds first)", () => {
  it("loads the SQLite driver from dist and reads a file, exit 0; an unreachable PostgreSQL in one line, exit 1", async () => {
    previousRelease(SQLITE_SCHEMA_VERSION)
    const built = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url))
    const ok = spawnSync(process.execPath, [built, "migrate", "status", "--file", "auth.db"], { cwd: dir, encoding: "utf8", env: {} })
    expect(ok.status).toBe(0)
    expect(ok.stdout).toContain("Up to date")
    const refused = spawnSync(process.execPath, [built, "migrate", "apply"], {
      cwd: dir,
      encoding: "utf8",
      env: { DATABASE_URL: "postgres://app:hunter2-never-shown@127.0.0.1:1/app" },
    })
    expect(refused.status).toBe(1)
    expect(refused.stderr).toBe("gatehouse: cannot connect to postgres://app:***@127.0.0.1:1/app: connection refused (is PostgreSQL running there?)\n")
  })
})

const mainModule = pathToFileURL(fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url))).href

/**
 * `gatehouse migrate apply --file <file>` in a process of its own (TypeScript through tsx). The
 * process loads the command, says "ready", then waits for the file `go` to appear, so that
 * several start applying within a millisecond of each other rather than a process start apart.
 */
function applyInChildProcess(file: string, go: string): { ready: Promise<void>; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const script = `
    import { existsSync, writeSync } from "node:fs"
    const { main } = await import(${JSON.stringify(mainModule)})
    writeSync(2, "ready\\n")
    const pause = new Int32Array(new SharedArrayBuffer(4))
    const deadline = Date.now() + 30_000
    while (!existsSync(${JSON.stringify(go)}) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 1)
    const code = await main(["migrate", "apply", "--file", ${JSON.stringify(file)}], {
      cwd: process.cwd(), env: {}, stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t),
    })
    process.exitCode = code
  `
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions", "gatehouse-source", "--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    stdio: ["ignore", "pipe", "pipe"],
  })
  let stdout = ""
  let stderr = ""
  let signalReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (signalReady = resolve))
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
    if (stderr.startsWith("ready\n")) signalReady()
  })
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once("error", reject)
    child.once("close", (code) => {
      signalReady()
      resolve({ code, stdout, stderr: stderr.replace(/^ready\n/, "") })
    })
  })
  return { ready, done }
}
