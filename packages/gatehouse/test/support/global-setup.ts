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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Like the database: a failure reaches only the browser tests, which then say why.
  try {
    ensureChromium()
    project.provide("chromiumError", "")
  } catch (error) {
    announce("Chromium", reason(error))
    project.provide("chromiumError", reason(error))
  }
  const redis = await provideRedis(project)
  const fromEnv = process.env.DATABASE_URL
  if (fromEnv) {
    try {
      await checkPostgres(fromEnv)
      project.provide("postgresUrl", fromEnv)
      project.provide("postgresError", "")
    } catch (error) {
      announce("PostgreSQL", reason(error))
      project.provide("postgresUrl", "")
      project.provide("postgresError", reason(error))
    }
    return async () => {
      await redis?.destroy()
    }
  }
  let server: PostgresServer | undefined
  try {
    server = await startPostgres()
    project.provide("postgresUrl", server.url)
    project.provide("postgresError", "")
  } catch (error) {
    announce("PostgreSQL", reason(error))
    project.provide("postgresUrl", "")
    project.provide("postgresError", reason(error))
  }
  return async () => {
    await Promise.all([server?.destroy(), redis?.destroy()])
  }
}

/** Redis for the shared-store tests, provided as `redisUrl` (or `redisError`, like PostgreSQL). */
async function provideRedis(project: TestProject): Promise<RedisServer | undefined> {
  const fromEnv = process.env.REDIS_URL
  if (fromEnv) {
    try {
      await checkRedis(fromEnv)
      project.provide("redisUrl", fromEnv)
      project.provide("redisError", "")
    } catch (error) {
      announce("Redis", reason(error))
      project.provide("redisUrl", "")
      project.provide("redisError", reason(error))
    }
    return undefined
  }
  try {
    const server = await startRedis()
    project.provide("redisUrl", server.url)
    project.provide("redisError", "")
    return server
  } catch (error) {
    announce("Redis", reason(error))
    project.provide("redisUrl", "")
    project.provide("redisError", reason(error))
    return undefined
  }
}
