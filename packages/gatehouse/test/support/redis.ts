/**
 * The run's Redis for test files (see ./global-setup.ts), clients that go away with the file, and a
 * Redis of a file's own for tests that stop and start it.
 */
import { createClient, type RedisClientType } from "redis"
import { afterAll, beforeAll, inject } from "vitest"
import { startRedis, type RedisServer } from "./redis-server.js"

/** The URL of the run's Redis; throws the global setup's failure when there is none. */
export function redisUrl(): string {
  const url = inject("redisUrl")
  if (!url) throw new Error(`No Redis server for the tests: ${inject("redisError") || "global setup did not run"}`)
  return url
}

/** How many attempts a client makes at its first connection before `connect()` rejects. */
const FIRST_CONNECT_ATTEMPTS = 5

/**
 * A node-redis client for `url` that reconnects quickly, for ever once it has been connected (its
 * errors are expected in outage tests), but whose first `connect()` gives up after a few quick
 * attempts, rejecting with the reason: a Redis that is not there must fail the file, not hang it.
 */
export function testRedisClient(url: string): RedisClientType {
  let connected = false
  const client: RedisClientType = createClient({
    url,
    socket: {
      connectTimeout: 1000,
      reconnectStrategy: (retries, cause) =>
        connected || retries < FIRST_CONNECT_ATTEMPTS ? 100 : new Error(`Redis at ${url} did not answer after ${retries + 1} attempts: ${cause.message}`, { cause }),
    },
  })
  client.on("ready", () => (connected = true))
  client.on("error", () => {})
  return client
}

/** A connected client to the run's Redis, closed after the file's tests; rejects within seconds when it does not answer. */
export async function connectedRedis(): Promise<RedisClientType> {
  const client = await testRedisClient(redisUrl()).connect()
  afterAll(() => client.destroy())
  return client
}

/** A key prefix no other test file uses, so files sharing the run's Redis never see each other's keys. */
export function randomPrefix(): string {
  return `test-${crypto.randomUUID()}:`
}

/**
 * A Redis server of the calling test file's own and a connected client to it, for tests that stop
 * and start the server (doing that to the run's shared one would break the other files). Registers
 * its own beforeAll/afterAll; read `server` and `client` inside tests.
 */
export function ownRedis(): { readonly server: RedisServer; readonly client: RedisClientType } {
  let server: RedisServer | undefined
  let client: RedisClientType | undefined
  beforeAll(async () => {
    server = await startRedis()
    client = await testRedisClient(server.url).connect()
  }, 60_000)
  afterAll(async () => {
    client?.destroy()
    await server?.destroy()
  })
  return {
    get server() {
      return server!
    },
    get client() {
      return client!
    },
  }
}
