/**
 * Scenario 3: the database session check. Gatehouse's SQLite adapter alone (Auth.js has no
 * SQLite adapter of its own to set beside it), then PostgreSQL: Gatehouse's adapter against
 * @auth/pg-adapter on one throwaway cluster, one schema, one seeded session.
 */
import { Auth as authjsAuth } from "@auth/core"
import authjsGitHub from "@auth/core/providers/github"
import authjsPostgresAdapter from "@auth/pg-adapter"
import { createHash } from "node:crypto"
import Database from "better-sqlite3"
import { Auth as gatehouseAuth } from "gatehouse-auth"
import { PostgresAdapter as gatehousePostgresAdapter, migrate } from "gatehouse-auth/adapters/postgres"
import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
import type { StoredAdapter } from "gatehouse-auth/adapters"
import gatehouseGitHub from "gatehouse-auth/providers/github"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { createClient } from "redis"
import { redisStore } from "gatehouse-auth/stores/redis"
import { startPostgres } from "../../packages/gatehouse/test/support/postgres-server.js"
import { startRedis } from "../../packages/gatehouse/test/support/redis-server.js"
import { basePath, claims, githubOptions, secret } from "../fixtures.js"
import { queryFloor } from "../floors.js"
import { compare, interleave, timingAtScale } from "../measure.js"
import type { Scenario, ScenarioContext } from "../scenario.js"
import { sessionCheck } from "../session-checks.js"

/** Each library gets a pool of its own, of this size. */
const POOL_SIZE = 10

/** Far enough ahead that neither library finds the session due for extension, so no call writes. */
const EXPIRES = new Date(Date.now() + 365 * 24 * 3600 * 1000)

/** The database-session configuration, for either library's adapter and GitHub provider. */
function databaseConfig<Adapter, Provider>(adapter: Adapter, GitHub: (options: typeof githubOptions) => Provider) {
  return { secret, basePath, trustHost: true, adapter, session: { strategy: "database" as const }, providers: [GitHub({ ...githubOptions })] }
}

/**
 * A pool whose idle connections may be cut without crashing the process. pool.end() resolves
 * before its connections have closed, so the server's shutdown right after can still reach one,
 * and pg reports that as an 'error' event (fatal when nobody listens). While the pool is in use,
 * a broken connection also fails the query in flight, which stops the run anyway.
 */
function pool(url: string): pg.Pool {
  const created = new pg.Pool({ connectionString: url, max: POOL_SIZE })
  created.on("error", (error) => {
    if (!created.ending) console.error("PostgreSQL connection lost:", error.message)
  })
  return created
}

/**
 * One user with one session; returns the session token, the cookie's whole value. The row holds
 * it as the library that reads it stores it: hashed (`sha256:<hex>`) for Gatehouse, whose sign-ins
 * write that (`session.hashTokens`, the default), raw for Auth.js. A raw row would make Gatehouse
 * look up the hash first and miss, the path of rows Auth.js wrote before a switch.
 */
async function seed(adapter: StoredAdapter, stored: "hashed" | "raw"): Promise<string> {
  const user = await adapter.createUser({ name: claims.name, email: `${stored}-${claims.email}`, image: claims.picture, emailVerified: null })
  const sessionToken = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")
  const key = stored === "hashed" ? `sha256:${createHash("sha256").update(sessionToken).digest("hex")}` : sessionToken
  await adapter.createSession({ sessionToken: key, userId: user.id, expires: EXPIRES })
  return sessionToken
}

async function postgres({ report, scale, cleanup }: ScenarioContext): Promise<void> {
  const server = await startPostgres()
  cleanup(() => server.destroy())
  report.note(`PostgreSQL: throwaway cluster on 127.0.0.1:${server.port}; a pg Pool of ${POOL_SIZE} per library`)
  const gatehousePool = pool(server.url)
  cleanup(() => gatehousePool.end())
  const authjsPool = pool(server.url)
  cleanup(() => authjsPool.end())

  // Gatehouse's schema is Auth.js's layout (same tables and columns) plus indexes, so both read it.
  await migrate(gatehousePool)
  const gatehouseAdapter = gatehousePostgresAdapter(gatehousePool)
  const gatehouseToken = await seed(gatehouseAdapter, "hashed")
  const authjsToken = await seed(gatehouseAdapter, "raw")

  const gatehouseConfig = databaseConfig(gatehouseAdapter, gatehouseGitHub)
  const authjsConfig = databaseConfig(authjsPostgresAdapter(authjsPool), authjsGitHub)
  const checks = {
    gatehouse: sessionCheck((request) => gatehouseAuth(request, gatehouseConfig), "gatehouse", gatehouseToken, `hashed-${claims.email}`),
    authjs: sessionCheck((request) => authjsAuth(request, authjsConfig), "auth.js", authjsToken, `raw-${claims.email}`),
  }
  for (const concurrency of [1, 64]) {
    const timings = await compare(checks, timingAtScale(scale, concurrency))
    report.throughput(`PostgreSQL, ${concurrency === 1 ? "sequential" : `concurrency ${concurrency}`}`, timings, { concurrency, poolSize: POOL_SIZE })
  }
  // What no adapter can skip: one round trip for the session and its user. Against it, what the
  // ratio to Auth.js can still gain (Auth.js's adapter makes two).
  const floor = queryFloor(gatehousePool, gatehouseToken, `hashed-${claims.email}`)
  const [gatehouse, floorTiming] = await interleave(
    [
      { name: "gatehouse", op: checks.gatehouse },
      { name: "query floor", op: floor },
    ],
    timingAtScale(scale, 1),
  )
  report.cost("PostgreSQL: Auth() session route vs the query floor, sequential", { gatehouse: gatehouse!, floor: floorTiming! }, "query floor")

  // The opt-in read-through cache (`session.cacheMaxAge` with a Redis `sharedStore`): what an app
  // running many instances can set to read a session without the join. Not the default, so
  // reported beside the lines above, never instead of them.
  const redis = await startRedis()
  cleanup(() => redis.destroy())
  await redis.start()
  const client = await createClient({ url: redis.url }).connect()
  cleanup(() => client.destroy())
  const cachedConfig = { ...gatehouseConfig, sharedStore: redisStore({ client }), session: { strategy: "database" as const, cacheMaxAge: 60 } }
  const cached = {
    gatehouse: sessionCheck((request) => gatehouseAuth(request, cachedConfig), "gatehouse", gatehouseToken, `hashed-${claims.email}`),
    authjs: checks.authjs,
  }
  for (const concurrency of [1, 64]) {
    const timings = await compare(cached, timingAtScale(scale, concurrency))
    report.throughput(`PostgreSQL with the opt-in session cache in Redis (session.cacheMaxAge: 60, redisStore), ${concurrency === 1 ? "sequential" : `concurrency ${concurrency}`}`, timings, { concurrency, poolSize: POOL_SIZE })
  }
}

async function sqlite({ report, scale, cleanup }: ScenarioContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-bench-"))
  cleanup(() => rmSync(dir, { recursive: true, force: true }))
  const db = new Database(join(dir, "auth.db"))
  cleanup(() => db.close())
  const adapter = SQLiteAdapter(db)
  const sessionToken = await seed(adapter, "hashed")
  const config = databaseConfig(adapter, gatehouseGitHub)
  const check = sessionCheck((request) => gatehouseAuth(request, config), "gatehouse", sessionToken, `hashed-${claims.email}`)
  // Sequential only: better-sqlite3 is synchronous, so calls in flight would only queue.
  const [timing] = await interleave([{ name: "gatehouse", op: check }], timingAtScale(scale, 1))
  report.throughput("SQLite (better-sqlite3, temp file), sequential", { gatehouse: timing! }, { concurrency: 1 })
}

export const databaseSession: Scenario = {
  name: "session-database",
  title: "3. Database session check: GET /auth/session, session row read through the adapter",
  // SQLite first: it has no Auth.js figure, and the scenario's last line should be a ratio.
  async run(context) {
    await sqlite(context)
    await postgres(context)
  },
}
