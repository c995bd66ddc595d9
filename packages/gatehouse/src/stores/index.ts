/**
 * The shared store contract: a small key-value store for what is short-lived and must be the
 * same on every instance of an app (sign-in rate-limit counts, spent passkey challenges, cached
 * session versions, the lock that lets one instance refresh an OAuth access token, and the
 * optional database-session cache). Give one as `sharedStore` in the configuration; Gatehouse's
 * own are {@link "gatehouse-auth/stores/redis"} (Redis, for many instances) and
 * {@link "gatehouse-auth/stores/memory"} (one process, for tests).
 *
 * Keys are Gatehouse's (`<use>:<hex hash>`); a store may prefix them. Every value has an expiry,
 * so a store never grows without bound. A store that cannot answer throws (or rejects): Gatehouse
 * then falls back or refuses, per use, and logs it. It must answer or fail quickly: a store
 * waiting on a dead server holds up every request that needs it.
 *
 * @example A store of your own, checked by the conformance suite
 * ```ts
 * import type { SharedStore } from "gatehouse-auth/stores"
 *
 * const store: SharedStore = {
 *   increment: (key, windowSeconds) => kv.incrementWithExpiry(key, windowSeconds),
 *   setIfAbsent: (key, value, ttlSeconds) => kv.putIfAbsent(key, value, ttlSeconds),
 *   get: (key) => kv.get(key),
 *   set: (key, value, ttlSeconds) => kv.put(key, value, ttlSeconds),
 *   delete: (key) => kv.delete(key),
 * }
 * // then: runStoreConformance({ store, test }) from "gatehouse-auth/testing/store"
 * ```
 * @module gatehouse-auth/stores
 */

/**
 * What Gatehouse needs of a shared store. Durations are seconds and may have a fraction; a store
 * may round them up to its own resolution (never down to zero).
 */
export interface SharedStore {
  /**
   * Adds one to the count under `key` and returns the new count, atomically (of concurrent calls,
   * each gets a different count). The first increment of an absent or expired key starts a window
   * of `windowSeconds` and returns 1; increments within it do not extend it.
   */
  increment(key: string, windowSeconds: number): Promise<number>
  /**
   * Stores `value` under `key` for `ttlSeconds` only when the key holds nothing live; returns
   * whether it did. Atomic: of concurrent calls for one key, exactly one gets `true`.
   */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>
  /** The value under `key`, or `null` when there is none or it expired. */
  get(key: string): Promise<string | null>
  /** Stores `value` under `key` for `ttlSeconds`, replacing what was there. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>
  /** Removes `key`; removing an absent key is not an error. */
  delete(key: string): Promise<void>
}
