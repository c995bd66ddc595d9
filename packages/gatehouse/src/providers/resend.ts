/**
 * Sign-in links by email, sent through [Resend](https://resend.com)'s HTTP API. Runs wherever
 * `fetch` does. Needs an adapter (for the verification tokens), as every email provider does.
 *
 * @example
 * ```ts
 * import Resend from "gatehouse-auth/providers/resend"
 *
 * const provider = Resend({ from: "Acme <auth@acme.test>" }) // API key from AUTH_RESEND_KEY
 * ```
 * @module gatehouse-auth/providers/resend
 */
import { emailProvider, providerFetch, requireApiSettings, serviceError, verificationEmail, type HttpEmailOptions } from "./email-message.js"
import type { EmailConfig, VerificationRequestParams } from "./types.js"

/** Options of {@link Resend}; `from` is required, the API key comes from `AUTH_RESEND_KEY` when not given. */
export type ResendOptions = HttpEmailOptions

/** `POST https://api.resend.com/emails`, bearer API key, JSON `{ from, to, subject, html, text }`. */
async function sendVerificationRequest(params: VerificationRequestParams): Promise<void> {
  const { identifier, provider } = params
  const { apiKey, from } = requireApiSettings(provider, "Resend")
  const { subject, text, html } = verificationEmail(params)
  const response = await providerFetch(provider)("https://api.resend.com/emails", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ from, to: identifier, subject, html, text }),
  })
  if (!response.ok) throw await serviceError("Resend", response, [apiKey])
}

/**
 * An email provider sending through Resend (`POST https://api.resend.com/emails`): id `resend`,
 * name `Resend`, links valid for a day. Missing `from` or API key fails the sending with
 * `InvalidConfig`; a refusal by Resend throws an error with the HTTP status and Resend's answer.
 *
 * @param options - `from` (required), `apiKey` (default `AUTH_RESEND_KEY`), `fetch`, and any
 *   email provider option.
 * @example
 * ```ts
 * Resend({ from: "Acme <auth@acme.test>" })
 * Resend({ from: "auth@acme.test", apiKey: env.RESEND_API_KEY, maxAge: 15 * 60 })
 * ```
 */
export function Resend(options: ResendOptions = {}): EmailConfig {
  return emailProvider({ id: "resend", name: "Resend", sendVerificationRequest }, options)
}

export default Resend
