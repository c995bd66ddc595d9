/**
 * Step-up: `POST two-factor` with no pending sign-in but a session, whose user proves their second
 * factor again to raise or refresh the session's authentication (aal 2, `secondFactorAt` now),
 * which the sensitive actions ask for (see ./recent-auth.ts). The route entry has checked CSRF.
 * Only a code checked now counts: a trusted-browser cookie skips a sign-in's challenge, never a
 * step-up.
 * @module
 */
import { InvalidTwoFactorCode, TwoFactorExpired, TwoFactorNotEnrolled } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { isJsonRequest, postedCallbackUrl } from "../request-shape.js"
import { currentUser } from "../sessions/index.js"
import { checkSecondFactorCode } from "./check-code.js"
import { throttleTwoFactorAttempt } from "./rate-limit.js"
import { raiseSession } from "./raise.js"

/**
 * `POST two-factor` without a pending sign-in: `code` and `method` (`totp`, the default, or
 * `recovery`) for the signed-in user's enabled factor. Each try is counted before it is checked
 * (per client and per user, the limiter a pending sign-in uses). Right: the session is raised and
 * the browser goes to the posted `callbackUrl` (through the redirect callback; the site's origin
 * without one); a JSON caller gets `{ authentication, url }` (that same place) instead.
 *
 * @throws {TwoFactorExpired} without a session (nothing waits for a second factor).
 * @throws {TwoFactorNotEnrolled} when the user has no second factor enabled.
 * @throws {InvalidTwoFactorCode} for a wrong code or an unknown method.
 */
export async function stepUpChallenge(ctx: RequestContext): Promise<ResponseInternal> {
  const user = await currentUser(ctx)
  if (!user) throw new TwoFactorExpired("There is no sign-in waiting for a second factor, and no session to step up")
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", user.id)
  if (!stored?.enabledAt) throw new TwoFactorNotEnrolled("The signed-in user has no second factor to check")
  const body = ctx.request.body ?? {}
  const method = body.method === undefined || body.method === "" ? "totp" : body.method
  if (method !== "totp" && method !== "recovery") throw new InvalidTwoFactorCode("Unknown second-factor method for a step-up")
  const code = typeof body.code === "string" ? body.code : ""

  await throttleTwoFactorAttempt(ctx, user.id)
  const right = await checkSecondFactorCode(ctx, user.id, method, code)
  if (typeof ctx.config.events.twoFactorChallenge === "function") await emitEvent(ctx.config, "twoFactorChallenge", { user, method, success: right })
  if (!right) throw new InvalidTwoFactorCode("The second-factor code is wrong")

  // Raised only if the session is still this user's: the code was checked for them.
  const { authentication, cookies } = await raiseSession(ctx, method, user.id)
  const url = postedCallbackUrl(ctx) ?? ctx.origin
  // A script gets the raised standing and where the page meant to go; a browser goes there.
  if (isJsonRequest(ctx.request)) return jsonResponse({ authentication, url }, { noCache: true, cookies })
  return { redirect: url, cookies }
}
