/**
 * The sign-in email every built-in email provider sends, the same as Auth.js's: a subject, a
 * plain-text body, and an HTML body with one themed button (or, for a one-time code, the code). Also what the HTTP email providers
 * (Resend, SendGrid, Postmark, Mailgun) share: laying options over defaults, reaching the
 * service through the configured `fetch`, and turning a refusal into an error without secrets.
 *
 * Web-standard only, so it runs wherever the core runs.
 *
 * @example
 * ```ts
 * import { emailMessage } from "gatehouse-auth/providers/email-message"
 *
 * const { subject, text, html } = emailMessage({ url, host: new URL(url).host, theme })
 * ```
 * @module gatehouse-auth/providers/email-message
 */
import { InvalidConfig } from "../errors.js"
import type { Awaitable } from "../resources.js"
import type { Theme } from "../theme.js"
import type { EmailConfig, VerificationRequestParams } from "./types.js"

/** What {@link emailMessage} needs: the sign-in link, the host it is for, and the theme. */
export interface EmailMessageParams {
  /** The sign-in link. */
  url: string
  /** The host named in the subject and body, usually `new URL(url).host`. */
  host: string
  /** `brandColor` colours the button, `buttonText` its label; other fields are not used. */
  theme?: Theme | undefined
  /**
   * A one-time code to type instead of a link to follow (an email provider with `code`, or the
   * email code of two-factor sign-in): the email then shows the code and no button.
   */
  code?: string | undefined
}

/** A sign-in email: its subject and both bodies. */
export interface EmailMessage {
  /** The subject line, naming the host. */
  subject: string
  /** The plain-text body. */
  text: string
  /** The HTML body: one button to the link. */
  html: string
}

// The button colour when the theme gives none, or none that is usable.
const DEFAULT_BRAND_COLOR = "#346df1"
// The button label colour, likewise.
const DEFAULT_BUTTON_TEXT = "#fff"

// The same rule as the built-in pages: hex, a colour keyword, or rgb()/rgba() with plain numbers.
const safeColor = /^#[0-9a-fA-F]{3,8}$|^[a-zA-Z]+$|^rgba?\([\d\s.,%]+\)$/

function colorOr(value: unknown, fallback: string): string {
  return typeof value === "string" && safeColor.test(value) ? value : fallback
}

const replacements: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => replacements[char] ?? char)
}

/**
 * The sign-in email for `url`: subject `Sign in to <host>`, text `Sign in to <host>\n<url>\n\n`,
 * and an HTML body with a "Sign in" button in the theme's `brandColor` (default `#346df1`) and
 * `buttonText` (default `#fff`). A colour that is not a plain CSS colour (hex, keyword,
 * `rgb()`/`rgba()`) is replaced by the default. Every value is HTML-escaped, and the dots of the
 * host are written `&#8203;.` so mail clients do not turn it into a link of its own.
 *
 * @param params - The link, its host and the theme.
 * @returns The subject and both bodies.
 * @example
 * ```ts
 * const message = emailMessage({ url: "https://app.test/auth/callback/resend?token=…", host: "app.test" })
 * message.subject // "Sign in to app.test"
 * ```
 */
export function emailMessage(params: EmailMessageParams): EmailMessage {
  const { url, host, theme } = params
  if (params.code !== undefined) return codeMessage(params.code, host)
  const brandColor = escapeHtml(colorOr(theme?.brandColor, DEFAULT_BRAND_COLOR))
  const buttonText = escapeHtml(colorOr(theme?.buttonText, DEFAULT_BUTTON_TEXT))
  // Escape first: the zero-width spaces are markup and must survive as such.
  const escapedHost = escapeHtml(host).replace(/\./g, "&#8203;.")
  const href = escapeHtml(url)
  const background = "#f9f9f9"
  const textColor = "#444"
  const mainBackground = "#fff"
  const html = `
<body style="background: ${background};">
  <table width="100%" border="0" cellspacing="20" cellpadding="0"
    style="background: ${mainBackground}; max-width: 600px; margin: auto; border-radius: 10px;">
    <tr>
      <td align="center"
        style="padding: 10px 0px; font-size: 22px; font-family: Helvetica, Arial, sans-serif; color: ${textColor};">
        Sign in to <strong>${escapedHost}</strong>
      </td>
    </tr>
    <tr>
      <td align="center" style="padding: 20px 0;">
        <table border="0" cellspacing="0" cellpadding="0">
          <tr>
            <td align="center" style="border-radius: 5px;" bgcolor="${brandColor}"><a href="${href}"
                target="_blank"
                style="font-size: 18px; font-family: Helvetica, Arial, sans-serif; color: ${buttonText}; text-decoration: none; border-radius: 5px; padding: 10px 20px; border: 1px solid ${brandColor}; display: inline-block; font-weight: bold;">Sign
                in</a></td>
          </tr>
        </table>
      </td>
    </tr>
    <tr>
      <td align="center"
        style="padding: 0px 0px 10px 0px; font-size: 16px; line-height: 22px; font-family: Helvetica, Arial, sans-serif; color: ${textColor};">
        If you did not request this email you can safely ignore it.
      </td>
    </tr>
  </table>
</body>
`
  return { subject: `Sign in to ${host}`, text: `Sign in to ${host}\n${url}\n\n`, html }
}

/**
 * The sign-in email for what the core hands `sendVerificationRequest`: {@link emailMessage}
 * with the host taken from the link.
 *
 * @param params - What `sendVerificationRequest` was given.
 * @example
 * ```ts
 * Resend({ from: "Acme <auth@acme.test>", async sendVerificationRequest(params) {
 *   const { subject, text, html } = verificationEmail(params)
 *   await mySend(params.identifier, subject, text, html)
 * } })
 * ```
 */
export function verificationEmail(params: Pick<VerificationRequestParams, "url" | "theme" | "code">): EmailMessage {
  return emailMessage({ url: params.url, host: new URL(params.url).host, theme: params.theme, code: params.code })
}

/** The email carrying a one-time code: the code alone on its line, no link (nothing to click for a scanner). */
function codeMessage(code: string, host: string): EmailMessage {
  const escapedHost = escapeHtml(host).replace(/\./g, "&#8203;.")
  const text = `Your sign-in code for ${host}:\n\n${code}\n\nType it in the browser where you asked for it. If you did not ask for it, you can ignore this email.\n`
  const html = `
<body style="background: #f9f9f9;">
  <div style="background: #fff; max-width: 600px; margin: auto; border-radius: 10px; padding: 20px; font-family: Helvetica, Arial, sans-serif; color: #444; text-align: center;">
    <p style="font-size: 22px;">Your sign-in code for <strong>${escapedHost}</strong></p>
    <p style="font-size: 32px; letter-spacing: 6px; font-family: monospace;"><strong>${escapeHtml(code)}</strong></p>
    <p style="font-size: 16px;">Type it in the browser where you asked for it. If you did not ask for it, you can ignore this email.</p>
  </div>
</body>
`
  return { subject: `Your sign-in code for ${host}`, text, html }
}

/** What a built-in email provider factory itself supplies. */
export type EmailDefaults = Pick<EmailConfig, "id" | "name" | "sendVerificationRequest"> & Partial<EmailConfig>

/**
 * An email provider: `defaults` with every option that is not `undefined` laid over them (the
 * environment passes unset variables as `undefined`; they must not erase a default). `type` is
 * always `email`. Returns a new object; the options are not changed.
 *
 * @param defaults - The factory's id, name, `sendVerificationRequest` and other defaults.
 * @param options - The user's options.
 * @example
 * ```ts
 * const provider = emailProvider({ id: "acme-mail", name: "Acme Mail", sendVerificationRequest: send }, { from: "auth@acme.test" })
 * ```
 */
export function emailProvider(defaults: EmailDefaults, options: object = {}): EmailConfig {
  // A sign-in code lives 10 minutes at most; a link a day.
  const withCode = "code" in options && (options as { code?: unknown }).code !== undefined
  const result: Record<string, unknown> = { maxAge: withCode ? 10 * 60 : 24 * 60 * 60, ...defaults }
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && key !== "__proto__") result[key] = value
  }
  result.type = "email"
  return result as EmailConfig
}

/** The options every built-in email provider takes. */
export interface EmailProviderOptions {
  /** Default: the provider's own id. Appears in URLs and in `AUTH_<ID>_*` variables. */
  id?: string
  /** Shown on the sign-in page's button. */
  name?: string
  /** The sender, `auth@example.com` or `Example <auth@example.com>`. */
  from?: string
  /** Seconds a sign-in link stays valid. Default 1 day (10 minutes, and at most that, with `code`). */
  maxAge?: number
  /** Sign in with a code typed on the verify-request page instead of a link. See {@link EmailConfig}. */
  code?: EmailConfig["code"]
  /** Replaces the built-in sending; gets the link, the address and the provider. */
  sendVerificationRequest?: (params: VerificationRequestParams) => Awaitable<void>
  /** Returns the token put in the link. Default: 32 random bytes as hex. */
  generateVerificationToken?: () => Awaitable<string>
  /** Turns what the user typed into the address to send to; throw to refuse it. */
  normalizeIdentifier?: (identifier: string) => string
  /** Shows a confirmation page before signing in, against mail scanners. See {@link EmailConfig}. */
  confirmSignIn?: boolean
  /** Throttling of sign-in emails; `false` turns it off. See {@link EmailConfig}. */
  rateLimit?: EmailConfig["rateLimit"]
  /** Signs the stored token; default the configuration's `secret`. */
  secret?: string
}

/** The options every HTTP email provider takes: those of any email provider, an API key and a `fetch`. */
export interface HttpEmailOptions extends EmailProviderOptions {
  /** The service's API key. Default: `AUTH_<ID>_KEY` from the environment (e.g. `AUTH_RESEND_KEY`). */
  apiKey?: string
  /** The sender; the service must accept it (a verified domain or sender). Required. */
  from?: string
  /** Used instead of the global `fetch` for the call to the service (proxies, tests). */
  fetch?: typeof fetch
}

/**
 * The `fetch` a provider sends with: its own `fetch` option, else the global one. Returned as a
 * plain function, so it is never called as a method of the provider object (which some runtimes
 * refuse for the global `fetch`).
 *
 * @param provider - The email provider.
 * @example
 * ```ts
 * const send = providerFetch(params.provider)
 * await send("https://api.example.com/send", { method: "POST", body })
 * ```
 */
export function providerFetch(provider: EmailConfig): typeof fetch {
  const custom = provider.fetch
  if (typeof custom === "function") return (input, init) => (custom as typeof fetch)(input, init)
  return (input, init) => fetch(input, init)
}

/** How much of a service's error answer goes into the error message. */
const MAX_ERROR_TEXT = 500

/**
 * The error for a service's non-2xx answer: `<service> answered HTTP <status>: <body>`, the body
 * cut to 500 characters and every `secrets` string in it replaced by `[redacted]`, so the message
 * is safe to log.
 *
 * @param service - The service's name, e.g. `Resend`.
 * @param response - The service's answer; its body is read.
 * @param secrets - Values that must not appear in the message (the API key, credentials derived from it).
 * @example
 * ```ts
 * if (!response.ok) throw await serviceError("Resend", response, [apiKey])
 * ```
 */
export async function serviceError(service: string, response: Response, secrets: string[]): Promise<Error> {
  let body = await response.text().catch(() => "")
  for (const secret of secrets) if (secret) body = body.split(secret).join("[redacted]")
  body = body.replace(/\s+/g, " ").trim()
  if (body.length > MAX_ERROR_TEXT) body = `${body.slice(0, MAX_ERROR_TEXT)}…`
  return new Error(`${service} answered HTTP ${response.status}${body ? `: ${body}` : ""}`)
}

/**
 * The API key and sender of an HTTP email provider, read when sending (the key may come from the
 * environment after the factory ran).
 *
 * @param provider - The email provider.
 * @param service - The service's name, for the message.
 * @throws {InvalidConfig} when the API key or `from` is missing.
 * @example
 * ```ts
 * const { apiKey, from } = requireApiSettings(params.provider, "Resend")
 * ```
 */
export function requireApiSettings(
  provider: EmailConfig,
  service: string,
): {
  /** The service's API key. */
  apiKey: string
  /** The sender address. */
  from: string
} {
  const { apiKey, from } = provider
  if (typeof apiKey !== "string" || apiKey === "") {
    const variable = `AUTH_${provider.id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_KEY`
    throw new InvalidConfig(`Email provider "${provider.id}" (${service}) needs an API key: set \`apiKey\` or ${variable}`)
  }
  if (typeof from !== "string" || from.trim() === "") {
    throw new InvalidConfig(`Email provider "${provider.id}" (${service}) needs a \`from\` address`)
  }
  return { apiKey, from }
}
