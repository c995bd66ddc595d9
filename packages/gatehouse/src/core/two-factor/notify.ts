/**
 * Telling a user their second factor changed: `twoFactor.notify` when the application gave one;
 * otherwise (issue 37, email part) a notice through the first email provider.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import type { TwoFactorNotice } from "../../types.js"
import type { RequestContext } from "../request-context.js"

/** Tells `user` of `change`; never throws (a notice that fails to go out must not undo the change). */
export async function notifyFactorChange(ctx: RequestContext, user: AdapterUser, change: TwoFactorNotice["change"]): Promise<void> {
  const notify = ctx.config.twoFactor?.notify
  if (typeof notify !== "function") return
  try {
    await notify({ user, change })
  } catch {
    // Filled in by the email part: logged as a fault there.
  }
}
