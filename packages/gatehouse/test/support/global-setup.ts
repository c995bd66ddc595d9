/**
 * Vitest global setup: Chromium installed when missing (see ./chromium-install.ts), and one PostgreSQL
 * server for the whole run. `DATABASE_URL` wins (CI with a
 * database service); otherwise a throwaway cluster is started here and removed in teardown.
 * Test files get the URL through `inject("postgresUrl")` (see ./postgres.ts; typed in ./provided-context.d.ts).
 *
 * A server that cannot be started is handed on as `postgresError` instead of thrown, so only the
 * tests that need PostgreSQL fail (with this message) and the rest of the suite still runs.
 */
import type { TestProject } from "vitest/node"
import { ensureChromium } from "./chromium-install.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Like the database: a failure reaches only the browser tests, which then say why.
  try {
    ensureChromium()
    project.provide("chromiumError", "")
  } catch (error) {
    project.provide("chromiumError", error instanceof Error ? error.message : String(error))
  }
  const fromEnv = process.env.DATABASE_URL
  if (fromEnv) {
    project.provide("postgresUrl", fromEnv)
    project.provide("postgresError", "")
    return async () => {}
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
    await server?.destroy()
  }
}
