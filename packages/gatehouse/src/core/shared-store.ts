/**
 * How the core uses the configured `sharedStore` (e.g. Redis): every call goes through
 * {@link storeCall}, which turns a failure into "not available" for the caller to fall back or
 * refuse, and logs it once per outage and use (and once when the store answers again), so a dead
 * store neither fails requests with a 500 nor floods the log.
 * @module
 */
import { sha256Hex } from "../encoding/hex.js"
import type { SharedStore } from "../stores/index.js"
import type { LoggerInstance } from "../types.js"

/** What the core uses the store for; each has its own fallback (see `FALLBACKS`). */
export type StoreUse = "rate-limits" | "session-versions" | "session-cache" | "token-refresh"

/** What happens while the store cannot be reached, per use: the sentence logged with the warning. */
const FALLBACKS: Readonly<Record<StoreUse, string>> = {
  "rate-limits":
    "sign-in rate limits (and spent passkey challenges, which the adapter's hitRateLimit counts whenever it has one) are counted by the adapter's hitRateLimit; without one, the sign-ins that need counting are refused with 503 until the store is back",
  "session-versions": "JWT session versions are read from the adapter (every check reaches the database)",
  "session-cache": "database sessions are read from the adapter; a cached session the store kept is trusted at most session.cacheMaxAge seconds",
  "token-refresh":
    "OAuth access tokens are not refreshed (sessions keep the tokens they have and a later read tries again), so that two instances never spend one refresh token",
}

/** The configuration a store call needs. */
export interface StoreConfig {
  readonly sharedStore: SharedStore | undefined
  readonly logger: LoggerInstance
}

/**
 * How many times each use of a store went from answering to failing or back, per store: odd while
 * it fails. Each change is logged, so each outage is logged once per use.
 */
const changes = new WeakMap<SharedStore, Map<StoreUse, number>>()

function changesOf(store: SharedStore): Map<StoreUse, number> {
  let uses = changes.get(store)
  if (!uses) changes.set(store, (uses = new Map()))
  return uses
}

/**
 * Runs `operation` on the configured store: `{ ok: true, value }`, or `{ ok: false }` when there
 * is no store or it failed (logged as a `shared-store-unavailable` warning once per outage and use).
 */
export async function storeCall<T>(
  config: StoreConfig,
  use: StoreUse,
  operation: (store: SharedStore) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false }> {
  const store = config.sharedStore
  if (!store) return { ok: false }
  // Only a call that started after the last change of state may change it: calls in flight when
  // the store fails (or comes back) settle on the old side of that change, in any order, and
  // would otherwise log the outage (or a recovery in the middle of it) once each.
  const uses = changesOf(store)
  const startedAt = uses.get(use) ?? 0
  const downAtStart = startedAt % 2 === 1
  try {
    const value = await operation(store)
    if (downAtStart && uses.get(use) === startedAt) {
      uses.set(use, startedAt + 1)
      config.logger.warn("shared-store-recovered", `The shared store answers again; ${use} use it again.`)
    }
    return { ok: true, value }
  } catch (error) {
    if (!downAtStart && (uses.get(use) ?? 0) === startedAt) {
      uses.set(use, startedAt + 1)
      config.logger.warn("shared-store-unavailable", `The shared store (sharedStore) failed for ${use}; until it answers again, ${FALLBACKS[use]}.`, error)
    }
    return { ok: false }
  }
}

/** A store key for `value` under `use`: its SHA-256, so no identifier or token is kept in the clear. */
export async function storeKey(use: string, value: string): Promise<string> {
  return `${use}:${await sha256Hex(value)}`
}
