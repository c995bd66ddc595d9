/**
 * `GET|POST {basePath}/two-factor`: the second-factor page, and the code posted to it, finishing a
 * pending sign-in. Served only with `twoFactor` configured; the route entry has checked CSRF for
 * every POST. Not built yet: step-up of a current session, the email code, enrolment during
 * sign-in (a pending sign-in in `enrol` mode), and the built-in page's final look (pages part).
 * @module
 */
import { InvalidTwoFactorCode, TwoFactorExpired, TwoFactorFailed, UnknownAction } from "../../errors.js"
import type { TwoFactorMethod } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "../pages/escape-html.js"
import { htmlResponse } from "../pages/html-response.js"
import { renderPage } from "../pages/layout.js"
import { routeUrl, type RequestContext } from "../request-context.js"
import { checkSecondFactorCode } from "./check-code.js"
import { completePendingSignIn } from "./complete.js"
import { checkPendingEmailCode, emailCodeSend } from "./email-challenge.js"
import { twoFactorEnrolPage } from "./enrol-page.js"
import { clearPending, countAttempt, PENDING_MAX_ATTEMPTS, readPending, type PendingSignIn } from "./pending.js"
import { throttleTwoFactorAttempt } from "./rate-limit.js"
import { stepUpChallenge } from "./step-up.js"

/** `GET two-factor`: a plain form asking for the code of the pending sign-in (or a recovery code). */
export async function twoFactorPage(ctx: RequestContext): Promise<ResponseInternal> {
  const pending = await readPending(ctx)
  if (!pending) throw new TwoFactorExpired("There is no sign-in waiting for a second factor")
  if (pending.mode === "enrol") return twoFactorEnrolPage(ctx, { pending })
  const action = escapeHtml(routeUrl(ctx, "two-factor"))
  const csrf = `<input type="hidden" name="csrfToken" value="${escapeHtml(ctx.csrfToken ?? "")}">`
  const error = typeof ctx.request.query.error === "string" ? `<p role="alert" id="two-factor-error">That code did not work. Try again.</p>` : ""
  const body =
    "<h1>Two-step verification</h1>" +
    error +
    `<form method="post" action="${action}">${csrf}<input type="hidden" name="method" value="totp">` +
    `<label for="code">Code from your authenticator app</label>` +
    `<input id="code" name="code" autocomplete="one-time-code" inputmode="numeric" required${error && ' aria-describedby="two-factor-error"'}>` +
    (ctx.config.twoFactor?.trustDevice ? `<label><input type="checkbox" name="trustDevice" value="on"> Don't ask again on this browser</label>` : "") +
    `<button type="submit">Verify</button></form>` +
    `<form method="post" action="${action}">${csrf}<input type="hidden" name="method" value="recovery">` +
    `<label for="recovery-code">Or a recovery code</label><input id="recovery-code" name="code" autocomplete="off" required>` +
    `<button type="submit">Use recovery code</button></form>`
  const page = htmlResponse(renderPage({ title: "Two-step verification", theme: ctx.config.theme, body }))
  return { ...page, headers: { ...page.headers, "Cache-Control": "no-store" } }
}

/**
 * `POST two-factor`: `code` and `method` (`totp`, the default, `recovery`, or `email` when
 * `twoFactor.email` is on) against the pending sign-in; `method=email` with `action=send` (or no
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
  if (pending.mode === "enrol") throw notBuilt("Enrolment during sign-in")
  const body = ctx.request.body ?? {}
  const method = body.method === undefined || body.method === "" ? "totp" : body.method
  if (method !== "totp" && method !== "recovery" && !(method === "email" && ctx.config.twoFactor?.email)) {
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

function notBuilt(what: string): UnknownAction {
  return new UnknownAction(`${what} is not available yet in this version of Gatehouse`)
}
