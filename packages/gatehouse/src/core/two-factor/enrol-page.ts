/**
 * The enrolment page (`GET two-factor` for a pending sign-in in `enrol` mode, or a signed-in user
 * setting a factor up): a new enrolment begun for the user, shown as a QR code and the secret as
 * text, with the confirm form posting to `two-factor/totp/confirm`.
 * @module
 */
import { TwoFactorFailed } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { ResponseInternal } from "../internal-response.js"
import { renderTwoFactorEnrolPage } from "../pages/two-factor-enrol-page.js"
import { routeUrl, type RequestContext } from "../request-context.js"
import type { PendingSignIn } from "./pending.js"

/** The `error` of `GET two-factor` after a confirm whose enrolment is no longer the one under way. */
export const ENROLMENT_RESTARTED = "TwoFactorEnrolmentRestarted"

/** Who is enrolling: the user of a pending sign-in, or a signed-in user. */
export type Enrolling = { pending: PendingSignIn } | { userId: string }

/**
 * `GET two-factor` when the answer is to set a factor up. Each showing begins a new enrolment
 * (a reload shows a new secret); a signed-in user who has a factor enabled must have checked it
 * recently, as for `POST two-factor/totp`.
 *
 * @throws {TwoFactorExpired} for a pending sign-in whose user has a factor by now.
 * @throws {RecentAuthRequired} for an enrolled signed-in user without a recent second factor.
 */
export async function twoFactorEnrolPage(ctx: RequestContext, who: Enrolling): Promise<ResponseInternal> {
  const routes = await import("./management-routes.js")
  const { beginTotpEnrolment } = await import("./enrolment.js")
  let started
  if ("pending" in who) {
    started = await beginTotpEnrolment(ctx, await routes.pendingEnrollingUser(ctx, who.pending))
  } else {
    const user = await callAdapter(ctx.config.adapter, "getUser", who.userId)
    if (!user) throw new TwoFactorFailed("The user to enrol does not exist")
    started = await routes.enrolSignedIn(ctx, user)
  }
  return renderTwoFactorEnrolPage(ctx.config.theme, {
    ...started,
    action: routeUrl(ctx, "two-factor/totp/confirm"),
    csrfToken: ctx.csrfToken,
    ...("userId" in who && { callbackUrl: ctx.callbackUrl }),
    ...queryErrorText(ctx),
  })
}

/** Texts for the query errors that lead here; the query's own words are never shown. */
const QUERY_ERROR_TEXTS: ReadonlyMap<string, string> = new Map([
  [ENROLMENT_RESTARTED, "The setup was started again. Add this new key to your app, then enter its code."],
  ["TwoFactorNotEnrolled", "Two-step verification is not set up for this account yet. Set it up here first."],
])

function queryErrorText(ctx: RequestContext): { error?: string } {
  const text = QUERY_ERROR_TEXTS.get(ctx.request.query.error ?? "")
  return text === undefined ? {} : { error: text }
}
