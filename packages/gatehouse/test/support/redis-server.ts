/**
 * Throwaway Redis servers for the tests: Debian's `redis-server` on 127.0.0.1 and a free port
 * (never 6379), nothing saved to disk, stoppable and startable again on the same port (outage
 * tests). Installed from Debian's `redis-server` package when missing and we are root.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { existsSync } from "node:fs"
import { createConnection } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { freePort } from "./free-port.js"
import { onInterrupt, removeThrowawayDir, throwawayDir } from "./throwaway-dirs.js"

/** A running (or stopped) throwaway Redis. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string
  port: number
  /** Starts it again on the same port (empty: nothing is persisted); waits until it answers PING. */
  start(): Promise<void>
  /** Stops it (SIGKILL with `crash`, else SIGTERM) and waits for the process to end. */
  stop(options?: { crash?: boolean }): Promise<void>
  /** Stops it and removes its temp dir. */
  destroy(): Promise<void>
}

const isRoot = process.getuid?.() === 0
let binary: string | undefined

/** The redis-server binary, installing Debian's package once when we may (root) and must. */
export function redisServerBinary(): string {
  if (binary) return binary
  const find = () => ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((path) => existsSync(path))
  let found = find()
  if (!found && isRoot && existsSync("/usr/bin/apt-get")) {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
    // No stdin: a prompt must fail the install, not hang the test run; nor may a stalled download (10 min).
    const options = { stdio: ["ignore", "inherit", "inherit"] as ("ignore" | "inherit")[], env, timeout: 600_000 }
    execFileSync("apt-get", ["update"], options)
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "redis-server"], options)
    // The package starts a service on 6379 where there is an init system; ours never uses it.
    try {
      execFileSync("service", ["redis-server", "stop"], { stdio: "ignore" })
    } catch {
      // No service manager in a container: nothing was started.
    }
    found = find()
  }
  if (!found) {
    throw new Error(
      "redis-server not found in /usr/bin or /usr/local/bin. " + (isRoot ? "" : "Not root, so it was not installed. ") + "Install it (Debian/Ubuntu: apt-get install redis-server).",
    )
  }
  binary = found
  return found
}

/** Why a server at `host:port` does not answer PING with PONG within `timeoutMs`; "" when it does. */
function pingProblem(host: string, port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port })
    const done = (problem: string) => {
      socket.destroy()
      resolve(problem)
    }
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`))
    socket.once("error", (error) => done(error.message))
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.once("data", (data) => {
      const answer = data.toString()
      // An AUTH-protected server answers -NOAUTH: it is there; node-redis authenticates from the URL.
      done(answer.startsWith("+PONG") || answer.startsWith("-NOAUTH") ? "" : `answered ${JSON.stringify(answer.trim().slice(0, 80))}`)
    })
  })
}

const pings = async (port: number) => (await pingProblem("127.0.0.1", port, 500)) === ""

/**
 * Checks that the Redis at `url` (the run's `REDIS_URL`) answers, so that the tests that need it
 * fail at once naming it, rather than each client retrying its connection for ever.
 *
 * @example
 * ```ts
 * await checkRedis("redis://127.0.0.1:6379") // throws "Redis at redis://127.0.0.1:6379 (REDIS_URL) did not answer PING: connect ECONNREFUSED …"
 * ```
 */
export async function checkRedis(url: string, timeoutMs = 5_000): Promise<void> {
  const { hostname, port } = new URL(url)
  const problem = await pingProblem(hostname.replace(/^\[|\]$/g, "") || "127.0.0.1", Number(port || 6379), timeoutMs)
  if (problem) throw new Error(`Redis at ${url} (REDIS_URL) did not answer PING: ${problem}`)
}

/**
 * Starts a Redis in a fresh temp dir.
 *
 * @example
 * ```ts
 * const server = await startRedis()
 * const client = await createClient({ url: server.url }).connect()
 * // …
 * await client.quit()
 * await server.destroy()
 * ```
 */
export async function startRedis(): Promise<RedisServer> {
  const bin = redisServerBinary()
  // Removed on every way out: destroy(), a failed start below, exit, SIGINT or SIGTERM.
  const dir = throwawayDir("gatehouse-redis-")
  let child: ChildProcess | undefined
  let output = ""
  onInterrupt(dir, () => child?.kill("SIGKILL"))
  const port = await freePort([6379])

  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return
      output = ""
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "no", "--loglevel", "warning"]
      const started = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] })
      started.stdout?.on("data", (data: Buffer) => (output += data.toString()))
      started.stderr?.on("data", (data: Buffer) => (output += data.toString()))
      child = started
      started.once("exit", () => {
        if (child === started) child = undefined
      })
      const deadline = Date.now() + 10_000
      while (!(await pings(port))) {
        if (!child) throw new Error(`Redis did not start: redis-server exited at start:\n${output}`)
        if (Date.now() > deadline) throw new Error(`Redis did not start: redis-server did not answer on ${port} within 10 s:\n${output}`)
        await sleep(20)
      }
    },
    async stop({ crash = false } = {}) {
      const running = child
      if (!running) return
      const exited = new Promise((resolve) => running.once("exit", resolve))
      running.kill(crash ? "SIGKILL" : "SIGTERM")
      await exited
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
    await server.destroy()
    throw error
  }
  return server
}
