/**
 * Sign-in links by email, sent through [Forward Email](https://forwardemail.net)'s HTTP API.
 * Runs wherever `fetch` does. Needs an adapter (for the verification tokens), as every email
 * provider does.
 *
 * @example
 * ```ts
 * import ForwardEmail from "gatehouse-auth/providers/forwardemail"
 *
 * const provider = ForwardEmail({ from: "auth@acme.test" }) // API key from AUTH_FORWARDEMAIL_KEY
 * ```
 * @module gatehouse-auth/providers/forwardemail
 */
import { emailProvider, providerFetch, requireApiSettings, serviceError, verificationEmail, type HttpEmailOptions } from "./email-message.js"
import type { EmailConfig, VerificationRequestParams } from "./types.js"

/**
 * Options of {@link ForwardEmail}; `from` is required (an address on a domain of your Forward
 * Email account), the API key comes from `AUTH_FORWARDEMAIL_KEY` when not given.
 */
export type ForwardEmailOptions = HttpEmailOptions

/** `POST https://api.forwardemail.net/v1/emails`, Basic `<key>:` (empty password), JSON `{ from, to, subject, html, text }`. */
async function sendVerificationRequest(params: VerificationRequestParams): Promise<void> {
  const { identifier, provider } = params
  const { apiKey, from } = requireApiSettings(provider, "Forward Email")
  const { subject, text, html } = verificationEmail(params)
  const credentials = btoa(`${apiKey}:`)
  const response = await providerFetch(provider)("https://api.forwardemail.net/v1/emails", {
    method: "POST",
    headers: { authorization: `Basic ${credentials}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ from, to: identifier, subject, html, text }),
  })
  if (!response.ok) throw await serviceError("Forward Email", response, [apiKey, credentials])
}

/**
 * An email provider sending through Forward Email (`POST https://api.forwardemail.net/v1/emails`):
 * id `forwardemail`, name `Forward Email`, links valid for a day. Missing `from` or API key
 * fails the sending with `InvalidConfig`; a refusal by Forward Email throws an error with the
 * HTTP status and Forward Email's answer.
 *
 * @param options - `from` (required), `apiKey` (default `AUTH_FORWARDEMAIL_KEY`), `fetch`, and
 *   any email provider option.
 * @example
 * ```ts
 * ForwardEmail({ from: "Acme <auth@acme.test>" })
 * ForwardEmail({ from: "auth@acme.test", apiKey: env.FORWARD_EMAIL_API_KEY, maxAge: 15 * 60 })
 * ```
 */
export function ForwardEmail(options: ForwardEmailOptions = {}): EmailConfig {
  return emailProvider({ id: "forwardemail", name: "Forward Email", sendVerificationRequest }, options)
}

export default ForwardEmail
