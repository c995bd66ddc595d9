/**
 * Sign-in links by email, sent through [Mailgun](https://www.mailgun.com)'s Messages API. Runs
 * wherever `fetch` does. Needs an adapter (for the verification tokens), as every email provider
 * does.
 *
 * @example
 * ```ts
 * import Mailgun from "gatehouse-auth/providers/mailgun"
 *
 * const provider = Mailgun({ from: "auth@mg.acme.test", region: "eu" }) // API key from AUTH_MAILGUN_KEY
 * ```
 * @module gatehouse-auth/providers/mailgun
 */
import { InvalidConfig } from "../errors.js"
import { emailProvider, providerFetch, requireApiSettings, serviceError, verificationEmail, type HttpEmailOptions } from "./email-message.js"
import type { EmailConfig, VerificationRequestParams } from "./types.js"

/** Options of {@link Mailgun}; `from` is required, the API key comes from `AUTH_MAILGUN_KEY` when not given. */
export interface MailgunOptions extends HttpEmailOptions {
  /**
   * The Mailgun sending domain, e.g. `mg.acme.test`. Default: the domain of the `from` address
   * (as in Auth.js).
   */
  domain?: string
  /** Where the domain lives: `us` (`api.mailgun.net`, the default) or `eu` (`api.eu.mailgun.net`). Case does not matter. */
  region?: "us" | "eu" | "US" | "EU"
}

const API_HOSTS: Record<string, string> = { us: "api.mailgun.net", eu: "api.eu.mailgun.net" }

/** The domain of `auth@acme.test` or `Acme <auth@acme.test>`; `undefined` when there is none. */
function domainOf(from: string): string | undefined {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from
  const domain = address.trim().split("@")[1]
  return domain ? domain : undefined
}

/** `POST https://<api host>/v3/<domain>/messages`, Basic `api:<key>`, form-urlencoded from/to/subject/text/html. */
async function sendVerificationRequest(params: VerificationRequestParams): Promise<void> {
  const { identifier, provider } = params
  const { apiKey, from } = requireApiSettings(provider, "Mailgun")
  const region = typeof provider.region === "string" ? provider.region.toLowerCase() : "us"
  const host = API_HOSTS[region]
  if (!host) throw new InvalidConfig(`Email provider "${provider.id}" (Mailgun): \`region\` must be "us" or "eu"`)
  const domain = typeof provider.domain === "string" && provider.domain !== "" ? provider.domain : domainOf(from)
  if (!domain || !/^[A-Za-z0-9.-]+$/.test(domain)) {
    throw new InvalidConfig(`Email provider "${provider.id}" (Mailgun) needs a sending \`domain\` (or a \`from\` address on it)`)
  }
  const { subject, text, html } = verificationEmail(params)
  const credentials = btoa(`api:${apiKey}`)
  const response = await providerFetch(provider)(`https://${host}/v3/${domain}/messages`, {
    method: "POST",
    headers: { authorization: `Basic ${credentials}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ from, to: identifier, subject, text, html }).toString(),
  })
  if (!response.ok) throw await serviceError("Mailgun", response, [apiKey, credentials])
}

/**
 * An email provider sending through Mailgun (`POST https://api.mailgun.net/v3/<domain>/messages`,
 * or `api.eu.mailgun.net` with `region: "eu"`): id `mailgun`, name `Mailgun`, links valid for a
 * day. Missing `from`, API key or domain, or an unknown region, fails the sending with
 * `InvalidConfig`; a refusal by Mailgun throws an error with the HTTP status and Mailgun's answer.
 *
 * @param options - `from` (required), `domain` (default: the `from` address's domain), `region`,
 *   `apiKey` (default `AUTH_MAILGUN_KEY`), `fetch`, and any email provider option.
 * @example
 * ```ts
 * Mailgun({ from: "Acme <auth@acme.test>", domain: "mg.acme.test", region: "eu" })
 * ```
 */
export function Mailgun(options: MailgunOptions = {}): EmailConfig {
  return emailProvider({ id: "mailgun", name: "Mailgun", sendVerificationRequest }, options)
}

/**
 * {@link Mailgun} under Auth.js's name for it, so code written for Auth.js imports it unchanged.
 *
 * @example
 * ```ts
 * import { MailGun } from "gatehouse-auth/providers/mailgun"
 * MailGun({ from: "Acme <auth@acme.test>", domain: "mg.acme.test" })
 * ```
 */
export const MailGun = Mailgun

export default Mailgun
