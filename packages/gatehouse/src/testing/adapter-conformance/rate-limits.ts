/**
 * Conformance tests of hitRateLimit: fixed windows per key, counted atomically, which is what
 * lets every instance of an application share the throttling of sign-in emails.
 * @module
 */
import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { ConformanceCase } from "./case.js"

/** How many callers hit one key at once; a read-then-write without atomicity loses this race. */
const RACERS = 50

/** A window long enough never to end during a test. */
const LONG_WINDOW_SECONDS = 60 * 60

/** A fresh key, shaped like the hashed ones the core passes. */
function rateLimitKey(): string {
  return `email:${randomUUID().replaceAll("-", "")}`
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const rateLimitCases: readonly ConformanceCase[] = [
  {
    name: "hitRateLimit: counts 1, 2, 3 for hits on one key within the window, as numbers",
    uses: ["hitRateLimit"],
    async run(adapter) {
      const key = rateLimitKey()
      for (const expected of [1, 2, 3]) {
        assert.equal(await adapter.hitRateLimit(key, LONG_WINDOW_SECONDS), expected, `hit ${expected} on one key`)
      }
    },
  },
  {
    name: "hitRateLimit: counts each key on its own, also keys that share a prefix",
    uses: ["hitRateLimit"],
    async run(adapter) {
      const first = rateLimitKey()
      const second = `${first}:2`
      assert.equal(await adapter.hitRateLimit(first, LONG_WINDOW_SECONDS), 1, "first key, hit 1")
      assert.equal(await adapter.hitRateLimit(first, LONG_WINDOW_SECONDS), 2, "first key, hit 2")
      assert.equal(await adapter.hitRateLimit(second, LONG_WINDOW_SECONDS), 1, "second key, hit 1")
      assert.equal(await adapter.hitRateLimit(first, LONG_WINDOW_SECONDS), 3, "first key, hit 3")
      assert.equal(await adapter.hitRateLimit(second, LONG_WINDOW_SECONDS), 2, "second key, hit 2")
    },
  },
  {
    // The one test that waits (about 1.1 s): windows are whole seconds, as a store may keep them.
    name: "hitRateLimit: a window ends windowSeconds after its first hit, not its last, and a new one starts at 1",
    uses: ["hitRateLimit"],
    async run(adapter) {
      const key = rateLimitKey()
      assert.equal(await adapter.hitRateLimit(key, 1), 1, "the first hit")
      // The window began no later than now, so it has ended once a second more has passed.
      const windowEndsBy = Date.now() + 1000
      await sleep(300)
      assert.equal(await adapter.hitRateLimit(key, 1), 2, "a hit 0.3 s later, inside the window")
      // A window that slides with every hit would still be open after the wait below.
      await sleep(Math.max(0, windowEndsBy + 100 - Date.now()))
      assert.equal(await adapter.hitRateLimit(key, 1), 1, "the first hit after the window ended")
      assert.equal(await adapter.hitRateLimit(key, 1), 2, "the next hit, in the new window")
    },
  },
  {
    name: `hitRateLimit: ${RACERS} concurrent hits on one key get the counts 1 to ${RACERS}, each once`,
    uses: ["hitRateLimit"],
    async run(adapter) {
      const key = rateLimitKey()
      const counts = await Promise.all(Array.from({ length: RACERS }, () => adapter.hitRateLimit(key, LONG_WINDOW_SECONDS)))
      const expected = Array.from({ length: RACERS }, (_, i) => i + 1)
      assert.deepEqual(
        [...counts].sort((a, b) => a - b),
        expected,
        `${RACERS} concurrent hits must each get a different count from 1 to ${RACERS}, got ${JSON.stringify(counts)}`,
      )
      assert.equal(await adapter.hitRateLimit(key, LONG_WINDOW_SECONDS), RACERS + 1, "the hit after them")
    },
  },
  {
    name: "hitRateLimit: takes a 300-character key and tells it from one differing only in its last character",
    uses: ["hitRateLimit"],
    async run(adapter) {
      const stem = rateLimitKey()
      const key = `${stem}${"k".repeat(300 - stem.length - 1)}a`
      const neighbour = `${key.slice(0, -1)}b`
      assert.equal(key.length, 300)
      assert.equal(await adapter.hitRateLimit(key, LONG_WINDOW_SECONDS), 1, "the long key, hit 1")
      assert.equal(await adapter.hitRateLimit(key, LONG_WINDOW_SECONDS), 2, "the long key, hit 2")
      assert.equal(await adapter.hitRateLimit(neighbour, LONG_WINDOW_SECONDS), 1, "a key differing in its 300th character")
    },
  },
]
