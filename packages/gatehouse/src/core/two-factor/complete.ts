/**
 * The end of a sign-in that waited for its second factor: the only place besides the choke point
 * (../sign-in-session.ts) that issues a sign-in's session. The `jwt` callback runs here (with the
 * `account` and `profile` the pending cookie carried), then the `signIn` event.
 * @module
 */
import type { Cookie } from "../../cookies/defaults.js"
import { TwoFactorExpired, TwoFactorFailed } from "../../errors.js"
import type { TwoFactorMethod, User } from "../../types.js"
import { linkDeferredAccount } from "../account-linking.js"
import { callAdapter } from "../adapter-call.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { removedNames, sessionCookies, signedIn } from "../sign-in-session.js"
import { removedAnything } from "../unproven-account.js"
import { clearPending, spendPending, type PendingSignIn } from "./pending.js"
import { twoFactorAuthentication } from "./policy.js"
import { trustDeviceCookie } from "./trust-device.js"

/**
 * Issues the session of `pending`, whose second factor (`method`) was just checked, at aal 2. The
 * pending sign-in is spent first: a replayed cookie or a second submit issues nothing.
 *
 * @throws {TwoFactorExpired} when the pending sign-in was already spent.
 * @throws {TwoFactorFailed} when its user no longer exists.
 */
export async function completePendingSignIn(ctx: RequestContext, pending: PendingSignIn, method: TwoFactorMethod, options: CompleteOptions = {}): Promise<ResponseInternal> {
  if (!(await spendPending(ctx, pending.pid))) throw new TwoFactorExpired("The pending sign-in was already finished")
  const stored = await callAdapter(ctx.config.adapter, "getUser", pending.uid)
  if (!stored) throw new TwoFactorFailed("The user of the pending sign-in no longer exists")
  // Linked only now: a sign-in that fails its second factor adds no way into the account.
  if (pending.deferredLink) await linkDeferredAccount(ctx, stored, pending.deferredLink)
  // The session and the event get the user as the first factor gave it (fields `authorize` added
  // included), as they would have without the second factor; the stored row only proved it exists.
  const user = pending.user ?? stored
  const authentication = twoFactorAuthentication(pending.firstAmr, ["otp"])
  const { account, profile, isNewUser } = pending
  const cookies = await sessionCookies(
    ctx,
    {
      user,
      account,
      ...(profile && { profile }),
      isNewUser,
      ...(pending.idpSession && { idpSession: pending.idpSession }),
      ...(pending.logoutProvider !== undefined && { logoutProvider: pending.logoutProvider }),
    },
    authentication,
  )
  const allCookies = [...clearPending(ctx), ...cookies, ...(options.trustDevice ? await trustCookies(ctx, stored.id) : [])]
  const event = { user: pending.eventUser ?? user, account, ...(profile && { profile }), isNewUser }
  if (!options.recoveryCodes) return signedIn(ctx, { user, event, next: pending.next, ...(pending.removed && { removed: pending.removed }) }, allCookies)
  // Enrolled during this sign-in: the codes are shown now or never, so they come before the
  // destination (the session already set on this answer), with a link on to it; what claiming
  // the account removed, a page of its own otherwise, is said on the same page.
  const done = await signedIn(ctx, { user, event, next: pending.next }, allCookies)
  const { codes, json } = options.recoveryCodes
  const removed = removedAnything(pending.removed) ? removedNames(ctx, pending.removed) : []
  if (json) return jsonResponse({ recoveryCodes: codes, url: pending.next }, { noCache: true, cookies: done.cookies ?? allCookies })
  const { renderRecoveryCodesPage } = await import("../pages/two-factor-enrol-page.js")
  return { ...renderRecoveryCodesPage(ctx.config.theme, { recoveryCodes: codes, continueUrl: pending.next, removed }), cookies: done.cookies ?? allCookies }
}

/** How a pending sign-in finishes besides issuing its session. */
export interface CompleteOptions {
  /** Also trust this browser ("don't ask again here"), when configured. */
  trustDevice?: boolean
  /**
   * The recovery codes of a factor enrolled during this sign-in: answered instead of the redirect
   * (a page, or `{ recoveryCodes, url }` to a JSON caller), since they are shown only once.
   */
  recoveryCodes?: { codes: string[]; json: boolean }
}

/**
 * The cookie trusting this browser ("don't ask again here"), when `twoFactor.trustDevice` is on and
 * the user's factor is enabled: it is bound to the stored row's enabling time and trust version.
 */
async function trustCookies(ctx: RequestContext, userId: string): Promise<Cookie[]> {
  const trust = ctx.config.twoFactor?.trustDevice
  if (!trust) return []
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", userId)
  if (!stored?.enabledAt) return []
  return [await trustDeviceCookie(ctx, { userId, enabledAt: stored.enabledAt, trustVersion: stored.trustVersion }, trust.maxAge)]
}
