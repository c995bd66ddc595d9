import { describe, expect, it, test } from "vitest"
import { SharedStoreError } from "../../src/errors.js"
import { redisStore } from "../../src/stores/redis.js"
import { runStoreConformance } from "../../src/testing/store.js"
import { connectedRedis, randomPrefix } from "../support/redis.js"

const client = await connectedRedis()
const prefix = randomPrefix()

describe("Redis store: conformance", () => {
  runStoreConformance({ store: redisStore({ client, prefix }), test })
})

describe("Redis store: keys and failures", () => {
  it("puts every key under the prefix", async () => {
    const store = redisStore({ client, prefix })
    await store.set("seen:abc", "1", 60)
    await store.increment("count:abc", 60)
    expect(await client.get(`${prefix}seen:abc`)).toBe("1")
    expect(await client.get(`${prefix}count:abc`)).toBe("1")
    expect(await client.pTTL(`${prefix}count:abc`)).toBeGreaterThan(50_000)
  })

  it("fails at once with SharedStoreError when the client is not connected", async () => {
    const store = redisStore({ client: { isReady: false, sendCommand: () => new Promise(() => {}) }, prefix })
    const started = Date.now()
    await expect(store.get("k")).rejects.toBeInstanceOf(SharedStoreError)
    expect(Date.now() - started).toBeLessThan(50)
  })

  it("gives up on a command that does not answer within the timeout", async () => {
    const store = redisStore({ client: { sendCommand: () => new Promise(() => {}) }, prefix, commandTimeoutMs: 100 })
    const started = Date.now()
    await expect(store.increment("k", 60)).rejects.toThrow(/did not answer EVAL within 100 ms/)
    expect(Date.now() - started).toBeLessThan(400)
  })

  it("refuses something that is not a Redis client", () => {
    expect(() => redisStore({ client: {} as never })).toThrow(SharedStoreError)
  })
})
