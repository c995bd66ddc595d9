/** The run's Redis for test files (see ./global-setup.ts), and clients that go away with the file. */
import { createClient, type RedisClientType } from "redis"
import { afterAll, inject } from "vitest"

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
