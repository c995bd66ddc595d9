/**
 * Real example apps (examples/next, …) built and started as their users would: their own
 * node_modules (npm install from their lockfile, outside the workspace), the packed
 * gatehouse-auth installed into them, the framework's production build, and the production
 * server started with `node` on a free port of localhost. A build is kept between test runs and
 * redone only when the packed package, the app's sources or its lockfile changed.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import type { NodeRelease } from "./node-release.js"
import { packedPackage } from "./packed-package.js"

/** How an app is built. */
export interface ExampleApp {
  /** The app's directory. */
  dir: string
  /** The build command, run with `node` from the app's directory (e.g. `node_modules/next/dist/bin/next build`). */
  build: string[]
  /** Directories and files, relative to `dir`, that the build reads (hashed to know when to rebuild). */
  sources: string[]
  /** A file, relative to `dir`, that a finished build leaves (`.next/BUILD_ID`). */
  built: string
  /** The Node.js release that installs, builds and runs the app (see node-release.ts). Default: the one running the tests. */
  node?: NodeRelease
  /** Variables the build reads (SvelteKit 3's `paths.origin` from `ORIGIN`); part of what decides a rebuild. */
  buildEnv?: Record<string, string>
}

/** A started app. */
export interface RunningApp {
  url: string
  port: number
  /** Everything the server printed, for failure messages. */
  output(): string
  stop(): Promise<void>
}

const quiet = { stdio: "pipe" as const, encoding: "utf8" as const }

/**
 * Installs the app's dependencies and the packed package, and builds it unless the last build is
 * current. One app at a time across the test workers: two framework builds side by side on a
 * 2-core machine take longer than one after the other, and need twice the memory.
 */
export function buildExampleApp(app: ExampleApp): void {
  withBuildLock(() => installAndBuild(app))
}

/**
 * Installs the app's dependencies and the packed package without building it: for tests that
 * import the app's own modules (a page's guard) rather than drive the running app. Under the
 * same lock as the builds, since both write the app's node_modules.
 */
export function installExampleApp(app: Pick<ExampleApp, "dir" | "node">): void {
  withBuildLock(() => install(app))
}

const BUILD_LOCK = join(tmpdir(), "gatehouse-example-app-build.lock")

/** How deep this process is inside {@link withBuildLock}: work under the lock may call what takes it again. */
let lockDepth = 0

/**
 * Runs `work` holding a lock directory; a lock left by a process that no longer runs is taken
 * over. Shared by everything the tests install into folders of their own (see authjs-packages.ts),
 * and by what writes the sources of an app kept in the OS temp dir, so that another checkout's
 * test never builds it half rewritten. Re-entrant: writing an app's sources and building it can
 * be one piece of work (`withBuildLock(() => { write(); buildExampleApp(app) })`).
 */
export function withBuildLock(work: () => void): void {
  if (lockDepth > 0) {
    lockDepth++
    try {
      return work()
    } finally {
      lockDepth--
    }
  }
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK)
      break
    } catch {
      const owner = Number(readFileSafe(join(BUILD_LOCK, "pid")))
      // No pid a minute after the lock was made: its maker died between the two steps.
      const abandoned = owner > 0 ? !isRunning(owner) : Date.now() - modifiedAt(BUILD_LOCK) > 60_000
      if (abandoned) rmSync(BUILD_LOCK, { recursive: true, force: true })
      else Atomics.wait(pause, 0, 0, 500) // a synchronous sleep: the builds are synchronous too
    }
  }
  lockDepth = 1
  try {
    writeFileSync(join(BUILD_LOCK, "pid"), String(process.pid))
    work()
  } finally {
    lockDepth = 0
    rmSync(BUILD_LOCK, { recursive: true, force: true })
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return ""
  }
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return Date.now()
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

function installAndBuild(app: ExampleApp): void {
  const tarball = install(app)
  const inputs = [tarball, ...app.sources.map((source) => join(app.dir, source))]
  const settings = JSON.stringify(app.buildEnv ?? {})
  if (existsSync(join(app.dir, app.built)) && !stale(app, "build", inputs, settings)) return
  // Built without a secret, as CI builds apps: a missing secret must fail the first request, not the build.
  const withoutSecrets = { AUTH_SECRET: undefined, AUTH_URL: undefined, LEGACYAUTH_SECRET: undefined, LEGACYAUTH_URL: undefined }
  try {
    const env = { ...process.env, ...withoutSecrets, NEXT_TELEMETRY_DISABLED: "1", ...app.buildEnv }
    execFileSync(app.node?.node ?? process.execPath, app.build, { ...quiet, cwd: app.dir, env: app.node?.env(env) ?? env })
  } catch (error) {
    // Type checks print their errors on stdout, which the exception's message leaves out.
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`\`node ${app.build.join(" ")}\` failed in ${app.dir}:\n${stdout ?? ""}${stderr ?? ""}`)
  }
  stamp(app, "build", inputs, settings)
}

/**
 * Gives `app` the installed node_modules of `host` (an example app with the same frameworks and
 * versions, installed with the packed package as {@link installExampleApp} does, under the host's
 * `node` when it has one), as hard links:
 * an install in a second without the registry. Done again when the host's install changed. The
 * app's own stamps are written fresh, never through a link, so they cannot change the host's;
 * caches the tools write into node_modules are left out for the same reason. Nothing ever runs
 * npm in the app.
 */
export function borrowExampleModules(host: Pick<ExampleApp, "dir" | "node">, app: Pick<ExampleApp, "dir">): void {
  withBuildLock(() => {
    install(host)
    const hostModules = join(host.dir, "node_modules")
    const modules = join(app.dir, "node_modules")
    const hostState = [".gatehouse-install-stamp", ".gatehouse-auth-tarball"].map((name) => readFileSafe(join(hostModules, name))).join(" ")
    const borrowed = join(modules, ".gatehouse-borrowed-from")
    if (readFileSafe(borrowed) !== hostState) {
      rmSync(modules, { recursive: true, force: true })
      mkdirSync(modules, { recursive: true })
      for (const name of readdirSync(hostModules)) {
        if (name.startsWith(".") && name !== ".bin" && name !== ".package-lock.json") continue
        execFileSync("cp", ["-al", join(hostModules, name), join(modules, name)], quiet)
      }
      writeFileSync(join(modules, ".gatehouse-auth-tarball"), readFileSync(join(hostModules, ".gatehouse-auth-tarball")))
      writeFileSync(borrowed, hostState)
    }
    // What install() checks, so it never reinstalls into the linked tree: current for this package.json.
    stamp(app, "install", [join(app.dir, "package.json")])
  })
}

/** The app's dependencies from its lockfile, and the packed package, each only when changed; returns the tarball's path. */
function install(app: Pick<ExampleApp, "dir" | "node">): string {
  const tarball = packedPackage()
  // npm, and the addon builds it runs, under the app's Node: better-sqlite3 built for Node 20 does not load in 24.
  const npm = { ...quiet, cwd: app.dir, env: app.node?.env() ?? process.env }
  if (!existsSync(join(app.dir, "node_modules", ".package-lock.json")) || stale(app, "install", [join(app.dir, "package.json")])) {
    // --no-save: the lockfile is read, never rewritten (this registry serves only this platform's optional binaries).
    execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"], npm)
    stamp(app, "install", [join(app.dir, "package.json")])
    // That install removed the packed package (in no package.json): installed again below.
    rmSync(join(app.dir, "node_modules", ".gatehouse-auth-tarball"), { force: true })
  }
  const tarballHash = hashOf([tarball])
  const installed = join(app.dir, "node_modules", ".gatehouse-auth-tarball")
  if (!existsSync(installed) || readFileSync(installed, "utf8") !== tarballHash) {
    // --no-save: the app's lockfile stays as committed; the package comes from this build.
    execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], npm)
    writeFileSync(installed, tarballHash)
  }
  return tarball
}

/** What {@link startExampleApp} starts. */
export interface StartOptions {
  /** The command's arguments after `node`, given the port (e.g. `next start -p <port>`). */
  command: (port: number) => string[]
  env: Record<string, string>
  /** A path that answers once the server is up. Default `/`. */
  readyPath?: string
  /**
   * The port to listen on, when the caller needed it earlier (to register a callback URL) or the
   * build fixed it (SvelteKit 3's `paths.origin`). Default: a free one. A given port must be free:
   * the start fails naming it, rather than taking whatever answers there for the app.
   */
  port?: number
  /** Variables taken out of what the server inherits (this process's, and the default NODE_ENV), after `env` is laid over it. */
  unset?: readonly string[]
}

/** Starts the app's production server with `env` and `PORT`, and waits until `readyPath` answers. */
export async function startExampleApp(app: ExampleApp, options: StartOptions): Promise<RunningApp> {
  const { command, env, readyPath = "/", unset = [] } = options
  const port = options.port ?? (await freePort())
  if (options.port !== undefined) await assertPortFree(port)
  const url = `http://localhost:${port}`
  let output = ""
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), ...env }
  for (const name of unset) delete childEnv[name]
  const child: ChildProcess = spawn(app.node?.node ?? process.execPath, command(port), { cwd: app.dir, env: app.node?.env(childEnv) ?? childEnv, stdio: ["ignore", "pipe", "pipe"] })
  child.stdout?.on("data", (chunk) => (output += chunk))
  child.stderr?.on("data", (chunk) => (output += chunk))
  // A child ended by a signal has no exit code but a signal code, and will send no second "exit".
  const ended = () => child.exitCode !== null || child.signalCode !== null
  const stop = () =>
    new Promise<void>((resolve) => {
      if (ended()) return resolve()
      // A server that ignores SIGTERM (a hung handler, a shutdown hook waiting on a socket) is
      // killed after 10 s rather than holding the test run open.
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      child.once("exit", () => {
        clearTimeout(killer)
        resolve()
      })
      child.kill()
    })
  const what = `the example app in ${app.dir}`
  // A deadline, not a count of tries. Each try waits up to 10 s (never past the deadline): a first
  // render on a loaded 2-core machine may take seconds, and aborting it only starts it over.
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const taken = output.includes("EADDRINUSE") ? `: port ${port} was taken by another process as it started` : ""
      throw new Error(`${what} exited (${child.exitCode}) before answering${taken}:\n${output}`)
    }
    const answer = await fetch(`${url}${readyPath}`, { redirect: "manual", signal: AbortSignal.timeout(Math.max(1, Math.min(10_000, deadline - Date.now()))) }).catch(() => undefined)
    if (answer) return { url, port, output: () => output, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`${what} did not answer on ${url} within 30 s:\n${output}`)
}

/**
 * Fails, naming `port`, when something listens on it on loopback (IPv4 or IPv6, as `localhost`
 * may be either): the app's start would fail, or worse, the test would drive whatever answers.
 */
async function assertPortFree(port: number): Promise<void> {
  for (const host of ["127.0.0.1", "::1"]) {
    const refused = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const server = createServer()
      server.once("error", (error: NodeJS.ErrnoException) => resolve(error))
      server.listen(port, host, () => server.close(() => resolve(undefined)))
    })
    // A machine without IPv6 has no ::1 to be taken on.
    if (refused && refused.code !== "EADDRNOTAVAIL" && refused.code !== "EAFNOSUPPORT") {
      throw new Error(
        `port ${port} is taken on ${host} (${refused.code}): the app must listen there (its build fixed its address), so stop whatever holds port ${port} and run again`,
      )
    }
  }
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on("error", reject)
  })
}

function stampFile(app: Pick<ExampleApp, "dir">, kind: string): string {
  return join(app.dir, "node_modules", `.gatehouse-${kind}-stamp`)
}

function stale(app: Pick<ExampleApp, "dir">, kind: string, inputs: string[], settings = ""): boolean {
  const file = stampFile(app, kind)
  return !existsSync(file) || readFileSync(file, "utf8") !== hashOf(inputs, settings)
}

function stamp(app: Pick<ExampleApp, "dir">, kind: string, inputs: string[], settings = ""): void {
  writeFileSync(stampFile(app, kind), hashOf(inputs, settings))
}

/** A hash of the files under `paths` (names and contents), skipping build output and dependencies, and of `settings`. */
function hashOf(paths: string[], settings = ""): string {
  const hash = createHash("sha256")
  if (settings) hash.update(settings).update("\0")
  const visit = (path: string, root: string) => {
    if (!existsSync(path)) return
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name === "node_modules" || name === ".next" || name === "build" || name === ".output" || name.endsWith(".db")) continue
        visit(join(path, name), root)
      }
      return
    }
    hash.update(relative(root, path)).update("\0").update(readFileSync(path)).update("\0")
  }
  for (const path of paths) visit(path, path)
  return hash.digest("hex")
}
