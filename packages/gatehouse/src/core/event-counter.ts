/**
 * Counting events in fixed windows: sign-in attempts (see `throttle.ts`), spent WebAuthn
 * challenges and spent logout tokens. Counts go to the `sharedStore` when there is one, else to
 * the adapter's `hitRateLimit` when it has one (every instance then shares them), else to memory
 * kept per configuration. A store that fails hands the count to the adapter; with no adapter method to
 * count in, the event is refused ({@link ServerBusy}) rather than counted by one process only.
 * A count that must outlive the store's data (a spent challenge or logout token: a Redis restarted
 * without persistence, or evicting, would forget it and accept its replay) goes to the adapter first.
 * @module
 */
import { sha256Hex } from "../encoding/hex.js"
import { ServerBusy, SharedStoreError } from "../errors.js"
import { callAdapter } from "./adapter-call.js"
import { logError } from "./logger.js"
import { storeCall } from "./shared-store.js"
import type { ResolvedConfig } from "./config.js"
import type { RequestContext } from "./request-context.js"

/** Windows kept in memory at most; beyond it the oldest go first, so a flood of keys is bounded. */
const MEMORY_LIMIT = 50_000
/** Expired windows are swept at most this often (ms), not on every request. */
const SWEEP_INTERVAL_MS = 60_000

/** A window's count after one more event, and how long until the window ends. */
export interface EventCount {
  /** Events the window holds now, this one included. */
  count: number
  /**
   * Seconds until the window ends, rounded up (at least 1). The adapter's `hitRateLimit` does
   * not say when its window started, so with it this is the whole window: an upper bound.
   */
  resetsIn: number
}

/** How long a client is asked to wait when no shared count can be kept (s). */
const STORE_DOWN_RETRY_AFTER = 5

/** How an event is counted. */
export interface CountOptions {
  /**
   * The count must survive the shared store losing its data: the adapter's `hitRateLimit` counts
   * it when there is one, the store only otherwise.
   */
  durable?: boolean
}

/**
 * Counts one event under `key`. A window starts with its first event and lasts `windowSeconds`.
 * Atomic where the store's `increment` or the adapter's `hitRateLimit` is; in memory it is per process.
 *
 * @throws {ServerBusy} when the shared store failed and the adapter cannot count either.
 */
export async function countEvent(ctx: RequestContext, key: string, windowSeconds: number, options: CountOptions = {}): Promise<EventCount> {
  const { adapter, sharedStore } = ctx.config
  if (sharedStore && !(options.durable && typeof adapter?.hitRateLimit === "function")) {
    const counted = await storeCall(ctx.config, "rate-limits", (store) => store.increment(key, windowSeconds))
    if (counted.ok) {
      if (!Number.isSafeInteger(counted.value) || counted.value < 1) {
        // A broken store, not a client: logged as the fault it is, and the attempt refused for now.
        logError(ctx.logger, new SharedStoreError(`The shared store counted ${describeCount(counted.value)}, not a count`))
        throw new ServerBusy("The shared store's count could not be used", { retryAfter: STORE_DOWN_RETRY_AFTER })
      }
      return { count: counted.value, resetsIn: wholeSeconds(windowSeconds * 1000) }
    }
    if (typeof adapter?.hitRateLimit !== "function") {
      // Counting in this process alone would let each instance allow the limit again: refuse instead.
      throw new ServerBusy("The shared store is unreachable and the adapter has no hitRateLimit to count in", { retryAfter: STORE_DOWN_RETRY_AFTER })
    }
  }
  if (typeof adapter?.hitRateLimit === "function") {
    return { count: await callAdapter(adapter, "hitRateLimit", key, windowSeconds), resetsIn: wholeSeconds(windowSeconds * 1000) }
  }
  return memoryHit(ctx.config, key, windowSeconds)
}

function describeCount(value: unknown): string {
  return typeof value === "number" ? String(value) : `a ${typeof value}`
}

function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/**
 * A digest of `value` keyed with the secret, for counter keys: a plain hash of an IP, a guessable
 * address or a challenge could be matched by hashing candidates.
 */
export function secretKeyed(ctx: RequestContext, value: string): Promise<string> {
  return sha256Hex(`${ctx.config.secret[0]}\u0000${value}`)
}

interface Windows {
  entries: Map<string, { count: number; resetAt: number }>
  sweptAt: number
}

const memory = new WeakMap<ResolvedConfig, Windows>()

function memoryHit(config: ResolvedConfig, key: string, windowSeconds: number): EventCount {
  let windows = memory.get(config)
  if (!windows) memory.set(config, (windows = { entries: new Map(), sweptAt: 0 }))
  const { entries } = windows
  const now = Date.now()
  if (now - windows.sweptAt >= SWEEP_INTERVAL_MS || entries.size >= MEMORY_LIMIT) {
    windows.sweptAt = now
    for (const [stale, window] of entries) if (window.resetAt <= now) entries.delete(stale)
    // Still full of live windows: drop the oldest tenth (a Map iterates in insertion order).
    if (entries.size >= MEMORY_LIMIT) for (const stale of [...entries.keys()].slice(0, MEMORY_LIMIT / 10)) entries.delete(stale)
  }
  const current = entries.get(key)
  if (current && current.resetAt > now) return { count: ++current.count, resetsIn: wholeSeconds(current.resetAt - now) }
  entries.set(key, { count: 1, resetAt: now + windowSeconds * 1000 })
  return { count: 1, resetsIn: wholeSeconds(windowSeconds * 1000) }
}
