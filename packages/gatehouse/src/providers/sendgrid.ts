/**
 * Sign-in links by email, sent through [SendGrid](https://sendgrid.com)'s v3 Mail Send API.
 * Runs wherever `fetch` does. Needs an adapter (for the verification tokens), as every email
 * provider does.
 *
 * @example
 * ```ts
 * import SendGrid from "gatehouse-auth/providers/sendgrid"
 *
 * const provider = SendGrid({ from: "auth@acme.test" }) // API key from AUTH_SENDGRID_KEY
 * ```
 * @module gatehouse-auth/providers/sendgrid
 */
import { emailProvider, providerFetch, requireApiSettings, serviceError, verificationEmail, type HttpEmailOptions } from "./email-message.js"
import type { EmailConfig, VerificationRequestParams } from "./types.js"

/** Options of {@link SendGrid}; `from` is required, the API key comes from `AUTH_SENDGRID_KEY` when not given. */
export type SendGridOptions = HttpEmailOptions

/** `{ email, name? }` from `auth@acme.test` or `Acme <auth@acme.test>`, as SendGrid wants the sender. */
function sender(from: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from)
  if (!match) return { email: from.trim() }
  const name = match[1]!.replace(/^"(.*)"$/, "$1")
  return name ? { email: match[2]!.trim(), name } : { email: match[2]!.trim() }
}

/** `POST https://api.sendgrid.com/v3/mail/send`, bearer API key, JSON personalizations/from/subject/content. */
async function sendVerificationRequest(params: VerificationRequestParams): Promise<void> {
  const { identifier, provider } = params
  const { apiKey, from } = requireApiSettings(provider, "SendGrid")
  const { subject, text, html } = verificationEmail(params)
  const response = await providerFetch(provider)("https://api.sendgrid.com/v3/mail/send", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: identifier }] }],
      from: sender(from),
      subject,
      // SendGrid requires text/plain before text/html.
      content: [
        { type: "text/plain", value: text },
        { type: "text/html", value: html },
      ],
    }),
  })
  if (!response.ok) throw await serviceError("SendGrid", response, [apiKey])
}

/**
 * An email provider sending through SendGrid (`POST https://api.sendgrid.com/v3/mail/send`): id
 * `sendgrid`, name `SendGrid`, links valid for a day. `from` may carry a display name
 * (`Acme <auth@acme.test>`); it is sent as SendGrid's `{ email, name }`. Missing `from` or API
 * key fails the sending with `InvalidConfig`; a refusal by SendGrid throws an error with the
 * HTTP status and SendGrid's answer.
 *
 * @param options - `from` (required), `apiKey` (default `AUTH_SENDGRID_KEY`), `fetch`, and any
 *   email provider option.
 * @example
 * ```ts
 * SendGrid({ from: "Acme <auth@acme.test>" })
 * ```
 */
export function SendGrid(options: SendGridOptions = {}): EmailConfig {
  return emailProvider({ id: "sendgrid", name: "SendGrid", sendVerificationRequest }, options)
}

export default SendGrid
