/**
 * Ending every session of one user at once ("sign out everywhere", after a password change or a
 * suspected theft).
 * @module
 */
import type { Adapter } from "../adapters/index.js"
import { AuthError, InvalidConfig, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { AuthConfig } from "../types.js"
import { callAdapter } from "./adapter-call.js"
import { resolveConfig, type ResolvedConfig } from "./config.js"
import { raiseSessionVersion } from "./sessions/session-version.js"

/**
 * Signs `userId` out on every browser and device.
 *
 * - Database sessions: every session row of the user is deleted (`deleteSessionsByUserId`); the
 *   next request from any of their browsers has no session.
 * - JWT sessions: the user's session version goes up (`incrementSessionVersion`); each token is
 *   checked against it `session.revocationCheckAge` seconds after its last check (default 60), so every
 *   JWT session of the user ends within that time. Needs an adapter with session versions (all of
 *   Gatehouse's own have them). With a `sharedStore`, the version cached there is replaced at once
 *   (and a cached database session is no longer served).
 *
 * Both happen when the adapter can do both, so switching strategies later leaves nothing behind.
 * The user's stored data and accounts stay; a new sign-in works at once.
 *
 * @throws {MissingAdapter | MissingAdapterMethods} when the adapter cannot revoke sessions of
 *   this strategy; {@link InvalidConfig} under JWT sessions with `revocationCheckAge: false`;
 *   `AdapterError` when the store fails (then run it again: it is safe to repeat).
 * @example
 * ```ts
 * import { signOutEverywhere } from "gatehouse-auth"
 *
 * app.post("/account/sessions/revoke", requireAuth, async (req, res) => {
 *   await signOutEverywhere(res.locals.session.user.id, authConfig)
 *   res.redirect("/")
 * })
 * ```
 */
export async function signOutEverywhere(userId: string, config: AuthConfig): Promise<void> {
  if (typeof userId !== "string" || userId === "") {
    throw new AuthError(`signOutEverywhere needs a user id; received ${JSON.stringify(userId)}`)
  }
  await sessionRevoker(resolveConfig(config))(userId)
}

/**
 * How `config` ends every session of a user, checked before anything is done: the function to
 * call, or an error when this configuration cannot.
 *
 * @throws {MissingAdapter | MissingAdapterMethods | InvalidConfig} as {@link signOutEverywhere}.
 */
export function sessionRevoker(config: ResolvedConfig): (userId: string) => Promise<void> {
  const { adapter, session } = config
  const jwt = session.strategy === "jwt"
  if (!adapter) throw new MissingAdapter("Ending every session of a user needs an adapter")
  if (jwt && session.revocationCheckAge === false) {
    throw new InvalidConfig("JWT sessions are never checked for revocation with `session.revocationCheckAge: false`")
  }
  const needed: (keyof Adapter)[] = jwt ? ["getSessionVersion", "incrementSessionVersion"] : ["deleteSessionsByUserId"]
  const missing = needed.filter((method) => typeof adapter[method] !== "function")
  if (missing.length > 0) {
    throw new MissingAdapterMethods(`The adapter does not implement ${missing.join(", ")}, which ending every session of a user needs`)
  }
  // Both where the adapter can do both, so switching strategies later leaves nothing behind.
  const bumpVersion = typeof adapter.incrementSessionVersion === "function"
  const deleteRows = typeof adapter.deleteSessionsByUserId === "function"
  return async (userId) => {
    // A throw here leaves at most some of the user's sessions ended; repeating the call finishes it.
    if (bumpVersion) await raiseSessionVersion(config, userId)
    // The session cache, if any, is told by the adapter wrapper (./sessions/session-cache.ts).
    if (deleteRows) await callAdapter(adapter, "deleteSessionsByUserId", userId)
  }
}
