/**
 * PostgreSQL goes away under a running app and comes back: on its own cluster (the run's shared
 * server serves other test files), requests through `Auth()` must fail cleanly while it is down —
 * no crash, no driver message to the client, no user signed out — and work again once it is back.
 */
import { expect, test } from "vitest"
import { PostgresAdapter } from "../../src/adapters/postgres.js"
import { ownMigratedPostgres } from "../support/postgres.js"
import { Client, credentialsConfig, recordingLogger } from "./flow-helpers.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"

const postgres = ownMigratedPostgres()

test("requests fail cleanly while PostgreSQL is down and sessions work again once it is back", async () => {
  const adapter = PostgresAdapter(postgres.pool)
  const user = await adapter.createUser({ id: crypto.randomUUID(), email: "outage@example.com", emailVerified: null })
  const { logger, lines } = recordingLogger()
  const config = credentialsConfig({
    logger,
    adapter,
    providers: [{ id: "credentials", name: "C", type: "credentials", credentials: {}, authorize: () => ({ id: user.id }) }],
  })
  const alice = new Client(config)
  await alice.signIn({})
  const token = alice.jar.get(SESSION_COOKIE)
  expect(await alice.session()).toMatchObject({ user: { email: "outage@example.com" } })

  await postgres.server.stop()

  const check = await alice.get("session")
  expect(check.status).toBe(200)
  expect(await check.json()).toBeNull()
  // An outage is not a sign-out: the cookie stays, so the session is back with the database.
  expect(check.headers.getSetCookie().filter((line) => line.startsWith(SESSION_COOKIE))).toEqual([])

  const bob = new Client(config)
  const failed = await bob.signIn({})
  expect(failed.status).toBe(302)
  expect(failed.headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
  expect(bob.jar.get(SESSION_COOKIE)).toBeUndefined()
  const json = await bob.postJson("callback/credentials", { csrfToken: await bob.csrfToken() }, { "x-auth-return-redirect": "1" })
  expect(await json.text()).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i)
  expect(lines.map((line) => line.code)).toEqual(expect.arrayContaining(["SessionTokenError", "AdapterError"]))

  await postgres.server.start()

  expect(alice.jar.get(SESSION_COOKIE)).toBe(token)
  expect(await alice.session()).toMatchObject({ user: { email: "outage@example.com" } })
  expect((await bob.signIn({})).headers.get("location")).toBe("https://app.test")
  expect(await bob.session()).toMatchObject({ user: { email: "outage@example.com" } })
}, 120_000)
