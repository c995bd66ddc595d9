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
import type { ResponseInternal } from "./internal-response.js"
import type { RequestContext } from "./request-context.js"
import type { IdpSession } from "./sessions/idp-session.js"
import { runSignInCallback } from "./sign-in-callback.js"
import { startSignedInSession } from "./sign-in-session.js"

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
  /** RFC 8176 values of the first factor when the provider named them (an ID token's `amr`); else from the account's type. */
  amr?: string[]
  /** For passkeys: whether the authenticator verified the user. */
  passkeyUv?: boolean
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

  const { user, isNewUser, removed, continuesSession, deferredLink } = await resolveSignInUser(ctx, signIn)
  const { newUser } = ctx.config.pages
  const next = isNewUser && newUser ? `${newUser}${newUser.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl: ctx.callbackUrl })}` : ctx.callbackUrl
  return startSignedInSession(ctx, {
    user,
    account,
    ...(profile && { profile }),
    isNewUser,
    ...(signIn.idpSession && { idpSession: signIn.idpSession }),
    ...(signIn.logoutProvider !== undefined && { logoutProvider: signIn.logoutProvider }),
    firstFactor: { amr: signIn.amr ?? firstAmrOf(account), ...(signIn.passkeyUv !== undefined && { passkeyUv: signIn.passkeyUv }) },
    event: { user, account, ...(profile && { profile }), isNewUser },
    next,
    ...(removed && { removed }),
    ...(continuesSession && { continuesSession }),
    ...(deferredLink && { deferredLink }),
  })
}

/** RFC 8176 values for a first factor whose provider named none: an email link is a one-time code, a passkey hardware, a provider federation. */
function firstAmrOf(account: Account): string[] {
  if (account.type === "email") return ["otp"]
  if (account.type === "webauthn") return ["hwk"]
  return ["fed"]
}
