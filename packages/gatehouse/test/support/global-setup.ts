/**
 * Vitest global setup: Chromium installed when missing (see ./chromium-install.ts), one Redis
 * (./redis-server.ts; `REDIS_URL` wins) and one PostgreSQL server for the whole run. `DATABASE_URL` wins (CI with a
 * database service); otherwise a throwaway cluster is started here and removed in teardown.
 * Test files get the URL through `inject("postgresUrl")` (see ./postgres.ts; typed in ./provided-context.d.ts).
 *
 * A server that cannot be started, or a `DATABASE_URL`/`REDIS_URL` that does not answer within
 * seconds, is handed on as `postgresError`/`redisError` instead of thrown, so only the tests that
 * need it fail (at once, with this message) and the rest of the suite still runs; the setup prints
 * one line naming it. The servers' temp folders go on SIGINT/SIGTERM too (./throwaway-dirs.ts).
 */
import type { TestProject } from "vitest/node"
import { ensureChromium } from "./chromium-install.js"
import { checkPostgres, startPostgres, type PostgresServer } from "./postgres-server.js"
import { checkRedis, startRedis, type RedisServer } from "./redis-server.js"

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The one line a run prints for a service its tests will not have. */
function announce(service: string, problem: string): void {
  console.error(`[gatehouse tests] ${service} unavailable, its tests will fail: ${problem.split("\n")[0]}`)
}

/** What the services came to: a URL, or why there is none. */
interface Provided {
  url: string
  error: string
}

/** The run's services, started once however many vitest projects run this setup. */
interface Services {
  chromiumError: string
  postgres: Provided
  redis: Provided
  /** Projects set up and not yet torn down: the last teardown stops the servers. */
  users: number
  destroy(): Promise<void>
}

/**
 * Every vitest project runs the global setup, so a run with two projects would start two
 * PostgreSQL clusters and two Redis servers (time and memory a two-core CI machine lacks). The
 * first setup starts them; the others get the same, through `globalThis` in case the module is
 * loaded once per project.
 */
const SERVICES = Symbol.for("gatehouse-tests.services")

function sharedServices(): Promise<Services> {
  const holder = globalThis as unknown as Record<symbol, Promise<Services> | undefined>
  return (holder[SERVICES] ??= startServices())
}

async function startServices(): Promise<Services> {
  // Like the database: a failure reaches only the browser tests, which then say why.
  let chromiumError = ""
  try {
    ensureChromium()
  } catch (error) {
    announce("Chromium", reason(error))
    chromiumError = reason(error)
  }
  const [redisServer, redis] = await startRedisService()
  const [postgresServer, postgres] = await startPostgresService()
  return {
    chromiumError,
    postgres,
    redis,
    users: 0,
    destroy: async () => {
      await Promise.all([postgresServer?.destroy(), redisServer?.destroy()])
    },
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await sharedServices()
  services.users++
  project.provide("chromiumError", services.chromiumError)
  project.provide("postgresUrl", services.postgres.url)
  project.provide("postgresError", services.postgres.error)
  project.provide("redisUrl", services.redis.url)
  project.provide("redisError", services.redis.error)
  return async () => {
    if (--services.users === 0) await services.destroy()
  }
}

/** PostgreSQL: `DATABASE_URL` when it answers, else a throwaway cluster (the server to stop with it). */
async function startPostgresService(): Promise<[PostgresServer | undefined, Provided]> {
  const fromEnv = process.env.DATABASE_URL
  try {
    if (fromEnv) {
      await checkPostgres(fromEnv)
      return [undefined, { url: fromEnv, error: "" }]
    }
    const server = await startPostgres()
    return [server, { url: server.url, error: "" }]
  } catch (error) {
    announce("PostgreSQL", reason(error))
    return [undefined, { url: "", error: reason(error) }]
  }
}

/** Redis for the shared-store tests: `REDIS_URL` when it answers, else a throwaway server. */
async function startRedisService(): Promise<[RedisServer | undefined, Provided]> {
  const fromEnv = process.env.REDIS_URL
  try {
    if (fromEnv) {
      await checkRedis(fromEnv)
      return [undefined, { url: fromEnv, error: "" }]
    }
    const server = await startRedis()
    return [server, { url: server.url, error: "" }]
  } catch (error) {
    announce("Redis", reason(error))
    return [undefined, { url: "", error: reason(error) }]
  }
}
