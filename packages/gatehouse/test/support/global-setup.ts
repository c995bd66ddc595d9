/**
 * Vitest global setup: Chromium installed when missing (see ./chromium-install.ts), one Redis
 * (./redis-server.ts; `REDIS_URL` wins) and one PostgreSQL server for the whole run. `DATABASE_URL` wins (CI with a
 * database service); otherwise a throwaway cluster is started here and removed in teardown.
 * Test files get the URL through `inject("postgresUrl")` (see ./postgres.ts; typed in ./provided-context.d.ts).
 *
 * A server that cannot be started is handed on as `postgresError` instead of thrown, so only the
 * tests that need PostgreSQL fail (with this message) and the rest of the suite still runs.
 */
import type { TestProject } from "vitest/node"
import { ensureChromium } from "./chromium-install.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"
import { startRedis, type RedisServer } from "./redis-server.js"

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Like the database: a failure reaches only the browser tests, which then say why.
  try {
    ensureChromium()
    project.provide("chromiumError", "")
  } catch (error) {
    project.provide("chromiumError", error instanceof Error ? error.message : String(error))
  }
  const redis = await provideRedis(project)
  const fromEnv = process.env.DATABASE_URL
  if (fromEnv) {
    project.provide("postgresUrl", fromEnv)
    project.provide("postgresError", "")
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
    project.provide("postgresUrl", "")
    project.provide("postgresError", error instanceof Error ? error.message : String(error))
  }
  return async () => {
    await Promise.all([server?.destroy(), redis?.destroy()])
  }
}

/** Redis for the shared-store tests, provided as `redisUrl` (or `redisError`, like PostgreSQL). */
async function provideRedis(project: TestProject): Promise<RedisServer | undefined> {
  const fromEnv = process.env.REDIS_URL
  if (fromEnv) {
    project.provide("redisUrl", fromEnv)
    project.provide("redisError", "")
    return undefined
  }
  try {
    const server = await startRedis()
    project.provide("redisUrl", server.url)
    project.provide("redisError", "")
    return server
  } catch (error) {
    project.provide("redisUrl", "")
    project.provide("redisError", error instanceof Error ? error.message : String(error))
    return undefined
  }
}
