/**
 * Who a sign-in through an OAuth, OIDC, email or passkey provider signs in as: the user the
 * account already belongs to, the user who is signed in (the new account is linked to them),
 * an existing user with the same email (email sign-in, or OAuth with dangerous linking), or a
 * new user. These are Auth.js's rules, so a database it wrote keeps working the same way, with
 * one difference: a user whose address was never proven is joined by a sign-in that proves it
 * (an email link, or a provider that vouches for the address, dangerous linking or not) only
 * after everything else was removed from the account (see ./unproven-account.ts), and a sign-in
 * that does not prove it does not join them at all.
 * @module
 */
import type { AdapterAccount, AdapterUser } from "../adapters/index.js"
import { AccountNotLinked, AdapterError, AuthError, OAuthAccountNotLinked } from "../errors.js"
import type { Account, User } from "../types.js"
import { callAdapter } from "./adapter-call.js"
import { emitEvent } from "./events.js"
import { logError } from "./logger.js"
import { withoutUndefined } from "./defined-fields.js"
import type { RequestContext } from "./request-context.js"
import { currentUser } from "./sessions/index.js"
import { claimBlocker, claimUnprovenAccount, type RemovedSignInMethods } from "./unproven-account.js"
import { assertRecentForAccountChange } from "./account/recent-second-factor.js"

/** What a provider established about the person signing in. */
export interface SignInIdentity {
  /** The user as the provider describes them: `name`, `email`, `image`. */
  user: User
  /** The account signed in with; `type` is that of the provider. */
  account: Account
  /** What is stored of the account, when less than `account`. Default `account`. */
  storedAccount?: Account
  /** Whether an OAuth account may be attached to an existing user found by email alone. */
  allowDangerousEmailAccountLinking?: boolean
  /**
   * Whether the provider vouched that the person owns `user.email` (OIDC's `email_verified`).
   * A new user is then stored with the address proven.
   */
  emailProven?: boolean
  /**
   * Stores what belongs with a newly linked account (a passkey's authenticator), all or nothing:
   * when it fails, the account is unlinked again and a user created for it removed.
   */
  attach?: (owner: AdapterUser) => Promise<void>
  /**
   * The signed-in user (`null`: nobody), when the caller has read it already: it must be the one
   * its own checks were made for. Read from the request otherwise.
   */
  signedInUser?: AdapterUser | null
}

/** The user to sign in as, and whether the sign-in created them. */
export interface SignInOutcome {
  user: User
  isNewUser: boolean
  /** What proving the address removed from an account nobody had proven it for. */
  removed?: RemovedSignInMethods
  /**
   * The user was signed in already and stays the same (an account linked to, or signed in with by,
   * the session's own user): the new session carries on the current one's authentication.
   */
  continuesSession?: boolean
  /**
   * An account to link to `user` only once the second factor passed: linking by email to a user
   * with a second factor must not add a way in for someone who then fails it.
   */
  deferredLink?: { account: Account; user: User }
}

/**
 * Finds or creates the user for `identity`, linking accounts and firing `createUser`,
 * `updateUser` and `linkAccount` as it goes. Without an adapter nothing is stored and the
 * provider's user is signed in as is.
 *
 * @throws {OAuthAccountNotLinked} (`AccountNotLinked` for passkeys) when the account belongs to
 *   someone other than the signed-in user, or its email to a user who never linked it.
 */
export async function resolveSignInUser(ctx: RequestContext, identity: SignInIdentity): Promise<SignInOutcome> {
  const { account } = identity
  if (!account.providerAccountId || !["email", "oauth", "oidc", "webauthn"].includes(account.type)) {
    throw new AuthError(`Cannot sign in with account type ${JSON.stringify(account.type)} without a providerAccountId`)
  }
  if (!ctx.config.adapter) return { user: identity.user, isNewUser: false }
  return account.type === "email" ? emailUser(ctx, identity) : linkedUser(ctx, identity)
}

/**
 * Email proves the address: an existing user is marked verified (claimed first when it never
 * was), a new one is created verified.
 */
async function emailUser(ctx: RequestContext, { user }: SignInIdentity): Promise<SignInOutcome> {
  const { adapter } = ctx.config
  const email = user.email
  if (!email) throw new AuthError("An email sign-in needs the user's email address")
  const existing = await callAdapter(adapter, "getUserByEmail", email)
  if (existing) {
    const { user: updated, removed } = await markProven(ctx, existing)
    return { user: updated, isNewUser: false, ...(removed && { removed }) }
  }
  const created = await createUser(ctx, user, new Date())
  await emitEvent(ctx.config, "createUser", { user: created })
  return { user: created, isNewUser: true }
}

/** OAuth, OIDC and passkeys: the account decides, then the signed-in user, then the email. */
async function linkedUser(
  ctx: RequestContext,
  { user, account: signedInWith, storedAccount, allowDangerousEmailAccountLinking, emailProven, attach, signedInUser }: SignInIdentity,
): Promise<SignInOutcome> {
  const account = storedAccount ?? signedInWith
  const { adapter } = ctx.config
  const signedIn = signedInUser !== undefined ? signedInUser : await currentUser(ctx)
  const NotLinked = account.type === "webauthn" ? AccountNotLinked : OAuthAccountNotLinked
  const { provider, providerAccountId } = account
  const owner = await callAdapter(adapter, "getUserByAccount", { provider, providerAccountId })
  if (owner) {
    // Something is to be stored with a new account (a passkey being created), and the account is
    // not new: the credential id was chosen to be someone's. Never a sign-in as its owner.
    if (attach) throw new NotLinked("The account being created already exists")
    if (signedIn && signedIn.id !== owner.id) {
      throw new NotLinked("The account is already associated with another user")
    }
    await storeNewTokens(ctx, account)
    // The holder of an account linked to this user now shows its provider vouches for the user's
    // address: they own it, and anything else on the account was added by someone signed in as
    // it, so nothing is claimed. (Auth.js stores null for every OAuth user; they become proven
    // as they come back.)
    if (emailProven && !owner.emailVerified && owner.email && owner.email === user.email) {
      const updated = await callAdapter(adapter, "updateUser", { id: owner.id, emailVerified: new Date() })
      await emitEvent(ctx.config, "updateUser", { user: updated })
      return { user: updated, isNewUser: false }
    }
    return { user: owner, isNewUser: false, ...(signedIn && { continuesSession: true }) }
  }

  if (signedIn) {
    // A new way into the account: checked again here, whichever route started the link.
    await assertRecentForAccountChange(ctx, signedIn.id)
    await linkAccount(ctx, signedIn, account, user, attach)
    return { user: signedIn, isNewUser: false, continuesSession: true }
  }

  const sameEmail = user.email ? await callAdapter(adapter, "getUserByEmail", user.email) : null
  if (sameEmail) {
    if (account.type === "webauthn") throw new NotLinked("Another account already exists with the same e-mail address")
    // Nobody proved the address for that account: a sign-in that proves it claims it, as an email
    // link does, whatever dangerous linking says (else whoever typed the address first, with a
    // passkey or a password, would lock its owner out of this provider for good); one that does
    // not prove it never has it.
    if (!sameEmail.emailVerified) {
      if (!emailProven) throw new NotLinked("The account with this e-mail address never proved it, and this sign-in does not either")
      // Where claiming cannot be done (an Auth.js adapter), the answer stays Auth.js's, unless the
      // app asked for linking by email: then the missing methods are named.
      if (!allowDangerousEmailAccountLinking && claimBlocker(ctx.config)) {
        throw new NotLinked("Another account already exists with the same e-mail address, and claiming it needs adapter methods this adapter lacks")
      }
      // Auth.js records no proof for any OAuth sign-in, so every user of a database it wrote looks
      // unproven: claiming one that signs in through a provider would take away a real owner's
      // links and sessions. Without dangerous linking, only an account no provider made or joined
      // (a passkey or the app's own sign-up) is claimed this way; the others keep Auth.js's answer.
      if (!allowDangerousEmailAccountLinking && (await hasProviderAccount(ctx, sameEmail.id))) {
        throw new NotLinked("Another account already exists with the same e-mail address")
      }
      const { user: claimed, removed } = await markProven(ctx, sameEmail)
      await linkAccount(ctx, claimed, account, user, attach)
      return { user: claimed, isNewUser: false, ...(removed && { removed }) }
    }
    // Only the provider's word says this person owns the address; joining a proven owner on it is opt-in.
    if (!allowDangerousEmailAccountLinking) throw new NotLinked("Another account already exists with the same e-mail address")
    if (!attach && (await hasSecondFactor(ctx, sameEmail.id))) return { user: sameEmail, isNewUser: false, deferredLink: { account, user } }
    await linkAccount(ctx, sameEmail, account, user, attach)
    return { user: sameEmail, isNewUser: false }
  }

  const created = await createUser(ctx, user, emailProven ? new Date() : null)
  try {
    await linkAccount(ctx, created, account, user, attach, () => emitEvent(ctx.config, "createUser", { user: created }))
  } catch (error) {
    await forgetUser(ctx, created.id)
    throw error
  }
  return { user: created, isNewUser: true }
}

/**
 * Marks `user`'s address proven by this sign-in, claiming the account first when it never was
 * (see {@link claimUnprovenAccount}); fires `updateUser`.
 */
async function markProven(ctx: RequestContext, user: AdapterUser): Promise<{ user: AdapterUser; removed?: RemovedSignInMethods }> {
  if (user.emailVerified) {
    const updated = await callAdapter(ctx.config.adapter, "updateUser", { id: user.id, emailVerified: new Date() })
    await emitEvent(ctx.config, "updateUser", { user: updated })
    return { user: updated }
  }
  const { user: claimed, removed } = await claimUnprovenAccount(ctx, user)
  await emitEvent(ctx.config, "updateUser", { user: claimed })
  return { user: claimed, removed }
}

/**
 * Keeps the tokens of a returning user's sign-in, where the adapter can update accounts (Auth.js
 * keeps the first sign-in's forever): a refresh token that was refused must give way to the new
 * one, or the session stays marked with RefreshAccessTokenError. Fields the provider did not send
 * this time (a refresh token is often issued once) keep their stored values.
 */
async function storeNewTokens(ctx: RequestContext, account: Account): Promise<void> {
  const { adapter } = ctx.config
  if (typeof adapter?.updateAccount !== "function" || (account.type !== "oauth" && account.type !== "oidc")) return
  const { type: _type, userId: _userId, ...fields } = account
  try {
    await callAdapter(adapter, "updateAccount", withoutUndefined(fields) as typeof fields)
  } catch (error) {
    // The sign-in itself stands: Auth.js never writes here, and the old tokens are still stored.
    logError(ctx.logger, error)
  }
}

/**
 * Removes a user this sign-in created, or may have created (a `createUser` whose answer was lost
 * or unusable), when the sign-in cannot go on. Left in place, the user would own the email
 * without the account, and every retry would end in OAuthAccountNotLinked.
 */
async function forgetUser(ctx: RequestContext, userId: string): Promise<void> {
  if (typeof ctx.config.adapter?.deleteUser !== "function") return
  try {
    await callAdapter(ctx.config.adapter, "deleteUser", userId)
  } catch (error) {
    // Named, so that whoever reads the log can remove the row by hand.
    logError(ctx.logger, new AdapterError(`User ${userId}, created for a sign-in that failed, may still be stored`, { cause: error }))
  }
}

async function createUser(ctx: RequestContext, user: User, emailVerified: Date | null): Promise<AdapterUser> {
  // A provider's own id (its account id) never becomes the user's id; the adapter may replace this one.
  const draft = { ...user, id: crypto.randomUUID(), emailVerified } as AdapterUser
  try {
    return await callAdapter(ctx.config.adapter, "createUser", draft)
  } catch (error) {
    // The insert may have committed all the same; a store that kept the id it was given can
    // still take the row back (deleting an id nobody has is harmless).
    if (error instanceof AdapterError) await forgetUser(ctx, draft.id)
    throw error
  }
}

/** Whether `userId` has a second factor enabled (only asked with `twoFactor` configured). */
async function hasSecondFactor(ctx: RequestContext, userId: string): Promise<boolean> {
  if (!ctx.config.twoFactor) return false
  return Boolean((await callAdapter(ctx.config.adapter, "getTwoFactor", userId))?.enabledAt)
}

/**
 * Links an account whose linking waited for the second factor (see {@link SignInOutcome.deferredLink}),
 * firing `linkAccount` as an immediate link would.
 */
export function linkDeferredAccount(ctx: RequestContext, owner: AdapterUser, deferred: { account: Account; user: User }): Promise<void> {
  return linkAccount(ctx, owner, deferred.account, deferred.user, undefined)
}

async function linkAccount(
  ctx: RequestContext,
  owner: AdapterUser,
  account: Account,
  profile: User,
  attach: SignInIdentity["attach"],
  /** Fires the new owner's `createUser`, once the account is theirs for good. */
  announceOwner?: () => Promise<void> | undefined,
): Promise<void> {
  const stored = { ...account, userId: owner.id } as AdapterAccount
  await callAdapter(ctx.config.adapter, "linkAccount", stored)
  if (attach) {
    try {
      await attach(owner)
    } catch (error) {
      await unlinkAccount(ctx, stored)
      throw error
    }
  }
  await announceOwner?.()
  await emitEvent(ctx.config, "linkAccount", { user: owner, account: stored, profile })
}

/** Takes back an account linked moments ago whose attachments could not be stored. */
async function unlinkAccount(ctx: RequestContext, account: AdapterAccount): Promise<void> {
  if (typeof ctx.config.adapter?.unlinkAccount !== "function") return
  try {
    await callAdapter(ctx.config.adapter, "unlinkAccount", { provider: account.provider, providerAccountId: account.providerAccountId })
  } catch (error) {
    logError(ctx.logger, error)
  }
}

/** Whether an OAuth or OpenID Connect provider made or joined the user's account. */
async function hasProviderAccount(ctx: RequestContext, userId: string): Promise<boolean> {
  const accounts = await callAdapter(ctx.config.adapter!, "listAccountsByUserId", userId)
  return accounts.some((linked) => linked.type === "oauth" || linked.type === "oidc")
}
