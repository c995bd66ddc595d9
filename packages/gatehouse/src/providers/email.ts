/**
 * Sign-in links by email over SMTP: the {@link Nodemailer} provider under Auth.js's older name,
 * with id `email` and name `Email`. Kept for configurations moving from Auth.js; new ones can use
 * `gatehouse-auth/providers/nodemailer`. Node only, and needs the `nodemailer` package.
 *
 * @example
 * ```ts
 * import Email from "gatehouse-auth/providers/email"
 *
 * const provider = Email({ server: env.EMAIL_SERVER, from: "Acme <auth@acme.test>" })
 * ```
 * @module gatehouse-auth/providers/email
 */
import { Nodemailer, type NodemailerOptions } from "./nodemailer.js"
import type { EmailConfig } from "./types.js"

/** Options of {@link Email}: those of Nodemailer. */
export type EmailOptions = NodemailerOptions

/**
 * The Nodemailer provider with id `email` and name `Email` (Auth.js's deprecated alias). Its
 * variables are `AUTH_EMAIL_*` and its routes `/signin/email`, `/callback/email`.
 *
 * @deprecated Use `Nodemailer` from `gatehouse-auth/providers/nodemailer`; this alias stays for Auth.js compatibility.
 * @param options - `server` (required), `from`, and any email provider option.
 * @example
 * ```ts
 * Email({ server: "smtp://user:pass@smtp.acme.test:587", from: "auth@acme.test" })
 * ```
 */
export function Email(options: EmailOptions = {}): EmailConfig {
  return { ...Nodemailer(options), id: options.id ?? "email", name: options.name ?? "Email" }
}

export default Email
