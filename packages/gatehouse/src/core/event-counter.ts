/**
 * Counting events in fixed windows: sign-in emails per address and per IP, and spent WebAuthn
 * challenges. Counts go to the adapter's `hitRateLimit` when it has one (every instance then
 * shares them), else to memory kept per configuration.
 * @module
 */
import { callAdapter } from "./adapter-call.js"
import type { ResolvedConfig } from "./config.js"
import { sha256Hex } from "./crypto.js"
import type { RequestContext } from "./request-context.js"

/** Windows kept in memory at most; beyond it the oldest go first, so a flood of keys is bounded. */
const MEMORY_LIMIT = 50_000
/** Expired windows are swept at most this often (ms), not on every request. */
const SWEEP_INTERVAL_MS = 60_000

/**
 * Counts one event under `key` and returns how many the window holds now, this one included. A
 * window starts with its first event and lasts `windowSeconds`. Atomic where the adapter's
 * `hitRateLimit` is; in memory it is per process.
 */
export async function countEvent(ctx: RequestContext, key: string, windowSeconds: number): Promise<number> {
  const { adapter } = ctx.config
  if (typeof adapter?.hitRateLimit === "function") return callAdapter(adapter, "hitRateLimit", key, windowSeconds)
  return memoryHit(ctx.config, key, windowSeconds)
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

function memoryHit(config: ResolvedConfig, key: string, windowSeconds: number): number {
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
  if (current && current.resetAt > now) return ++current.count
  entries.set(key, { count: 1, resetAt: now + windowSeconds * 1000 })
  return 1
}
