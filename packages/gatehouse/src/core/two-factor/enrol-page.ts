/**
 * `GET two-factor` when a factor is to be set up: for a pending sign-in in `enrol` mode, a new
 * enrolment shown as a QR code and the secret as text, with the confirm form posting to
 * `two-factor/totp/confirm`; for a signed-in user, a button that starts one (`POST two-factor/totp`).
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { renderEnrolStartPage, renderTwoFactorEnrolPage } from "../pages/two-factor-enrol-page.js"
import { routeUrl, type RequestContext } from "../request-context.js"
import { ENROLMENT_RESTARTED } from "./enrolment.js"
import type { PendingSignIn } from "./pending.js"


/** Who is enrolling: the user of a pending sign-in, or a signed-in user. */
export type Enrolling = { pending: PendingSignIn } | { userId: string }

/**
 * `GET two-factor` when the answer is to set a factor up. A pending sign-in that must enrol gets
 * the enrolment page, each showing a new enrolment (a reload shows a new secret). A signed-in
 * user gets a page whose button posts to `two-factor/totp` (CSRF-checked; that route asks an
 * enrolled user for a recent second factor): a GET, which any site can cause, begins nothing.
 *
 * @throws {TwoFactorExpired} for a pending sign-in whose user has a factor by now.
 */
export async function twoFactorEnrolPage(ctx: RequestContext, who: Enrolling): Promise<ResponseInternal> {
  if (!("pending" in who)) {
    return renderEnrolStartPage(ctx.config.theme, { action: routeUrl(ctx, "two-factor/totp"), csrfToken: ctx.csrfToken, callbackUrl: ctx.callbackUrl, ...queryErrorText(ctx, START_ERROR_TEXTS) })
  }
  const routes = await import("./management-routes.js")
  const { beginTotpEnrolment } = await import("./enrolment.js")
  const started = await beginTotpEnrolment(ctx, await routes.pendingEnrollingUser(ctx, who.pending))
  return renderTwoFactorEnrolPage(ctx.config.theme, {
    ...started,
    action: routeUrl(ctx, "two-factor/totp/confirm"),
    csrfToken: ctx.csrfToken,
    ...queryErrorText(ctx, ENROL_ERROR_TEXTS),
  })
}

/** Texts for the query errors that lead to a pending sign-in's enrolment page; the query's own words are never shown. */
const ENROL_ERROR_TEXTS: ReadonlyMap<string, string> = new Map([
  [ENROLMENT_RESTARTED, "The setup was started again. Add this new key to your app, then enter its code."],
])

/** The same for a signed-in user's start page, where no key is shown yet. */
const START_ERROR_TEXTS: ReadonlyMap<string, string> = new Map([
  [ENROLMENT_RESTARTED, "The setup was started again elsewhere, so that key no longer works. Start again to get a new one."],
  ["TwoFactorNotEnrolled", "Two-step verification is not set up for this account yet. Set it up here first."],
])

function queryErrorText(ctx: RequestContext, texts: ReadonlyMap<string, string>): { error?: string } {
  const text = texts.get(ctx.request.query.error ?? "")
  return text === undefined ? {} : { error: text }
}
