/**
 * Revocation of JWT sessions. A JWT cannot be deleted, so each user has a session version in the
 * adapter; a token remembers the version it was issued under (`sessionVersion`, absent for 0) and
 * when it was last checked (`versionCheckedAt`), and is checked again `revocationCheckAge` seconds
 * later. Not `iat`: any write (an update, a short `updateAge`, a callback changing claims) renews
 * that, and a stolen cookie refreshed often enough would never be checked. No clock is kept
 * anywhere but in the token.
 * @module
 */
import { AdapterError } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { ResolvedConfig } from "../config.js"
import { storeCall, storeKey } from "../shared-store.js"

/**
 * How long a session version stays cached in the `sharedStore` (s). `signOutEverywhere` replaces it
 * at once; only if the store misses that write may a cached version be this old.
 */
const VERSION_CACHE_SECONDS = 60
/** What `signOutEverywhere` leaves under the key: not a number, so readers go to the adapter. */
const VERSION_CHANGED = "changed"

/** Whether JWT sessions under `config` are checked against session versions. */
export function checksVersions(config: ResolvedConfig): boolean {
  return config.session.revocationCheckAge !== false && typeof config.adapter?.getSessionVersion === "function"
}

/** The store key of a user's cached session version. */
function versionKey(userId: string): Promise<string> {
  return storeKey("session-version", userId)
}

/**
 * The user's current session version: from the `sharedStore` when it holds it, else from the
 * adapter (then cached). An adapter answer that is not a version is an error, not a `0`.
 */
export async function currentSessionVersion(config: Pick<ResolvedConfig, "adapter" | "sharedStore" | "logger">, userId: string): Promise<number> {
  if (!config.sharedStore) return adapterSessionVersion(config, userId)
  const key = await versionKey(userId)
  const cached = await storeCall(config, "session-versions", (store) => store.get(key))
  if (cached.ok && cached.value !== null && /^\d{1,15}$/.test(cached.value)) return Number(cached.value)
  const version = await adapterSessionVersion(config, userId)
  // Only added, never replaced: a reader that asked the adapter just before a sign-out everywhere
  // must not put the old version back over the marker that sign-out left.
  if (cached.ok && cached.value === null) {
    await storeCall(config, "session-versions", (store) => store.setIfAbsent(key, String(version), VERSION_CACHE_SECONDS))
  }
  return version
}

/**
 * Raises the session version under `key` (a user id, or an identity provider session's key) in the
 * adapter, then marks the cached copy as changed, so every instance asks the adapter next and the
 * sessions issued under the old version end at their next check. Returns the new version.
 */
export async function raiseSessionVersion(config: Pick<ResolvedConfig, "adapter" | "sharedStore" | "logger">, key: string): Promise<number> {
  const version = await callAdapter(config.adapter, "incrementSessionVersion", key)
  // After the adapter: a reader between the two would otherwise cache the old version again.
  if (config.sharedStore) {
    const cacheKey = await versionKey(key)
    await storeCall(config, "session-versions", (store) => store.set(cacheKey, VERSION_CHANGED, VERSION_CACHE_SECONDS))
  }
  return version
}

async function adapterSessionVersion({ adapter }: Pick<ResolvedConfig, "adapter">, userId: string): Promise<number> {
  const version: unknown = await callAdapter(adapter, "getSessionVersion", userId)
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0) {
    throw new AdapterError(`getSessionVersion returned ${JSON.stringify(version)}, not a session version`)
  }
  return version
}

/** The version a decoded token was issued under; a token from before versions (or Auth.js) has 0. */
export function versionOfToken(token: Record<string, unknown>): number {
  return typeof token.sessionVersion === "number" ? token.sessionVersion : 0
}
