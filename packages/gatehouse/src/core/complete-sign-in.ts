/**
 * The end of every provider sign-in that knows who the person is (OAuth, OIDC, email links,
 * passkeys): the `signIn` callback, finding or creating the user, the session, the event,
 * and where to go next.
 * @module
 */
import type { AdapterUser } from "../adapters/index.js"
import type { Account, Profile, User } from "../types.js"
import { resolveSignInUser } from "./account-linking.js"
import { callAdapter } from "./adapter-call.js"
import { emitEvent } from "./events.js"
import type { ResponseInternal } from "./internal-response.js"
import type { RequestContext } from "./request-context.js"
import { issueSession } from "./sessions/index.js"
import { runSignInCallback } from "./sign-in-callback.js"

/** Who signed in through which account, as the provider established it. */
export interface ProviderSignIn {
  user: User
  account: Account
  /** What an adapter stores of the account, when less than `account` (OAuth: the `account()` hook's pick). */
  storedAccount?: Account
  profile?: Profile
  allowDangerousEmailAccountLinking?: boolean
  /** Stored with a newly linked account, all or nothing (a passkey's authenticator). */
  attach?: (owner: AdapterUser) => Promise<void>
}

/**
 * Signs the person in: the `signIn` callback sees the stored user when the account is known (as in
 * Auth.js), then the user is found or created and linked, a session issued and `signIn` fired. A
 * new user goes to `pages.newUser` when there is one, everyone else to the callback URL.
 */
export async function completeSignIn(ctx: RequestContext, signIn: ProviderSignIn): Promise<ResponseInternal> {
  const { account, profile } = signIn
  const { adapter } = ctx.config
  const known =
    adapter && account.type !== "email"
      ? await callAdapter(adapter, "getUserByAccount", { provider: account.provider, providerAccountId: account.providerAccountId })
      : null
  const redirect = await runSignInCallback(ctx, { user: known ?? signIn.user, account, ...(profile && { profile }) })
  if (redirect) return { redirect }

  const { user, isNewUser } = await resolveSignInUser(ctx, signIn)
  const cookies = await issueSession(ctx, { user, account, ...(profile && { profile }), isNewUser })
  await emitEvent(ctx.config, "signIn", { user, account, ...(profile && { profile }), isNewUser })

  const { newUser } = ctx.config.pages
  if (isNewUser && newUser) {
    const query = new URLSearchParams({ callbackUrl: ctx.callbackUrl })
    return { redirect: `${newUser}${newUser.includes("?") ? "&" : "?"}${query}`, cookies }
  }
  return { redirect: ctx.callbackUrl, cookies }
}
