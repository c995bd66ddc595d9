/**
 * Configuration of the shared store and the session cache: a `sharedStore` that is not one (a
 * string, null, a Redis client given as is, methods that are not functions) and a `cacheMaxAge`
 * that is not a number of seconds are refused as InvalidConfig naming the option, before any
 * request is served; a cache that could never be used is warned about once per configuration.
 */
import { describe, expect, it } from "vitest"
import { assertConfig } from "../../src/core/assert-config.js"
import { resolveConfig } from "../../src/core/config.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Credentials } from "../../src/providers/credentials.js"
import { memoryStore } from "../../src/stores/memory.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, credentialsConfig, recordingLogger } from "../flow/flow-helpers.js"

const url = "https://app.test/auth/session"

function errorOf(extra: Partial<AuthConfig>) {
  const { error } = assertConfig(resolveConfig(credentialsConfig(extra), {}), { url })
  return error && { type: error.type, message: error.message }
}
function warningsOf(extra: Partial<AuthConfig>) {
  return assertConfig(resolveConfig(credentialsConfig(extra), {}), { url }).warnings
}

const HINT = "(a Redis client goes through redisStore({ client }) from gatehouse-auth/stores/redis)"
const noop = () => Promise.resolve(null)

describe("a sharedStore that is not a shared store", () => {
  it.each([
    ["a Redis URL", "redis://127.0.0.1:6379", "received string"],
    ["null", null, "received null"],
    ["a function", () => {}, "received function"],
  ])("is refused as InvalidConfig when it is %s", (_what, store, received) => {
    expect(errorOf({ sharedStore: store as never })).toEqual({
      type: "InvalidConfig",
      message: `\`sharedStore\` must be a shared store object ${HINT}; ${received}`,
    })
  })

  it("is refused when it is a Redis client given as is, naming the methods it lacks", () => {
    // What node-redis offers under other names (incr, del), and nothing like setIfAbsent.
    const client = { get: noop, set: noop, del: noop, incr: noop, sendCommand: noop }
    expect(errorOf({ sharedStore: client as never })).toEqual({
      type: "InvalidConfig",
      message: `\`sharedStore\` must be a shared store ${HINT}; it lacks the methods increment, setIfAbsent, delete`,
    })
  })

  it("is refused when its methods are not functions", () => {
    const store = { increment: 1, setIfAbsent: "yes", get: noop, set: noop, delete: null }
    expect(errorOf({ sharedStore: store as never })?.message).toBe(`\`sharedStore\` must be a shared store ${HINT}; it lacks the methods increment, setIfAbsent, delete`)
  })

  it("answers requests with the configuration error, and never calls the store", async () => {
    const { logger, lines } = recordingLogger()
    const calls: string[] = []
    const half = { get: (key: string) => (calls.push(key), Promise.resolve(null)) }
    const response = await new Client(credentialsConfig({ logger, sharedStore: half as never })).get("session")
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain("sharedStore")
    expect(lines.filter((line) => line.level === "error").map((line) => line.code)).toEqual(["InvalidConfig"])
    expect(calls).toEqual([])
  })

  it("refuses an attempt for now (503) when the store answers a count that is no count, and logs the broken store as a fault", async () => {
    const { logger, lines } = recordingLogger()
    const broken = { ...memoryStore(), increment: () => Promise.resolve("3" as unknown as number) }
    const counted = Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })
    const response = await new Client(credentialsConfig({ logger, sharedStore: broken, providers: [counted] })).signIn()
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("5")
    expect(lines.filter((line) => line.level === "error").map((line) => [line.code, (line.message[0] as Error).message])).toEqual([
      ["SharedStoreError", "The shared store counted a string, not a count"],
    ])
  })

  it("passes when it is one (the memory store)", () => {
    expect(errorOf({ sharedStore: memoryStore() })).toBeUndefined()
  })
})

describe("session.cacheMaxAge", () => {
  it.each([
    ["a negative number", -1, "-1"],
    ["NaN", Number.NaN, "NaN"],
    ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
    ["a string", "30", '"30"'],
    ["true", true, "true"],
  ])("refuses %s as InvalidConfig naming the option", (_what, value, shown) => {
    const adapter = MemoryAdapter()
    expect(errorOf({ adapter, sharedStore: memoryStore(), session: { strategy: "database", cacheMaxAge: value as number } })).toEqual({
      type: "InvalidConfig",
      message: `\`session.cacheMaxAge\` must be a number of seconds of at least 0; received ${shown}`,
    })
  })

  it("accepts 0 (no cache) and a positive number of seconds, fractions included", () => {
    const adapter = MemoryAdapter()
    for (const cacheMaxAge of [0, 0.5, 30]) {
      expect(errorOf({ adapter, sharedStore: memoryStore(), session: { strategy: "database", cacheMaxAge } })).toBeUndefined()
    }
  })
})

describe("the session-cache-unused warning", () => {
  it("fires when cacheMaxAge is set without a shared store, or with JWT sessions", () => {
    const adapter = MemoryAdapter()
    expect(warningsOf({ adapter, session: { strategy: "database", cacheMaxAge: 30 } })).toEqual(["session-cache-unused"])
    expect(warningsOf({ adapter, sharedStore: memoryStore(), session: { strategy: "jwt", cacheMaxAge: 30 } })).toEqual(["session-cache-unused"])
  })

  it("stays quiet when the cache is used or not asked for", () => {
    const adapter = MemoryAdapter()
    expect(warningsOf({ adapter, sharedStore: memoryStore(), session: { strategy: "database", cacheMaxAge: 30 } })).toEqual([])
    expect(warningsOf({ adapter, session: { strategy: "database", cacheMaxAge: 0 } })).toEqual([])
    expect(warningsOf({ adapter, session: { strategy: "database" } })).toEqual([])
  })

  it("is logged once per configuration, with what to do, however many requests it serves", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client(credentialsConfig({ logger, sharedStore: memoryStore(), session: { strategy: "jwt", cacheMaxAge: 30 } }))
    for (let i = 0; i < 3; i++) expect((await client.get("session")).status).toBe(200)
    const warned = lines.filter((line) => line.code === "session-cache-unused")
    expect(warned).toHaveLength(1)
    expect(warned[0]!.level).toBe("warn")
    expect(String(warned[0]!.message.join(" "))).toMatch(/without a shared store, or with JWT sessions, nothing is cached/)
  })
})
