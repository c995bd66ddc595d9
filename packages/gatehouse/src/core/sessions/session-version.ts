/**
 * Revocation of JWT sessions. A JWT cannot be deleted, so each user has a session version in the
 * adapter; a token remembers the version it was issued under (`sessionVersion`, absent for 0) and
 * when it was last checked (`versionCheckedAt`), and is checked again `revocationCheckAge` seconds
 * later. Not `iat`: any write (an update, a short `updateAge`, a callback changing claims) renews
 * that, and a stolen cookie refreshed often enough would never be checked. No clock is kept
 * anywhere but in the token.
 * @module
 */
import type { Adapter } from "../../adapters/index.js"
import { AdapterError } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { ResolvedConfig } from "../config.js"

/** Whether JWT sessions under `config` are checked against session versions. */
export function checksVersions(config: ResolvedConfig): boolean {
  return config.session.revocationCheckAge !== false && typeof config.adapter?.getSessionVersion === "function"
}

/** The user's current session version; an adapter answer that is not one is an error, not a `0`. */
export async function currentSessionVersion(adapter: Adapter | undefined, userId: string): Promise<number> {
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
