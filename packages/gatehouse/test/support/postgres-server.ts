/**
 * Throwaway PostgreSQL clusters for the tests: a real server in a temp dir, on 127.0.0.1 and a
 * free port, that can be stopped and started again (outage tests) and removed afterwards.
 *
 * Run as root (CI containers), the server runs as the `postgres` user because PostgreSQL refuses
 * to run as root; the server binaries are installed from Debian's `postgresql` package if missing.
 */
import { execFile, execFileSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import pg from "pg"
import { freePort } from "./free-port.js"
import { onInterrupt, removeThrowawayDir, throwawayDir } from "./throwaway-dirs.js"

const run = promisify(execFile)

/** A running (or stopped) throwaway cluster. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`; trust auth, so no password. */
  url: string
  port: number
  /** The temp dir holding the data dir, the unix socket and the server log. */
  dir: string
  /** Starts the server again on the same port and data dir; waits until it accepts connections. */
  start(): Promise<void>
  /** Stops the server (fast shutdown: open connections are cut); removes nothing. */
  stop(): Promise<void>
  /** Stops the server if it runs and removes its temp dir. */
  destroy(): Promise<void>
}

const debianRoot = "/usr/lib/postgresql"
const isRoot = process.getuid?.() === 0

/** The newest `/usr/lib/postgresql/<version>/bin` holding initdb and pg_ctl, if any. */
function findBinDir(): string | undefined {
  if (!existsSync(debianRoot)) return undefined
  const versions = readdirSync(debianRoot)
    .filter((v) => existsSync(join(debianRoot, v, "bin", "initdb")) && existsSync(join(debianRoot, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(debianRoot, versions[0], "bin")
}

let installed: string | undefined

/** Finds the server binaries, installing Debian's package once when we may (root) and must. */
export function postgresBinDir(): string {
  if (installed) return installed
  let dir = findBinDir()
  if (!dir && isRoot && existsSync("/usr/bin/apt-get")) {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
    // Debian's package would otherwise create and start a "main" cluster on 5432 that nobody
    // stops. A drop-in, not createcluster.conf itself, so dpkg finds no changed conffile to ask about.
    const dropIn = "/etc/postgresql-common/createcluster.d/gatehouse-tests.conf"
    mkdirSync(dirname(dropIn), { recursive: true })
    writeFileSync(dropIn, "create_main_cluster = false\n")
    // No stdin: a prompt must fail the install, not hang the test run; nor may a stalled download (10 min).
    const options = { stdio: ["ignore", "inherit", "inherit"] as ("ignore" | "inherit")[], env, timeout: 600_000 }
    execFileSync("apt-get", ["update"], options)
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "postgresql"], options)
    dir = findBinDir()
  }
  if (!dir) {
    throw new Error(
      `PostgreSQL server binaries (initdb, pg_ctl) not found under ${debianRoot}/*/bin. ` +
        (isRoot ? "" : "Not root, so they were not installed. ") +
        "Install them (Debian/Ubuntu: apt-get install postgresql) or point the tests at a server with DATABASE_URL.",
    )
  }
  installed = dir
  return dir
}

const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`

/**
 * Runs a server binary as the `postgres` user when we are root, else as ourselves; killed after
 * 90 s (pg_ctl's own waits are 60 s), so a stuck initdb fails the start instead of hanging it.
 */
async function asServerUser(file: string, args: string[]): Promise<void> {
  const options = { timeout: 90_000, killSignal: "SIGKILL" as const }
  if (isRoot) {
    // -s: the postgres account's login shell may be nologin on some systems.
    await run("su", ["postgres", "-s", "/bin/sh", "-c", [file, ...args].map(shellQuote).join(" ")], options)
  } else {
    await run(file, args, options)
  }
}

function serverUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim())
  return { uid: id("-u"), gid: id("-g") }
}

/** Adds the server log to a failure, since pg_ctl's own message rarely says why. */
async function withLog<T>(dir: string, what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    const logFile = join(dir, "postgres.log")
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n") : "(no log)"
    const detail = error instanceof Error ? error.message : String(error)
    throw new Error(`${what} failed: ${detail}\n--- server log (tail) ---\n${log}`, { cause: error })
  }
}

/**
 * Creates a cluster in a fresh temp dir and starts it.
 *
 * @example
 * ```ts
 * const server = await startPostgres()
 * const pool = new pg.Pool({ connectionString: server.url })
 * // …
 * await pool.end()
 * await server.destroy()
 * ```
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir()
  // Removed on every way out: destroy(), a failed start below, exit, SIGINT or SIGTERM.
  const dir = throwawayDir("gatehouse-pg-")
  try {
    return await createAndStart(bin, dir)
  } catch (error) {
    removeThrowawayDir(dir)
    throw error
  }
}

async function createAndStart(bin: string, dir: string): Promise<PostgresServer> {
  const data = join(dir, "data")
  const logFile = join(dir, "postgres.log")
  if (isRoot) {
    const { uid, gid } = serverUserIds()
    chownSync(dir, uid, gid)
  }
  chmodSync(dir, 0o700)
  const port = await freePort([5432])

  await withLog(dir, "PostgreSQL initdb", () =>
    asServerUser(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]),
  )
  // Settings go into the data dir (not pg_ctl -o) so a restart keeps the same port and socket.
  // Durability is pointless for a throwaway cluster and costs seconds per test run.
  const conf = join(data, "postgresql.conf")
  writeFileSync(
    conf,
    readFileSync(conf, "utf8") +
      [
        "",
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        "max_connections = 300",
        "fsync = off",
        "synchronous_commit = off",
        "full_page_writes = off",
        "",
      ].join("\n"),
  )

  let running = false
  // A test run that dies without tearing down (exit, interrupt) must not leave a server behind.
  onInterrupt(dir, () => {
    if (!running) return
    const args = ["-D", data, "-m", "immediate", "-w", "-t", "10", "stop"]
    const options = { stdio: "ignore" as const, timeout: 15_000 }
    if (isRoot) execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", [join(bin, "pg_ctl"), ...args].map(shellQuote).join(" ")], options)
    else execFileSync(join(bin, "pg_ctl"), args, options)
  })

  const server: PostgresServer = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    async start() {
      await withLog(dir, "PostgreSQL pg_ctl start", () => asServerUser(join(bin, "pg_ctl"), ["-D", data, "-l", logFile, "-w", "-t", "60", "start"]))
      running = true
    },
    async stop() {
      if (!running) return
      await withLog(dir, "PostgreSQL pg_ctl stop", () => asServerUser(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]))
      running = false
    },
    async destroy() {
      try {
        await server.stop()
      } finally {
        removeThrowawayDir(dir)
      }
    },
  }
  try {
    await server.start()
  } catch (error) {
    // pg_ctl may have given up waiting on a server that did start: stop it before its folder goes.
    running = true
    await server.stop().catch(() => {})
    throw error
  }
  return server
}

/**
 * Checks that the PostgreSQL at `url` (the run's `DATABASE_URL`) accepts a connection and a query,
 * so that the tests that need it fail at once naming it; pg's own connect has no time limit.
 *
 * @example
 * ```ts
 * await checkPostgres(process.env.DATABASE_URL!) // throws "PostgreSQL at postgres://…@127.0.0.1:5432/app (DATABASE_URL) did not answer: connect ECONNREFUSED …"
 * ```
 */
export async function checkPostgres(url: string, timeoutMs = 5_000): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs })
  // An error after connect (the server going away) must not crash the run: the query fails instead.
  client.on("error", () => {})
  try {
    await client.connect()
    await client.query("SELECT 1")
  } catch (error) {
    const shown = url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@")
    throw new Error(`PostgreSQL at ${shown} (DATABASE_URL) did not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  } finally {
    await client.end().catch(() => {})
  }
}
