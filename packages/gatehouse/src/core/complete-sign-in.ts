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
import type { IdpSession } from "./sessions/idp-session.js"
import { runSignInCallback } from "./sign-in-callback.js"
import { removedAnything, type RemovedSignInMethods } from "./unproven-account.js"

/** Who signed in through which account, as the provider established it. */
export interface ProviderSignIn {
  user: User
  account: Account
  /** What an adapter stores of the account, when less than `account` (OAuth: the `account()` hook's pick). */
  storedAccount?: Account
  profile?: Profile
  allowDangerousEmailAccountLinking?: boolean
  /** Whether the provider vouched for `user.email` (OIDC `email_verified`). */
  emailProven?: boolean
  /** The identity provider session the sign-in came from (OIDC `sid`), kept with the new session. */
  idpSession?: IdpSession
  /** The OIDC provider whose end-session endpoint can end the provider's session too (RP-initiated logout). */
  logoutProvider?: string
  /** Stored with a newly linked account, all or nothing (a passkey's authenticator). */
  attach?: (owner: AdapterUser) => Promise<void>
  /** The signed-in user, when the caller has read it already (see {@link SignInIdentity.signedInUser}). */
  signedInUser?: AdapterUser | null
}

/**
 * Signs the person in: the `signIn` callback sees the stored user when the account is known (as in
 * Auth.js), then the user is found or created and linked, a session issued and `signIn` fired. A
 * new user goes to `pages.newUser` when there is one, everyone else to the callback URL; someone
 * whose proof of address removed other ways into the account first sees a page saying so.
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

  const { user, isNewUser, removed } = await resolveSignInUser(ctx, signIn)
  const cookies = await issueSession(ctx, { user, account, ...(profile && { profile }), isNewUser, ...(signIn.idpSession && { idpSession: signIn.idpSession }),
    ...(signIn.logoutProvider !== undefined && { logoutProvider: signIn.logoutProvider }),
  })
  await emitEvent(ctx.config, "signIn", { user, account, ...(profile && { profile }), isNewUser })

  const { newUser } = ctx.config.pages
  const next = isNewUser && newUser ? `${newUser}${newUser.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl: ctx.callbackUrl })}` : ctx.callbackUrl
  if (removedAnything(removed)) {
    const page = (await import("./pages/index.js")).renderMethodsRemovedPage(ctx.config.theme, { email: user.email, removed: removedNames(ctx, removed), continueUrl: next })
    return { ...page, cookies }
  }
  return { redirect: next, cookies }
}

/** What was removed, as the page names it: provider names, passkeys, a password. */
function removedNames(ctx: RequestContext, removed: RemovedSignInMethods): string[] {
  const names = removed.accounts.map(({ provider, type }) => {
    if (type === "webauthn") return "A passkey"
    const name = ctx.config.providers.find((candidate) => candidate.id === provider)?.name ?? provider
    return `Your ${name} account`
  })
  if (removed.credentials) names.push("A password")
  return names
}
