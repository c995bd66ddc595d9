/**
 * Raising the request's own session after its user proved a second factor while signed in
 * (step-up, or enrolling one): aal 2, `otp` and `mfa` added to amr, `secondFactorAt` now. Under
 * JWT sessions a rewritten cookie; under database sessions the stored authentication. Not built yet
 * (issue 37, step-up part): raises nothing.
 * @module
 */
import type { Cookie } from "../../cookies/defaults.js"
import type { TwoFactorMethod } from "../../types.js"
import type { RequestContext } from "../request-context.js"

/** Raises the request's session after `method` was checked; the cookies to send (none for database sessions). */
export async function raiseSessionAuthentication(_ctx: RequestContext, _method: TwoFactorMethod): Promise<Cookie[]> {
  return []
}
