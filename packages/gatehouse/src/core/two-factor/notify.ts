/**
 * Telling a user their second factor changed. `twoFactor.notify` when the application gave one;
 * `false` for nothing; otherwise a short security notice to the user's proven address through the first
 * email provider, when it can send a message of its own (`sendMessage`: the built-in Nodemailer
 * providers). The other providers only know how to send a sign-in email, and a notice dressed as
 * one would teach users to click sign-in emails they did not ask for: those are not used, and a
 * warning says once per configuration that no notice goes out.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { AuthError } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import type { TwoFactorNotice } from "../../types.js"
import { logError } from "../logger.js"
import { securityNoticeMessage } from "./notice-message.js"
import type { RequestContext } from "../request-context.js"

/** The warning logged (once per configuration) when no notice can be sent by email. */
export const NOTICE_UNSENDABLE = "two-factor-notice-unsendable"

/** Configurations already warned about (no module flag: keyed by the resolved config). */
const warned = new WeakSet<object>()

/** Tells `user` of `change`; never throws (a notice that fails to go out must not undo the change). */
export async function notifyFactorChange(ctx: RequestContext, user: AdapterUser, change: TwoFactorNotice["change"]): Promise<void> {
  const notify = ctx.config.twoFactor?.notify
  if (notify === false) return
  try {
    if (typeof notify === "function") await notify({ user, change })
    else await emailNotice(ctx, user, change)
  } catch (error) {
    // Logged as the fault it is; the change it reports stands.
    logError(ctx.logger, new AuthError(`The two-factor notice (${change}) could not be sent`, { cause: error }))
  }
}

/** The default notice: through the first email provider's `sendMessage`, to the user's proven address. */
async function emailNotice(ctx: RequestContext, user: AdapterUser, change: TwoFactorNotice["change"]): Promise<void> {
  const provider = ctx.config.providers.find((candidate): candidate is EmailConfig => candidate.type === "email")
  if (!provider) return
  if (typeof provider.sendMessage !== "function") {
    if (!warned.has(ctx.config)) {
      warned.add(ctx.config)
      ctx.logger.warn(
        NOTICE_UNSENDABLE,
        `Email provider "${provider.id}" cannot send a message other than a sign-in email (no sendMessage), so users are not emailed when their two-step verification changes. Set \`twoFactor.notify\` to send the notice yourself, or \`false\` to silence this.`,
      )
    }
    return
  }
  // Only to an address the user proved: a typed one (a passkey sign-up's) may be someone else's,
  // who would learn of this account and be told to act on it.
  if (typeof user.email !== "string" || user.email === "" || !user.emailVerified) return
  const message = securityNoticeMessage({ change, host: new URL(ctx.origin).host })
  await provider.sendMessage({ to: user.email, ...message, provider })
}
