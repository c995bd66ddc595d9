import { describe, expect, it, test } from "vitest"
import { memoryStore } from "../../src/stores/memory.js"
import { runStoreConformance } from "../../src/testing/store.js"

describe("memory store: conformance", () => {
  runStoreConformance({ store: memoryStore(), test })
})

describe("memory store: bounds", () => {
  it("drops the oldest keys past maxKeys instead of growing", async () => {
    const store = memoryStore({ maxKeys: 20 })
    for (let i = 0; i < 50; i++) await store.set(`k${i}`, String(i), 60)
    expect(await store.get("k0")).toBeNull()
    expect(await store.get("k49")).toBe("49")
  })
})
