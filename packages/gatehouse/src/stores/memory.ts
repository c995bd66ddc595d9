/**
 * A {@link SharedStore} in this process's memory: for tests and for a single instance. It is not
 * shared between processes, so with several instances use a real shared store (Redis).
 *
 * @example
 * ```ts
 * import { Auth } from "gatehouse-auth"
 * import { memoryStore } from "gatehouse-auth/stores/memory"
 *
 * const config = { providers, adapter, secret, sharedStore: memoryStore() }
 * ```
 * @module gatehouse-auth/stores/memory
 */
import type { SharedStore } from "./index.js"

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** Keys kept at most; past it, expired keys are swept and then the oldest dropped. Default 100 000. */
  maxKeys?: number
}

interface Entry {
  value: string
  /** Epoch ms when the entry stops being live. */
  expiresAt: number
}

/**
 * A new, empty in-memory store; nothing is shared between two calls.
 *
 * @example
 * ```ts
 * const store = memoryStore({ maxKeys: 10_000 })
 * await store.increment("attempts:abc", 60) // 1
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): SharedStore {
  const maxKeys = options.maxKeys ?? 100_000
  const entries = new Map<string, Entry>()

  const live = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key)
    if (entry && entry.expiresAt <= now) {
      entries.delete(key)
      return undefined
    }
    return entry
  }
  const put = (key: string, value: string, ttlSeconds: number, now: number): void => {
    if (!entries.has(key) && entries.size >= maxKeys) makeRoom(now)
    // Re-inserted, so Map order stays oldest-first for makeRoom.
    entries.delete(key)
    entries.set(key, { value, expiresAt: now + ttlMs(ttlSeconds) })
  }
  const makeRoom = (now: number): void => {
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key)
    if (entries.size < maxKeys) return
    for (const key of [...entries.keys()].slice(0, Math.max(1, Math.floor(maxKeys / 10)))) entries.delete(key)
  }

  return {
    async increment(key, windowSeconds) {
      const now = Date.now()
      const entry = live(key, now)
      if (!entry) {
        put(key, "1", windowSeconds, now)
        return 1
      }
      const count = (Number.parseInt(entry.value, 10) || 0) + 1
      entry.value = String(count)
      return count
    },
    async setIfAbsent(key, value, ttlSeconds) {
      const now = Date.now()
      if (live(key, now)) return false
      put(key, value, ttlSeconds, now)
      return true
    },
    async get(key) {
      return live(key, Date.now())?.value ?? null
    },
    async set(key, value, ttlSeconds) {
      put(key, value, ttlSeconds, Date.now())
    },
    async delete(key) {
      entries.delete(key)
    },
  }
}

/** A duration in whole milliseconds, at least 1: a store never keeps a key for no time at all. */
function ttlMs(seconds: number): number {
  return Math.max(1, Math.ceil(seconds * 1000))
}
