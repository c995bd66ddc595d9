/**
 * `GET|POST {basePath}/two-factor`: the second-factor page, and the code posted to it, finishing a
 * pending sign-in (by app, recovery or email code), or stepping up the current session (see
 * ./step-up.ts); a pending sign-in that must enrol first is shown the enrolment page (see
 * ./enrol-page.ts). Served only with `twoFactor` configured; the route entry has checked CSRF for
 * every POST.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { InvalidTwoFactorCode, TwoFactorExpired, TwoFactorFailed } from "../../errors.js"
import type { TwoFactorMethod } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import type { ResponseInternal } from "../internal-response.js"
import { pageContextOf } from "../actions/page-context.js"
import { renderTwoFactorPage, type TwoFactorEmailOffer } from "../pages/two-factor-page.js"
import { pageUrl, type RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { checkSecondFactorCode } from "./check-code.js"
import { completePendingSignIn } from "./complete.js"
import { checkPendingEmailCode, emailCodeAllowed, emailCodeSend } from "./email-challenge.js"
import { twoFactorEnrolPage } from "./enrol-page.js"
import { clearPending, countAttempt, PENDING_MAX_ATTEMPTS, readPending, type PendingSignIn } from "./pending.js"
import { throttleTwoFactorAttempt } from "./rate-limit.js"
import { stepUpChallenge } from "./step-up.js"

/**
 * `GET two-factor`: the page that asks for the second factor (`Cache-Control: no-store`). A pending
 * sign-in gets the challenge page with the ways this user has (authenticator app, recovery codes
 * left, the email code when `twoFactor.email` is on and the address is verified), or enrolment when
 * it must set a factor up first. Without one, a signed-in user with a factor gets the step-up
 * variant ("Confirm it's you", posting to step-up), one without is sent to enrolment. With
 * `pages.twoFactor` the browser goes there instead, with the query kept.
 *
 * @throws {TwoFactorExpired} with neither a pending sign-in nor a session.
 * @throws {TwoFactorFailed} when the pending sign-in's user no longer exists.
 */
export async function twoFactorPage(ctx: RequestContext): Promise<ResponseInternal> {
  if (ctx.config.pages.twoFactor) {
    return { redirect: pageUrl(ctx, "twoFactor", "two-factor", new URLSearchParams(ctx.request.url.search)) }
  }
  const pending = await readPending(ctx)
  if (pending) {
    if (pending.mode === "enrol") return noStore(await twoFactorEnrolPage(ctx, { pending }))
    const user = await callAdapter(ctx.config.adapter, "getUser", pending.uid)
    if (!user) throw new TwoFactorFailed("The user of the pending sign-in no longer exists")
    const { totp, recovery } = await storedMethods(ctx, user.id)
    const email = emailOffer(ctx, user, pending)
    return renderTwoFactorPage(pageContextOf(ctx), {
      variant: "signIn",
      totp,
      recovery,
      ...(email && { email }),
      ...(ctx.config.twoFactor?.trustDevice && { trustDeviceMaxAge: ctx.config.twoFactor.trustDevice.maxAge }),
      ...queryError(ctx),
    })
  }
  const user = await currentUser(ctx)
  if (!user) throw new TwoFactorExpired("There is no sign-in waiting for a second factor")
  const methods = await storedMethods(ctx, user.id)
  if (!methods.enabled) return noStore(await twoFactorEnrolPage(ctx, { userId: user.id }))
  return renderTwoFactorPage(pageContextOf(ctx), { variant: "stepUp", totp: methods.totp, recovery: methods.recovery, ...queryError(ctx) })
}

/** Which of the stored factors `uid` can answer with. */
async function storedMethods(ctx: RequestContext, uid: string): Promise<{ enabled: boolean; totp: boolean; recovery: boolean }> {
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", uid)
  const enabled = Boolean(stored?.enabledAt)
  return { enabled, totp: enabled && Boolean(stored?.totpSecret), recovery: enabled && (stored?.recoveryCodesLeft ?? 0) > 0 }
}

/**
 * The email code, when `twoFactor.email` is on, `user`'s address is verified (codes go nowhere
 * else) and the first factor was not that mailbox already.
 */
function emailOffer(ctx: RequestContext, user: AdapterUser, pending: PendingSignIn): TwoFactorEmailOffer | undefined {
  const email = ctx.config.twoFactor?.email
  if (!email || !user.email || !user.emailVerified || !emailCodeAllowed(pending)) return undefined
  return { address: user.email, sent: pending.emailCode !== undefined || ctx.request.query.sent === "email", digits: email.digits }
}

/** The `error` query parameter, which the page maps to its own texts (never shown as given). */
function queryError(ctx: RequestContext): { error?: string } {
  const { error } = ctx.request.query
  return typeof error === "string" && error !== "" ? { error } : {}
}

/** `response` kept out of caches: a page of a sign-in in progress or a factor being set up. */
function noStore(response: ResponseInternal): ResponseInternal {
  return { ...response, headers: { ...response.headers, "Cache-Control": "no-store" } }
}

/**
 * `POST two-factor`: `code` and `method` (`totp`, the default, `recovery`, or `email` when
 * `twoFactor.email` is on and the first factor was not the mailbox) against the pending sign-in; `method=email` with `action=send` (or no
 * code) emails a code instead (see ./email-challenge.ts). Each try is counted before it is checked, per pending sign-in (5, server-side, so a
 * replayed cookie cannot reset them) and per client and user (the shared limiter).
 *
 * @throws {TwoFactorExpired} without a live pending sign-in, or once it was finished.
 * @throws {InvalidTwoFactorCode} for a wrong code while tries remain.
 * @throws {TwoFactorFailed} at the last wrong try: the pending sign-in is void.
 */
export async function twoFactorChallenge(ctx: RequestContext): Promise<ResponseInternal> {
  const pending = await readPending(ctx)
  if (!pending) return stepUpChallenge(ctx)
  // Nothing to check yet: a sign-in that must enrol confirms on two-factor/totp/confirm, from its page.
  if (pending.mode === "enrol") return { redirect: pageUrl(ctx, "twoFactor", "two-factor") }
  const body = ctx.request.body ?? {}
  const method = body.method === undefined || body.method === "" ? "totp" : body.method
  if (method !== "totp" && method !== "recovery" && !(method === "email" && ctx.config.twoFactor?.email && emailCodeAllowed(pending))) {
    throw new InvalidTwoFactorCode("Unknown second-factor method")
  }
  const code = typeof body.code === "string" ? body.code : ""
  if (method === "email" && (body.action === "send" || code === "")) return emailCodeSend(ctx, pending)

  await throttleTwoFactorAttempt(ctx, pending.uid)
  const { count, allowed } = await countAttempt(ctx, pending.pid)
  if (!allowed) throw new TwoFactorFailed("Too many wrong codes for this sign-in")

  let right: boolean
  if (method === "email") {
    const checked = await checkPendingEmailCode(ctx, pending, code)
    // A voided code leaves the cookie whatever the answer, so the page offers a new one.
    ctx.cookiesAlways.push(...checked.cookies)
    right = checked.right
  } else {
    right = await checkSecondFactorCode(ctx, pending.uid, method, code)
  }
  await challengeEvent(ctx, pending.uid, method, right)
  if (right) return completePendingSignIn(ctx, pending, method, { trustDevice: isChecked(body.trustDevice) })
  if (count >= PENDING_MAX_ATTEMPTS) {
    // Void server-side already (the count); the cookie goes too, so the browser starts again.
    ctx.cookiesAlways.push(...clearPending(ctx))
    throw new TwoFactorFailed("Too many wrong codes for this sign-in")
  }
  throw new InvalidTwoFactorCode("The second-factor code is wrong")
}

/** `twoFactorChallenge`, right or wrong, for the pending user (none when the user is gone). */
async function challengeEvent(ctx: RequestContext, uid: string, method: TwoFactorMethod, success: boolean): Promise<void> {
  if (typeof ctx.config.events.twoFactorChallenge !== "function") return
  const user = await callAdapter(ctx.config.adapter, "getUser", uid)
  if (user) await emitEvent(ctx.config, "twoFactorChallenge", { user, method, success })
}

/** A checkbox's or JSON flag's "on". */
function isChecked(value: unknown): boolean {
  return value === true || value === "on" || value === "true" || value === "1"
}
