/**
 * The database goes away and comes back: on its own cluster (stopping the run's shared server
 * would break the other test files), the adapter's calls must fail promptly while it is down,
 * nothing may crash the process, and the same Pool and adapter must work once it is back.
 */
import { expect, test } from "vitest"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import { ownMigratedPostgres } from "../support/postgres.js"

const postgres = ownMigratedPostgres()

test("calls fail while the server is down and work again on the same Pool once it is back", async () => {
  const adapter = PostgresAdapter(postgres.pool)
  const user = await adapter.createUser({ id: crypto.randomUUID(), email: "outage@example.com", emailVerified: null })
  // Several idle connections, so the shutdown has idle clients to kill ('error' on the Pool).
  await Promise.all(Array.from({ length: 4 }, () => adapter.getUser(user.id)))
  expect(postgres.pool.totalCount).toBeGreaterThan(1)

  // A query in flight when the server stops is cut off, not left hanging.
  const inFlight = postgres.pool.query("SELECT pg_sleep(30)")
  inFlight.catch(() => {})
  await new Promise((resolve) => setTimeout(resolve, 200))
  await postgres.server.stop()
  await expect(inFlight).rejects.toThrow()

  const started = Date.now()
  await expect(adapter.getUser(user.id)).rejects.toThrow()
  await expect(adapter.getSessionAndUser("any")).rejects.toThrow()
  await expect(adapter.useVerificationToken({ identifier: "a", token: "b" })).rejects.toThrow()
  await expect(adapter.createUser({ id: crypto.randomUUID(), email: "down@example.com", emailVerified: null })).rejects.toThrow()
  expect(Date.now() - started).toBeLessThan(10_000)

  await postgres.server.start()
  expect(await adapter.getUser(user.id)).toEqual(user)
  const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000) })
  expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(user.id)
}, 120_000)
