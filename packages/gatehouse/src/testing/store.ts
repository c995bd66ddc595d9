/**
 * The shared store conformance suite: the behaviour Gatehouse relies on from any
 * {@link SharedStore}, as tests you register with your own runner. Gatehouse's memory and Redis
 * stores pass it; run it against yours.
 *
 * Each test uses keys of its own (a random part in every key), so a shared or non-empty store is
 * fine. Expiry tests wait up to about a second.
 *
 * @example vitest
 * ```ts
 * import { test } from "vitest"
 * import { runStoreConformance } from "gatehouse-auth/testing/store"
 * import { myStore } from "../src/index.js"
 *
 * runStoreConformance({ store: myStore(), test })
 * ```
 * @module gatehouse-auth/testing/store
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { setTimeout as sleep } from "node:timers/promises"
import type { SharedStore } from "../stores/index.js"

/** What {@link runStoreConformance} tests, and with which runner. */
export interface StoreConformanceOptions {
  /** The store under test. */
  store: SharedStore
  /** Registers one test with your runner: vitest's or node:test's `test`, or `(name, fn) => fn()`. */
  test: (name: string, fn: () => Promise<void>) => unknown
}

/**
 * Registers one test per behaviour of the store contract, each named `method: behaviour`.
 *
 * @example
 * ```ts
 * import { test } from "node:test"
 * import { memoryStore } from "gatehouse-auth/stores/memory"
 * import { runStoreConformance } from "gatehouse-auth/testing/store"
 *
 * runStoreConformance({ store: memoryStore(), test })
 * ```
 */
export function runStoreConformance({ store, test }: StoreConformanceOptions): void {
  const key = (use: string): string => `conformance-${use}:${randomUUID()}`

  test("increment: counts from 1 within a window", async () => {
    const k = key("count")
    assert.deepEqual([await store.increment(k, 60), await store.increment(k, 60), await store.increment(k, 60)], [1, 2, 3])
  })

  test("increment: concurrent increments each get a different count", async () => {
    const k = key("concurrent")
    const counts = await Promise.all(Array.from({ length: 25 }, () => store.increment(k, 60)))
    assert.deepEqual([...counts].sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1))
  })

  test("increment: a window ends after windowSeconds and the next increment starts a new one", async () => {
    const k = key("window")
    await store.increment(k, 0.3)
    assert.equal(await store.increment(k, 0.3), 2)
    await sleep(450)
    assert.equal(await store.increment(k, 0.3), 1)
  })

  test("increment: increments within a window do not extend it", async () => {
    const k = key("fixed")
    await store.increment(k, 0.5)
    await sleep(300)
    assert.equal(await store.increment(k, 0.5), 2)
    await sleep(350)
    assert.equal(await store.increment(k, 0.5), 1, "the window started at the first increment")
  })

  test("increment: keys are counted apart", async () => {
    const a = key("apart")
    const b = key("apart")
    await store.increment(a, 60)
    await store.increment(a, 60)
    assert.equal(await store.increment(b, 60), 1)
  })

  test("setIfAbsent: stores a value only when the key holds none", async () => {
    const k = key("nx")
    assert.equal(await store.setIfAbsent(k, "first", 60), true)
    assert.equal(await store.setIfAbsent(k, "second", 60), false)
    assert.equal(await store.get(k), "first")
  })

  test("setIfAbsent: of concurrent calls for one key exactly one succeeds", async () => {
    const k = key("nx-race")
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => store.setIfAbsent(k, String(i), 60)))
    assert.equal(results.filter(Boolean).length, 1)
    assert.equal(await store.get(k), String(results.indexOf(true)))
  })

  test("setIfAbsent: an expired key counts as absent", async () => {
    const k = key("nx-expiry")
    assert.equal(await store.setIfAbsent(k, "old", 0.2), true)
    await sleep(350)
    assert.equal(await store.setIfAbsent(k, "new", 60), true)
    assert.equal(await store.get(k), "new")
  })

  test("setIfAbsent: a key written by set is present", async () => {
    const k = key("nx-after-set")
    await store.set(k, "there", 60)
    assert.equal(await store.setIfAbsent(k, "other", 60), false)
  })

  test("get: null for a key never written", async () => {
    assert.equal(await store.get(key("absent")), null)
  })

  test("get: returns exactly what was stored, any text", async () => {
    const k = key("text")
    const value = JSON.stringify({ name: "Zoë 👩‍💻", quote: "\"'\\\n", empty: "" })
    await store.set(k, value, 60)
    assert.equal(await store.get(k), value)
  })

  test("set: replaces the value and its expiry", async () => {
    const k = key("replace")
    await store.set(k, "short", 0.2)
    await store.set(k, "long", 60)
    await sleep(350)
    assert.equal(await store.get(k), "long")
  })

  test("set: a value is gone after its ttl", async () => {
    const k = key("ttl")
    await store.set(k, "brief", 0.2)
    assert.equal(await store.get(k), "brief")
    await sleep(350)
    assert.equal(await store.get(k), null)
  })

  test("delete: removes a key, and removing an absent key succeeds", async () => {
    const k = key("delete")
    await store.set(k, "x", 60)
    await store.delete(k)
    assert.equal(await store.get(k), null)
    await store.delete(k)
    assert.equal(await store.setIfAbsent(k, "y", 60), true)
  })

  test("delete: a deleted counter starts again at 1", async () => {
    const k = key("delete-count")
    await store.increment(k, 60)
    await store.increment(k, 60)
    await store.delete(k)
    assert.equal(await store.increment(k, 60), 1)
  })
}
