/**
 * Scenario 9: `auth()` in a Next.js route handler, over real HTTP. One Next app (bench/next-app)
 * with two route handlers that answer the request's session as JSON, one through
 * gatehouse-auth/next's `auth()`, one through next-auth's, each with scenario 1's configuration
 * and AUTH_SECRET. Both run in the same `next start` process, so the framework's own cost is the
 * same for both; the session cookie is one value both read (the two libraries share the cookie's
 * name, format and key). The app gets the packed gatehouse-auth, as a user's app would, and is
 * built before the run (about 30 s).
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { encode } from "gatehouse-auth/jwt"
import { claims, secret, sessionCookieName } from "../fixtures.js"
import { alternatingRounds, roundsAtScale, stopLoad, type HttpTarget } from "../http-rounds.js"
import { repoRoot } from "../paths.js"
import type { Scenario } from "../scenario.js"

/** autocannon connections, each with one request in flight. */
const CONNECTIONS = 32

const appDir = join(repoRoot, "bench", "next-app")
const quiet = { stdio: "pipe" as const, encoding: "utf8" as const }

/** Installs the app's dependencies and the freshly packed gatehouse-auth, and builds it without a secret. */
function buildApp(): void {
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"], { ...quiet, cwd: appDir })
  const destination = mkdtempSync(join(tmpdir(), "gatehouse-bench-pack-"))
  const packageDir = join(repoRoot, "packages", "gatehouse")
  const tarball = execFileSync("npm", ["pack", "--pack-destination", destination, "--silent"], { ...quiet, cwd: packageDir }).trim().split("\n").at(-1)!
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", join(destination, tarball)], { ...quiet, cwd: appDir })
  const { AUTH_SECRET: _secret, AUTH_URL: _url, ...env } = process.env
  execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { ...quiet, cwd: appDir, env: { ...env, NEXT_TELEMETRY_DISABLED: "1" } })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on("error", reject)
  })
}

/** `next start` on a free port of 127.0.0.1, once it answers; `stop` ends it. */
async function startApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  let output = ""
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", AUTH_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  })
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill()
    })
  for (let tries = 0; tries < 300; tries++) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}) before answering:\n${output}`)
    if (await fetch(`${url}/api/gatehouse`).catch(() => undefined)) return { url, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`next start did not answer on ${url} within 30 s:\n${output}`)
}

export const nextHttp: Scenario = {
  name: "next-http",
  title: "9. Next.js over HTTP: auth() in a route handler, gatehouse-auth/next vs next-auth, one app (autocannon)",
  async run({ report, scale, cleanup }) {
    buildApp()
    const app = await startApp()
    cleanup(app.stop)
    // Registered last, so it runs first: an interrupted run stops its load before the server goes.
    cleanup(stopLoad)
    const cookie = await encode({ token: claims, secret, salt: sessionCookieName })
    const target = (name: string, path: string): HttpTarget => ({ name, url: app.url, path, cookie })

    const { rounds, roundSeconds, warmupSeconds } = roundsAtScale(scale)
    const versions = JSON.parse(execFileSync("npm", ["ls", "next", "next-auth", "--json"], { ...quiet, cwd: appDir })) as {
      dependencies: Record<string, { version: string }>
    }
    const next = versions.dependencies["next"]?.version
    const nextAuth = versions.dependencies["next-auth"]?.version
    report.note(
      `next ${next} (next start, production build), next-auth ${nextAuth}; one server process, autocannon on the bench's main thread; ` +
        `${CONNECTIONS} connections on 127.0.0.1; ${rounds} rounds of about ${roundSeconds} s per route, alternating, after ${warmupSeconds} s of warm-up each`,
    )
    const [gatehouse, authjs] = await alternatingRounds([target("gatehouse", "/api/gatehouse"), target("auth.js", "/api/authjs")], { connections: CONNECTIONS, scale })
    report.throughput(
      `GET /api/… (a route handler answering auth()) over HTTP, ${CONNECTIONS} connections`,
      { gatehouse: gatehouse!, authjs: authjs! },
      { connections: CONNECTIONS, rounds, roundSeconds, warmupSeconds, next, nextAuth, server: "next start, one process", client: "autocannon, main thread" },
    )
  },
}
