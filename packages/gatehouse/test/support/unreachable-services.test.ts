/**
 * The test suite never hangs on a service that is not there, and leaves no server folders behind
 * when stopped: vitest run as a user runs it (a subprocess on this repository's config), with
 * REDIS_URL and DATABASE_URL at closed ports, and interrupted (SIGINT to its process group, as
 * Ctrl-C sends) while its global setup starts Redis and PostgreSQL.
 */
import { describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "./free-port.js"

const root = fileURLToPath(new URL("../../../..", import.meta.url))
const vitestBin = join(root, "node_modules/vitest/vitest.mjs")

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  output: string
}

/** This process's environment less what makes a vitest run inside a test worker behave as one. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // Plain text, so the output can be searched.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...extra }
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || ["TEST", "NODE_ENV", "FORCE_COLOR"].includes(name)) delete env[name]
  for (const name of ["DATABASE_URL", "REDIS_URL"]) if (!(name in extra)) delete env[name]
  return env
}

/**
 * Runs `vitest run --project node <files>` from the repository root in a process group of its own,
 * killed (the whole group) after `limitMs` so a hang fails this test instead of hanging it too.
 * `whileRunning` may act on the running group (interrupt it).
 */
function runVitest(files: string[], env: NodeJS.ProcessEnv, limitMs: number, whileRunning?: (groupId: number, exited: () => boolean) => Promise<void>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitestBin, "run", "--project", "node", "--reporter", "default", ...files], {
      cwd: root,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    const limit = setTimeout(() => {
      output += `\n[killed after ${limitMs} ms]`
      process.kill(-child.pid!, "SIGKILL")
    }, limitMs)
    child.once("error", reject)
    child.once("exit", (code, signal) => {
      clearTimeout(limit)
      resolve({ code, signal, output })
    })
    whileRunning?.(child.pid!, () => child.exitCode !== null || child.signalCode !== null).catch(reject)
  })
}

describe("a test run whose services are not there", () => {
  it("fails, naming Redis and PostgreSQL and why, instead of hanging (REDIS_URL, DATABASE_URL at closed ports)", async () => {
    const [redisPort, postgresPort] = [await freePort(), await freePort()]
    const redisUrl = `redis://127.0.0.1:${redisPort}`
    const databaseUrl = `postgres://postgres@127.0.0.1:${postgresPort}/postgres`
    const files = ["packages/gatehouse/test/stores/redis-conformance.test.ts", "packages/gatehouse/test/adapters/postgres-adapter.test.ts"]
    // A limit far above what failing takes (seconds), far below the hang it guards against.
    const run = await runVitest(files, cleanEnv({ REDIS_URL: redisUrl, DATABASE_URL: databaseUrl }), 120_000)

    expect(run.output).not.toContain("[killed after")
    expect(run.signal).toBeNull()
    expect(run.code).toBe(1)
    // The setup's one line per service, then each file's failure, both naming the address and why.
    expect(run.output).toContain(`[gatehouse tests] Redis unavailable, its tests will fail: Redis at ${redisUrl} (REDIS_URL) did not answer PING: connect ECONNREFUSED`)
    expect(run.output).toContain(`[gatehouse tests] PostgreSQL unavailable, its tests will fail: PostgreSQL at ${databaseUrl} (DATABASE_URL) did not answer: connect ECONNREFUSED`)
    expect(run.output).toContain(`No Redis server for the tests: Redis at ${redisUrl} (REDIS_URL) did not answer PING`)
    expect(run.output).toContain(`No PostgreSQL server for the tests: PostgreSQL at ${databaseUrl} (DATABASE_URL) did not answer`)
    expect(run.output).toMatch(/Test Files\s+2 failed \(2\)/)
  }, 150_000)

  it("leaves no gatehouse-pg-* or gatehouse-redis-* folder when interrupted while its setup starts the servers", async () => {
    // A temp dir of the run's own (TMPDIR), so other runs' folders on this machine do not count.
    // Readable by all: PostgreSQL's folder inside it belongs to the postgres user when we are root.
    const temp = mkdtempSync(join(tmpdir(), "interrupted-run-"))
    chmodSync(temp, 0o755)
    const ours = () => readdirSync(temp).filter((name) => name.startsWith("gatehouse-pg-") || name.startsWith("gatehouse-redis-"))
    const seen = new Set<string>()
    let reachedPostgres = false
    try {
      const run = await runVitest(["packages/gatehouse/test/stores/redis-conformance.test.ts"], cleanEnv({ TMPDIR: temp }), 120_000, async (group, exited) => {
        // The setup starts Redis, then PostgreSQL: once PostgreSQL's folder is there (initdb
        // running), both servers have folders. Interrupt then, as Ctrl-C does: the whole group.
        while (!ours().some((name) => name.startsWith("gatehouse-pg-"))) {
          if (exited()) return
          ours().forEach((name) => seen.add(name))
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        ours().forEach((name) => seen.add(name))
        reachedPostgres = true
        process.kill(-group, "SIGINT")
      })
      // The moment interrupted is PostgreSQL's start: a machine where the setup cannot start it
      // (no initdb, no way to install it) never gets there, and this says so rather than a folder count.
      expect(
        reachedPostgres,
        `this test needs a machine where the test setup can start PostgreSQL; the run ended before PostgreSQL's folder appeared:\n${run.output.slice(-2000)}`,
      ).toBe(true)
      expect(run.output).not.toContain("[killed after")
      expect([...seen].map((name) => name.replace(/-[^-]+$/, "-*")).sort()).toEqual(["gatehouse-pg-*", "gatehouse-redis-*"])
      expect(ours()).toEqual([])
    } finally {
      if (existsSync(temp)) rmSync(temp, { recursive: true, force: true })
    }
  }, 150_000)
})
