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

/** A node-redis client for `url` that reconnects quickly; its errors are expected in outage tests. */
export function testRedisClient(url: string): RedisClientType {
  const client: RedisClientType = createClient({ url, socket: { reconnectStrategy: () => 100, connectTimeout: 1000 } })
  client.on("error", () => {})
  return client
}

/** A connected client to the run's Redis, closed after the file's tests. */
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
