/**
 * The invitation email: who invited whom to which organization as what, and the link, through
 * the transport of the first email provider that can send a message of its own (`sendMessage`:
 * the built-in Nodemailer providers), as the two-factor security notices go out. Without one, the
 * invitation is made all the same and the app sends the link it is given.
 * @module
 */
import type { AdapterOrganization, AdapterUser } from "../../adapters/index.js"
import { AuthError } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import { logError } from "../logger.js"
import { escapeHtml } from "../pages/escape-html.js"
import type { RequestContext } from "../request-context.js"

/** What the invitation email says. */
export interface InvitationEmailParams {
  /** The invited address. */
  to: string
  /** The invitation link. */
  url: string
  organization: Pick<AdapterOrganization, "name">
  /** Who invited (named by name and address when known). */
  inviter: Pick<AdapterUser, "name" | "email">
  role: string
  /** When the link stops working. */
  expires: Date
}

/** The provider whose transport invitations go out through, if any. */
function sendingProvider(ctx: RequestContext): (EmailConfig & { sendMessage: NonNullable<EmailConfig["sendMessage"]> }) | undefined {
  return ctx.config.providers.find(
    (candidate): candidate is EmailConfig & { sendMessage: NonNullable<EmailConfig["sendMessage"]> } =>
      candidate.type === "email" && typeof (candidate as EmailConfig).sendMessage === "function",
  )
}

/**
 * Emails the invitation; whether it went out. Never throws: the invitation stands, and the app
 * still has its link (a failure is logged as the fault it is).
 */
export async function sendInvitationEmail(ctx: RequestContext, params: InvitationEmailParams): Promise<boolean> {
  const provider = sendingProvider(ctx)
  if (!provider) return false
  try {
    await provider.sendMessage({ to: params.to, ...invitationMessage({ ...params, host: new URL(ctx.origin).host }), provider })
    return true
  } catch (error) {
    logError(ctx.logger, new AuthError("The invitation email could not be sent", { cause: error }))
    return false
  }
}

/**
 * The subject and both bodies of an invitation. What members chose (the organization's and the
 * inviter's names, the role) is escaped in the HTML and kept to one line everywhere, so it cannot
 * break the subject header or add lines of its own to the text.
 */
export function invitationMessage(params: Omit<InvitationEmailParams, "to"> & { host: string }): { subject: string; text: string; html: string } {
  const { url, inviter, expires, host } = params
  const name = oneLine(params.organization.name)
  const role = oneLine(params.role)
  const inviterName = inviter.name ? oneLine(inviter.name) : null
  const who = inviterName && inviter.email ? `${inviterName} (${inviter.email})` : (inviterName ?? inviter.email ?? "A member")
  const sentence = `${who} invited you to join ${name} on ${host} as ${role}.`
  const validity = `The link works until ${expires.toUTCString()}, once. If you did not expect this invitation, ignore this email.`
  const text = `${sentence}\n\nAccept or decline it here:\n${url}\n\n${validity}\n`
  const html = `
<body style="background: #f9f9f9;">
  <div style="background: #fff; max-width: 600px; margin: auto; border-radius: 10px; padding: 20px; font-family: Helvetica, Arial, sans-serif; color: #444;">
    <p style="font-size: 18px;">${escapeHtml(sentence)}</p>
    <p><a href="${escapeHtml(url)}" style="display: inline-block; padding: 10px 20px; border-radius: 5px; background: #346df1; color: #fff; text-decoration: none; font-weight: bold;">View the invitation</a></p>
    <p style="font-size: 14px;">${escapeHtml(validity)}</p>
  </div>
</body>
`
  return { subject: `Invitation to join ${name} on ${host}`, text, html }
}

/** `value` on one line: control characters (line breaks) as spaces, at most 100 characters. */
function oneLine(value: string): string {
  return value.replace(/\p{Cc}+/gu, " ").slice(0, 100)
}
