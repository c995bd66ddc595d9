/**
 * The words of the security notice a user gets when their second factor changes (see ./notify.ts),
 * sent through the email provider's transport. Core, not beside the sign-in email in
 * providers/email-message.ts: the core imports no concrete provider module.
 * @module
 */
import type { TwoFactorNotice } from "../../types.js"
import { escapeHtml } from "../pages/escape-html.js"

const NOTICE_SENTENCES: Readonly<Record<TwoFactorNotice["change"], string>> = {
  enabled: "Two-step verification was turned on for your account.",
  disabled: "Two-step verification was turned off for your account.",
  "recovery-codes-regenerated": "The recovery codes of your account were replaced; the old ones no longer work.",
}

/**
 * The security notice sent when a user's second factor changes: one plain sentence saying what
 * changed and what to do if it was not them. No link (a notice that asks to click is what a
 * phishing email looks like).
 *
 * @param params - What changed and the host it happened on.
 * @returns The subject and both bodies.
 * @example
 * ```ts
 * const { subject, text } = securityNoticeMessage({ change: "disabled", host: "app.test" })
 * subject // "Security notice for app.test"
 * ```
 */
export function securityNoticeMessage(params: {
  /** What changed. */
  change: TwoFactorNotice["change"]
  /** The site's host, named in the subject and body. */
  host: string
}): { subject: string; text: string; html: string } {
  const { change, host } = params
  const sentence = NOTICE_SENTENCES[change]
  const advice = `If this wasn't you, someone else may have your password: change it at ${host} at once, check your two-step verification there, or contact the site's support.`
  const text = `${sentence}\n\n${advice}\n`
  const html = `
<body style="background: #f9f9f9;">
  <div style="background: #fff; max-width: 600px; margin: auto; border-radius: 10px; padding: 20px; font-family: Helvetica, Arial, sans-serif; color: #444;">
    <p style="font-size: 18px;">${escapeHtml(sentence)}</p>
    <p style="font-size: 16px;">${escapeHtml(advice)}</p>
  </div>
</body>
`
  return { subject: `Security notice for ${host}`, text, html }
}
