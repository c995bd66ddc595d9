/**
 * Claiming an account whose email address was never proven (`emailVerified` unset: made through
 * an OAuth provider that did not vouch for the address, or by the application's own sign-up).
 * Anyone can make such an account for someone else's address before its owner signs up, and keep
 * a way in ("account pre-hijacking"). So when the owner proves the address, they do not simply
 * join it: every other way in is removed first (linked accounts, passkeys, a credentials
 * provider's password through `revokeCredentials`), every session of the account ends, and the
 * page they land on says what was removed. Auth.js joins them as they are.
 * @module
 */
import type { AdapterUser } from "../adapters/index.js"
import { MissingAdapterMethods } from "../errors.js"
import { callAdapter } from "./adapter-call.js"
import { emitEvent } from "./events.js"
import type { ResolvedConfig } from "./config.js"
import type { RequestContext } from "./request-context.js"
import { sessionRevoker } from "./sign-out-everywhere.js"

/** What claiming an account removed from it. */
export interface RemovedSignInMethods {
  /** The linked accounts removed, by provider id and type (passkeys are `webauthn` accounts). */
  accounts: { provider: string; type: string }[]
  /** Whether a credentials provider's `revokeCredentials` said it removed credentials. */
  credentials: boolean
  /** Present when a second factor was removed (one set up before the address was proven). */
  twoFactor?: true
}

/** Whether claiming `removed` took anything from the account (then the owner is told). */
export function removedAnything(removed: RemovedSignInMethods | undefined): removed is RemovedSignInMethods {
  return removed !== undefined && (removed.accounts.length > 0 || removed.credentials || removed.twoFactor === true)
}

/**
 * What this configuration cannot do that claiming needs, as an error; `undefined` when it can.
 * Checked before anything is removed, so a claim that cannot finish changes nothing.
 */
export function claimBlocker(config: ResolvedConfig): Error | undefined {
  const missing = (["listAccountsByUserId", "unlinkAccount"] as const).filter((method) => typeof config.adapter?.[method] !== "function")
  if (missing.length > 0) {
    return new MissingAdapterMethods(
      `Proving the address of an account whose email was never proven removes the account's other sign-in methods first, which needs adapter methods ${missing.join(", ")}`,
    )
  }
  try {
    sessionRevoker(config)
  } catch (error) {
    return error as Error
  }
  return undefined
}

/**
 * Makes `user`, whose address was never proven, the sole property of whoever just proved it:
 * ends every session, unlinks every account but email, deletes the passkeys, asks each
 * credentials provider to revoke its credentials, marks the address proven, and ends every
 * session once more. Returns the user as stored now. Safe to repeat: a claim that failed
 * half-way (the address still unproven) is finished by the next sign-in.
 *
 * @throws {MissingAdapterMethods | InvalidConfig} when the configuration cannot remove them all
 *   (see {@link claimBlocker}); nothing has been changed then.
 */
export async function claimUnprovenAccount(ctx: RequestContext, user: AdapterUser): Promise<{ user: AdapterUser; removed: RemovedSignInMethods }> {
  const blocker = claimBlocker(ctx.config)
  if (blocker) throw blocker
  const { adapter } = ctx.config
  const endSessions = sessionRevoker(ctx.config)
  // Ended first, so nobody uses a session while the rest goes, and again last (below), for a
  // sign-in through a method not yet removed that lands while this runs.
  await endSessions(user.id)

  const accounts: RemovedSignInMethods["accounts"] = []
  for (const account of await callAdapter(adapter, "listAccountsByUserId", user.id)) {
    if (account.type === "email") continue
    await callAdapter(adapter, "unlinkAccount", { provider: account.provider, providerAccountId: account.providerAccountId })
    accounts.push({ provider: account.provider, type: account.type })
  }
  // An unlinked passkey no longer signs in (its account is gone); its row goes too where it can.
  if (typeof adapter?.listAuthenticatorsByUserId === "function" && typeof adapter.deleteAuthenticator === "function") {
    for (const authenticator of await callAdapter(adapter, "listAuthenticatorsByUserId", user.id)) {
      await callAdapter(adapter, "deleteAuthenticator", authenticator.credentialID)
    }
  }

  let credentials = false
  for (const provider of ctx.config.providers) {
    if (provider.type !== "credentials" || !provider.revokeCredentials) continue
    if (await provider.revokeCredentials(user)) credentials = true
  }
  // A second factor set up by whoever held the account before the address was proven would lock
  // the owner out (or let the squatter approve the owner's sign-ins): it goes with the rest.
  const twoFactor = typeof adapter?.deleteTwoFactor === "function" && (await callAdapter(adapter, "deleteTwoFactor", user.id)) === true
  const proven = await callAdapter(adapter, "updateUser", { id: user.id, emailVerified: new Date() })
  await endSessions(user.id)
  if (twoFactor) {
    // Removed as any disabling is: the event, and the notice to the address now proven.
    await emitEvent(ctx.config, "twoFactorDisabled", { user: proven })
    if (ctx.config.twoFactor) await (await import("./two-factor/notify.js")).notifyFactorChange(ctx, proven, "disabled")
  }
  ctx.logger.warn(
    "unproven-account-claimed",
    `User ${user.id} proved their address; removed ${accounts.length} linked account(s)${credentials ? " and credentials" : ""}${twoFactor ? " and its second factor" : ""} and ended every session`,
  )
  return { user: proven, removed: { accounts, credentials, ...(twoFactor && { twoFactor: true as const }) } }
}
