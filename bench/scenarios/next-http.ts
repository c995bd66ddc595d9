/**
 * Scenario 9: `auth()` in a Next.js route handler, over real HTTP. One Next app (bench/next-app)
 * with two route handlers that answer the request's session as JSON, one through
 * gatehouse-auth/next's `auth()`, one through next-auth's, each with scenario 1's configuration
 * and AUTH_SECRET. Both run in the same `next start` process, so the framework's own cost is the
 * same for both; the session cookie is one value both read (the two libraries share the cookie's
 * name, format and key). The app is built as the example apps are (test/support/example-app.ts):
 * the packed gatehouse-auth installed as a user's app would get it, and the build kept while its
 * inputs are unchanged (about 30 s when they changed).
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { encode } from "gatehouse-auth/jwt"
import { buildExampleApp, startExampleApp, type ExampleApp } from "../../packages/gatehouse/test/support/example-app.js"
import { claims, secret, sessionCookieName } from "../fixtures.js"
import { alternatingRounds, roundsAtScale, stopLoad, type HttpTarget } from "../http-rounds.js"
import { repoRoot } from "../paths.js"
import type { Scenario } from "../scenario.js"

/** autocannon connections, each with one request in flight. */
const CONNECTIONS = 32

/** Built as the example apps are: its own install, the packed package, no secret at build time. */
const app: ExampleApp = {
  dir: join(repoRoot, "bench", "next-app"),
  build: ["node_modules/next/dist/bin/next", "build"],
  sources: ["app", "next.config.mjs", "package.json"],
  built: ".next/BUILD_ID",
}

export const nextHttp: Scenario = {
  name: "next-http",
  title: "9. Next.js over HTTP: auth() in a route handler, gatehouse-auth/next vs next-auth, one app (autocannon)",
  async run({ report, scale, cleanup }) {
    buildExampleApp(app)
    const running = await startExampleApp(app, {
      command: (port) => ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "localhost"],
      env: { AUTH_SECRET: secret },
      readyPath: "/api/gatehouse",
    })
    cleanup(running.stop)
    // Registered last, so it runs first: an interrupted run stops its load before the server goes.
    cleanup(stopLoad)
    const cookie = await encode({ token: claims, secret, salt: sessionCookieName })
    const target = (name: string, path: string): HttpTarget => ({ name, url: running.url, path, cookie })

    const { rounds, roundSeconds, warmupSeconds } = roundsAtScale(scale)
    const versions = JSON.parse(execFileSync("npm", ["ls", "next", "next-auth", "--json"], { cwd: app.dir, encoding: "utf8" })) as {
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
