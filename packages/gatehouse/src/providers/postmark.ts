/**
 * Sign-in links by email, sent through [Postmark](https://postmarkapp.com)'s HTTP API. Runs
 * wherever `fetch` does. Needs an adapter (for the verification tokens), as every email provider
 * does.
 *
 * @example
 * ```ts
 * import Postmark from "gatehouse-auth/providers/postmark"
 *
 * const provider = Postmark({ from: "auth@acme.test" }) // server token from AUTH_POSTMARK_KEY
 * ```
 * @module gatehouse-auth/providers/postmark
 */
import { emailProvider, providerFetch, requireApiSettings, serviceError, verificationEmail, type HttpEmailOptions } from "./email-message.js"
import type { EmailConfig, VerificationRequestParams } from "./types.js"

/**
 * Options of {@link Postmark}; `from` is required (a confirmed sender signature), the server
 * token comes from `AUTH_POSTMARK_KEY` when `apiKey` is not given.
 */
export type PostmarkOptions = HttpEmailOptions

/** `POST https://api.postmarkapp.com/email`, `X-Postmark-Server-Token`, JSON From/To/Subject/TextBody/HtmlBody. */
async function sendVerificationRequest(params: VerificationRequestParams): Promise<void> {
  const { identifier, provider } = params
  const { apiKey, from } = requireApiSettings(provider, "Postmark")
  const { subject, text, html } = verificationEmail(params)
  const response = await providerFetch(provider)("https://api.postmarkapp.com/email", {
    method: "POST",
    headers: { "x-postmark-server-token": apiKey, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      From: from,
      To: identifier,
      Subject: subject,
      TextBody: text,
      HtmlBody: html,
      MessageStream: "outbound",
    }),
  })
  if (!response.ok) throw await serviceError("Postmark", response, [apiKey])
}

/**
 * An email provider sending through Postmark (`POST https://api.postmarkapp.com/email`, message
 * stream `outbound`): id `postmark`, name `Postmark`, links valid for a day. `apiKey` is the
 * server API token. Missing `from` or token fails the sending with `InvalidConfig`; a refusal by
 * Postmark throws an error with the HTTP status and Postmark's answer.
 *
 * @param options - `from` (required), `apiKey` (default `AUTH_POSTMARK_KEY`), `fetch`, and any
 *   email provider option.
 * @example
 * ```ts
 * Postmark({ from: "Acme <auth@acme.test>" })
 * ```
 */
export function Postmark(options: PostmarkOptions = {}): EmailConfig {
  return emailProvider({ id: "postmark", name: "Postmark", sendVerificationRequest }, options)
}

export default Postmark
