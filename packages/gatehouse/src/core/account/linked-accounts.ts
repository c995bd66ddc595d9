/**
 * The signed-in user's linked accounts: listing them (never their tokens), and unlinking one
 * unless it is the last way the user can sign in.
 * @module
 */
import type { AdapterAccount, AdapterUser } from "../../adapters/index.js"
import { LastSignInMethod, MissingAdapter, SessionRequired, UnknownAccount } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import type { RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { assertRecentForAccountChange } from "./recent-second-factor.js"

/** One linked account as the account routes and functions show it: which, never its tokens. */
export interface LinkedAccount {
  /** The provider's id (`github`, `passkey`, …). */
  provider: string
  /** The user's id at that provider (a passkey's credential id). */
  providerAccountId: string
  /** `oauth`, `oidc`, `email` or `webauthn`. */
  type: string
  /** The provider's display name, `null` when it is no longer configured. */
  providerName: string | null
}

/** Which account to unlink. */
export type AccountKey = Pick<AdapterAccount, "provider" | "providerAccountId">

/**
 * The request user's accounts.
 * @throws {SessionRequired} without a session; {@link MissingAdapter} without an adapter.
 */
export async function listLinkedAccounts(ctx: RequestContext): Promise<LinkedAccount[]> {
  const user = await requireUser(ctx)
  return (await accountsOf(ctx, user)).map((account) => ({
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    type: account.type,
    providerName: ctx.config.providers.find((provider) => provider.id === account.provider)?.name ?? null,
  }))
}

/**
 * Unlinks one of the request user's accounts (a passkey's authenticator goes with it) and fires
 * `unlinkAccount`. Refused when the user could then no longer sign in: another account of a
 * configured provider, an email provider for their address, or credentials (as
 * `account.canUseCredentials` says) must remain.
 *
 * The adapter contract has no transaction, so two unlinks of a user's last two accounts could
 * both pass the first check. When the other accounts are the user's only way in (no email
 * provider for their address, no password), the check is made again once the account is gone, on
 * what the store then holds: when no way in is left, the row read before (tokens included) is linked back and
 * the unlink is refused. Whichever of two such unlinks looks last sees the other's deletion, so
 * at least one of them restores its account; both may, and then both are refused. The
 * authenticator and the event wait until the unlink stands.
 *
 * @throws {SessionRequired} without a session; `RecentAuthRequired` when the user has a second
 *   factor and the session did not check it within `twoFactor.freshAge`; {@link UnknownAccount}
 *   for an account that is not the user's; {@link LastSignInMethod} when it is their last way in.
 */
export async function unlinkLinkedAccount(ctx: RequestContext, key: AccountKey): Promise<void> {
  const { config } = ctx
  const user = await requireUser(ctx)
  await assertRecentForAccountChange(ctx, user.id)
  const accounts = await accountsOf(ctx, user)
  const account = accounts.find((candidate) => sameAccount(candidate, key))
  if (!account) throw new UnknownAccount("The signed-in user has no such account")
  const lastWayIn = () => new LastSignInMethod("Unlinking this account would leave the user no way to sign in")
  // An email address or a password does not depend on the accounts: asked once, and then no
  // concurrent unlink can take the user's last way in, so nothing needs looking at again.
  const besidesAccounts = await wayInBesidesAccounts(ctx, user)
  if (!besidesAccounts && !accountsLetIn(ctx, accounts.filter((other) => other !== account))) throw lastWayIn()
  await callAdapter(config.adapter, "unlinkAccount", key)
  // This account is left out even when present: another request may have put it back meanwhile,
  // and a row this unlink is deleting is no way in.
  if (!besidesAccounts && !accountsLetIn(ctx, (await accountsOf(ctx, user)).filter((other) => !sameAccount(other, key)))) {
    await relink(ctx, user, account)
    throw lastWayIn()
  }
  if (account.type === "webauthn" && typeof config.adapter?.deleteAuthenticator === "function") {
    await callAdapter(config.adapter, "deleteAuthenticator", account.providerAccountId)
  }
  await emitEvent(config, "unlinkAccount", { user, account: { provider: account.provider, providerAccountId: account.providerAccountId, type: account.type } })
}

/**
 * Links `account` (the whole row as it was read) back to `user`. A refused unlink of the same
 * account running alongside may have linked it back first: the store then refuses a second row,
 * and finding it the user's again is success.
 */
async function relink(ctx: RequestContext, user: AdapterUser, account: AdapterAccount): Promise<void> {
  try {
    await callAdapter(ctx.config.adapter, "linkAccount", account)
  } catch (error) {
    if (!(await accountsOf(ctx, user)).some((other) => sameAccount(other, account))) throw error
  }
}

function sameAccount(account: AccountKey, key: AccountKey): boolean {
  return account.provider === key.provider && account.providerAccountId === key.providerAccountId
}

/** Whether one of `remaining` is an account of a provider still configured, so a way to sign in. */
function accountsLetIn(ctx: RequestContext, remaining: AdapterAccount[]): boolean {
  return remaining.some((account) => configured(ctx, account.type, account.provider))
}

/** Whether `user` can sign in without any linked account: an email provider for their address, or a password. */
async function wayInBesidesAccounts(ctx: RequestContext, user: AdapterUser): Promise<boolean> {
  const { canUseCredentials } = ctx.config.account
  if (typeof user.email === "string" && user.email !== "" && configured(ctx, "email")) return true
  if (configured(ctx, "credentials") && canUseCredentials) return (await canUseCredentials(user)) === true
  return false
}

function configured(ctx: RequestContext, type: string, id?: string): boolean {
  return ctx.config.providers.some((provider) => provider.type === type && (id === undefined || provider.id === id))
}

async function requireUser(ctx: RequestContext): Promise<AdapterUser> {
  // Without an adapter there is no stored user to find: say what is missing, not "no session".
  if (!ctx.config.adapter) throw new MissingAdapter("Linked accounts are stored by the adapter: listing and unlinking them need one")
  const user = await currentUser(ctx)
  if (!user) throw new SessionRequired("No session")
  return user
}

async function accountsOf(ctx: RequestContext, user: AdapterUser): Promise<AdapterAccount[]> {
  return callAdapter(ctx.config.adapter, "listAccountsByUserId", user.id)
}
