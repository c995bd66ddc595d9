/**
 * The signed-in user's linked accounts: listing them (never their tokens), and unlinking one
 * unless it is the last way the user can sign in.
 * @module
 */
import type { AdapterAccount, AdapterUser } from "../../adapters/index.js"
import { LastSignInMethod, SessionRequired, UnknownAccount } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import type { RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"

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
 * @throws {SessionRequired} without a session.
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
 * both pass the first check. The check is made again once the account is gone, on what the store
 * then holds: when no way in is left, the row read before (tokens included) is linked back and
 * the unlink is refused. Whichever of two such unlinks looks last sees the other's deletion, so
 * at least one of them restores its account; both may, and then both are refused. The
 * authenticator and the event wait until the unlink stands.
 *
 * @throws {SessionRequired} without a session; {@link UnknownAccount} for an account that is not the
 *   user's; {@link LastSignInMethod} when it is their last way in.
 */
export async function unlinkLinkedAccount(ctx: RequestContext, key: AccountKey): Promise<void> {
  const { config } = ctx
  const user = await requireUser(ctx)
  const accounts = await accountsOf(ctx, user)
  const account = accounts.find((candidate) => sameAccount(candidate, key))
  if (!account) throw new UnknownAccount("The signed-in user has no such account")
  const lastWayIn = () => new LastSignInMethod("Unlinking this account would leave the user no way to sign in")
  if (!(await hasAnotherWayIn(ctx, user, accounts.filter((other) => other !== account)))) throw lastWayIn()
  await callAdapter(config.adapter, "unlinkAccount", key)
  // This account is left out even when present: another request may have put it back meanwhile,
  // and a row this unlink is deleting is no way in.
  const remaining = (await accountsOf(ctx, user)).filter((other) => !sameAccount(other, key))
  if (!(await hasAnotherWayIn(ctx, user, remaining))) {
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

/** Whether `user` can still sign in without the account being removed (`remaining` are the others). */
async function hasAnotherWayIn(ctx: RequestContext, user: AdapterUser, remaining: AdapterAccount[]): Promise<boolean> {
  const { providers, account: options } = ctx.config
  const configured = (type: string, id?: string): boolean => providers.some((provider) => provider.type === type && (id === undefined || provider.id === id))
  if (remaining.some((account) => configured(account.type, account.provider))) return true
  if (typeof user.email === "string" && user.email !== "" && configured("email")) return true
  if (configured("credentials") && options.canUseCredentials) return (await options.canUseCredentials(user)) === true
  return false
}

async function requireUser(ctx: RequestContext): Promise<AdapterUser> {
  const user = await currentUser(ctx)
  if (!user) throw new SessionRequired("No session")
  return user
}

async function accountsOf(ctx: RequestContext, user: AdapterUser): Promise<AdapterAccount[]> {
  const accounts = await callAdapter(ctx.config.adapter, "listAccountsByUserId", user.id)
  if (!Array.isArray(accounts)) throw new TypeError("listAccountsByUserId must return an array")
  // Only the user's own, whatever the adapter returned.
  return accounts.filter((account) => account.userId === user.id)
}
