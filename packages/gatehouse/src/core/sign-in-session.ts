/**
 * The one place a first factor becomes a session (issue 37): every sign-in route hands its result
 * here. Without `twoFactor` configured this is the session and the `signIn` event, as always; with
 * it, a sign-in that needs a second factor gets no session cookie, no session row, no event and no
 * `jwt` callback, only the pending cookie and the way to the two-factor page.
 * @module
 */
import type { AdapterUser } from "../adapters/index.js"
import type { Cookie } from "../cookies/defaults.js"
import { AuthError, TwoFactorUnavailable } from "../errors.js"
import type { Account, Profile, SessionAuthentication, User } from "../types.js"
import { callAdapter } from "./adapter-call.js"
import { refuseBannedUser } from "./admin/ban-check.js"
import { emitEvent } from "./events.js"
import type { ResponseInternal } from "./internal-response.js"
import { pageUrl, type RequestContext } from "./request-context.js"
import { currentAuthentication, endSession, issueSession, type SignInData } from "./sessions/index.js"
import type { IdpSession } from "./sessions/idp-session.js"
import type { SessionContextStart } from "./sessions/jwt-strategy.js"
import { currentSessionContext } from "./sessions/session-context.js"
import { sessionStoreOf } from "./sessions/session-cookie.js"
import type { FirstFactor } from "./two-factor/policy.js"
import { removedAnything, type RemovedSignInMethods } from "./unproven-account.js"

/** A sign-in whose first factor passed: everything needed to start its session, now or after the second factor. */
export interface FirstFactorDone {
  /** The user the session is for (the stored user under database sessions). */
  user: User
  /** The account signed in with (for credentials, the provider's synthetic account). */
  account: Account
  profile?: Profile
  isNewUser: boolean
  idpSession?: IdpSession
  logoutProvider?: string
  firstFactor: FirstFactor
  /** The `signIn` event's message, as the route has always sent it. */
  event: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }
  /** Where the browser goes once signed in. */
  next: string
  /** What claiming an unproven account removed, shown before going on. */
  removed?: RemovedSignInMethods
  /** The request's session is this user's (linking while signed in): its authentication carries over. */
  continuesSession?: boolean
  /** An account to link once the second factor passed (set only when one is due). */
  deferredLink?: { account: Account; user: User }
}

/**
 * Starts the session for `signIn`, or, when a second factor is needed first, the pending sign-in.
 * The caller's response is what this returns.
 */
export async function startSignedInSession(ctx: RequestContext, firstFactor: FirstFactorDone): Promise<ResponseInternal> {
  const { twoFactor } = ctx.config
  // With organizations, the session records the provider signed in with (their sign-in-method policy).
  const signIn = ctx.config.organizations ? { ...firstFactor, context: await contextStart(ctx, firstFactor) } : firstFactor
  if (!twoFactor) return signedIn(ctx, signIn, await sessionCookies(ctx, signIn, undefined))

  if (signIn.continuesSession) {
    // Linking while signed in proves nothing new about the person: the session goes on at the
    // authentication it had, never raised, never re-dated. No session standing: one factor.
    const current = await currentAuthentication(ctx)
    return signedIn(ctx, signIn, await sessionCookies(ctx, signIn, current ?? { aal: 1, amr: [...signIn.firstFactor.amr], secondFactorAt: null }))
  }
  const { twoFactorDecision } = await import("./two-factor/policy.js")
  const { user, isStored } = await storedUser(ctx, signIn.user)
  const decision = await twoFactorDecision(ctx, twoFactor, user, { ...signIn.firstFactor, ...(signIn.account.type === "email" && { byEmail: true }) })
  if (decision.kind === "none") {
    // Deferred only for a user with a second factor, whom the decision always challenges; should it
    // ever not, the link happens as it would have without the deferral.
    if (signIn.deferredLink) await (await import("./account-linking.js")).linkDeferredAccount(ctx, user, signIn.deferredLink)
    return signedIn(ctx, signIn, await sessionCookies(ctx, signIn, decision.authentication))
  }

  const { startPending } = await import("./two-factor/pending.js")
  // A banned user is refused before the second factor is asked for (and again when it is done).
  await refuseBannedUser(ctx, user.id)
  if (!isStored) {
    // Finishing needs the user stored (the pending sign-in names it by id; factors hang off it).
    throw new TwoFactorUnavailable("A second factor is due for a user the adapter does not store (a Credentials user from `authorize` alone): two-factor sign-in needs stored users")
  }
  const started = await startPending(ctx, {
    uid: user.id,
    // Only a Credentials sign-in's user differs from the stored row (fields `authorize` added);
    // every other first factor's user is the row, read again at the end.
    ...(signIn.account.type === "credentials" && { user: signIn.user }),
    ...(signIn.account.type === "credentials" && signIn.event.user !== signIn.user && { eventUser: signIn.event.user }),
    mode: decision.kind,
    isNewUser: signIn.isNewUser,
    firstAmr: signIn.firstFactor.amr,
    account: signIn.account,
    ...(signIn.profile && { profile: signIn.profile }),
    ...(signIn.idpSession && { idpSession: signIn.idpSession }),
    ...(signIn.logoutProvider !== undefined && { logoutProvider: signIn.logoutProvider }),
    next: signIn.next,
    ...(signIn.removed && removedAnything(signIn.removed) && { removed: signIn.removed }),
    ...(signIn.deferredLink && { deferredLink: signIn.deferredLink }),
  })
  // The email code is the only factor: its first code goes out now, so the page can ask for it at once.
  const cookies = decision.kind === "challenge" && decision.method === "email"
    ? await (await import("./two-factor/email-challenge.js")).sendFirstEmailCode(ctx, started.pending, started.cookies)
    : started.cookies
  // A sign-in never continues the session the browser had (fixation), and no session may stand
  // meanwhile: the one sent is ended as a sign-out ends it (its row deleted, `signOut` fired), not
  // only its cookie cleared, which would leave the row valid for anyone holding a copy.
  const cleared = sessionStoreOf(ctx).value ? await endSession(ctx) : []
  return { redirect: pageUrl(ctx, "twoFactor", "two-factor"), cookies: [...cleared, ...cookies] }
}

/**
 * The session's cookies, with how it was authenticated when `twoFactor` records it. With `admin`
 * configured, a banned user gets none (`UserBanned`): every sign-in's session, the one after a
 * second factor included, is issued here.
 */
export async function sessionCookies(ctx: RequestContext, signIn: Omit<SignInData, "authentication">, authentication: SessionAuthentication | undefined): Promise<Cookie[]> {
  await refuseBannedUser(ctx, signIn.user.id)
  return issueSession(ctx, {
    user: signIn.user,
    account: signIn.account,
    ...(signIn.profile && { profile: signIn.profile }),
    isNewUser: signIn.isNewUser,
    ...(signIn.idpSession && { idpSession: signIn.idpSession }),
    ...(signIn.logoutProvider !== undefined && { logoutProvider: signIn.logoutProvider }),
    ...(authentication && { authentication }),
    ...(ctx.config.organizations && { context: signIn.context ?? (signIn.account ? { signInProvider: signIn.account.provider } : {}) }),
  })
}

/**
 * The cookies of an impersonation's session for `user` (see ./admin/impersonation.ts): no first
 * factor, so no `signIn` event, and none of the user's factors shown (one factor, no `amr`, with
 * `twoFactor`): what asks for a second factor or a recent one fails closed for the admin.
 */
export function impersonationSessionCookies(ctx: RequestContext, user: User, impersonation: { by: string; expires: number }): Promise<Cookie[]> {
  return issueSession(ctx, {
    user,
    account: null,
    isNewUser: false,
    ...(ctx.config.twoFactor && { authentication: { aal: 1, amr: [], secondFactorAt: null } }),
    context: { impersonation },
  })
}

/**
 * The context a sign-in's session starts with: the provider signed in with; linking while signed
 * in continues the session, so its active organization and first provider carry over.
 */
async function contextStart(ctx: RequestContext, signIn: FirstFactorDone): Promise<SessionContextStart> {
  if (!signIn.continuesSession) return { signInProvider: signIn.account.provider }
  const current = (await currentSessionContext(ctx))?.context
  return {
    signInProvider: current?.signInProvider ?? signIn.account.provider,
    ...(current?.activeOrganizationId && { activeOrganizationId: current.activeOrganizationId }),
  }
}

/**
 * After the session exists: the `signIn` event, then the next page, or first the page saying
 * which other ways in a claimed account lost.
 */
export async function signedIn(ctx: RequestContext, signIn: Pick<FirstFactorDone, "user" | "event" | "next" | "removed">, cookies: Cookie[]): Promise<ResponseInternal> {
  await emitEvent(ctx.config, "signIn", signIn.event)
  if (signIn.removed && removedAnything(signIn.removed)) {
    const page = (await import("./pages/index.js")).renderMethodsRemovedPage(ctx.config.theme, { email: signIn.user.email, removed: removedNames(ctx, signIn.removed), continueUrl: signIn.next })
    return { ...page, cookies }
  }
  return { redirect: signIn.next, cookies }
}

/**
 * The stored user the policy decides for: the adapter's row when it has one (the `require`
 * function is given the stored user), else the user as the first factor named them (`isStored`
 * false: such a user can be signed in at one factor, never wait for a second).
 */
async function storedUser(ctx: RequestContext, user: User): Promise<{ user: AdapterUser; isStored: boolean }> {
  const id = user.id
  if (!id) throw new AuthError("A two-factor sign-in needs a user with an id")
  const stored = await callAdapter(ctx.config.adapter, "getUser", id)
  return stored ? { user: stored, isStored: true } : { user: { ...user, id, email: user.email ?? "", emailVerified: null } as AdapterUser, isStored: false }
}

/** What was removed, as the page names it: provider names, passkeys, a password. */
export function removedNames(ctx: RequestContext, removed: RemovedSignInMethods): string[] {
  const names = removed.accounts.map(({ provider, type }) => {
    if (type === "webauthn") return "A passkey"
    const name = ctx.config.providers.find((candidate) => candidate.id === provider)?.name ?? provider
    return `Your ${name} account`
  })
  if (removed.credentials) names.push("A password")
  if (removed.twoFactor) names.push("Two-step verification")
  return names
}
