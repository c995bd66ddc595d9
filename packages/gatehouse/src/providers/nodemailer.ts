/**
 * Sign-in links by email over SMTP, sent with [Nodemailer](https://nodemailer.com). Node only:
 * install `nodemailer` (an optional peer dependency); it is loaded on the first email. Needs an
 * adapter (for the verification tokens), as every email provider does.
 *
 * @example
 * ```ts
 * import Nodemailer from "gatehouse-auth/providers/nodemailer"
 *
 * const provider = Nodemailer({ server: env.EMAIL_SERVER, from: "Acme <auth@acme.test>" })
 * ```
 * @module gatehouse-auth/providers/nodemailer
 */
import { InvalidConfig } from "../errors.js"
import { emailProvider, verificationEmail, type EmailProviderOptions } from "./email-message.js"
import type { EmailConfig, EmailMessageToSend, VerificationRequestParams } from "./types.js"

/**
 * Nodemailer transport options, handed to `nodemailer.createTransport` as they are. The common
 * SMTP ones are listed; see Nodemailer's documentation for the rest (pooling, DKIM, proxies,
 * other transports).
 */
export interface NodemailerTransportOptions {
  /** The SMTP server's host name. */
  host?: string
  /** Its port: 587 or 25 for STARTTLS, 465 with `secure`. */
  port?: number
  /** `true` for implicit TLS (port 465); otherwise STARTTLS is used when the server offers it. */
  secure?: boolean
  /** Never use STARTTLS, even when the server offers it. */
  ignoreTLS?: boolean
  /** Refuse to send unless STARTTLS succeeds. */
  requireTLS?: boolean
  /** The SMTP login. */
  auth?: {
    /** The user name. */
    user?: string
    /** The password. */
    pass?: string
    [option: string]: unknown
  }
  [option: string]: unknown
}

/**
 * Where Nodemailer sends: a connection URL (`smtps://user:pass@smtp.example.com`,
 * `smtp://localhost:2525`), or transport options.
 */
export type NodemailerServer = string | NodemailerTransportOptions

/** Options of {@link Nodemailer}; `server` is required. */
export interface NodemailerOptions extends EmailProviderOptions {
  /** The SMTP server (or other Nodemailer transport). Required: sending without it fails. */
  server?: NodemailerServer
  /** The sender. Default `Auth.js <no-reply@authjs.dev>`, as in Auth.js; set your own. */
  from?: string
}

/** The part of Nodemailer used here. */
interface NodemailerTransport {
  sendMail(message: { to: string; from: string | undefined; subject: string; text: string; html: string }): Promise<{
    rejected?: unknown[]
    pending?: unknown[]
  }>
}

interface NodemailerModule {
  createTransport(server: NodemailerServer): NodemailerTransport
}

/** One transport per provider object, remade when its `server` changes. */
const transports = new WeakMap<object, { server: unknown; transport: NodemailerTransport }>()

async function transportFor(provider: EmailConfig, server: NodemailerServer): Promise<NodemailerTransport> {
  const cached = transports.get(provider)
  if (cached && cached.server === server) return cached.transport
  const loaded = (await import("nodemailer")) as unknown as Partial<NodemailerModule> & { default?: Partial<NodemailerModule> }
  // The CommonJS module object first: that is what `import nodemailer from "nodemailer"` gives callers too.
  const createTransport = loaded.default?.createTransport ?? loaded.createTransport
  if (typeof createTransport !== "function") throw new InvalidConfig("The installed `nodemailer` package has no createTransport")
  const transport = createTransport(server)
  transports.set(provider, { server, transport })
  return transport
}

function recipient(entry: unknown): string {
  if (entry !== null && typeof entry === "object" && "address" in entry) return String(entry.address)
  return String(entry)
}

/** Sends the sign-in email with `transport.sendMail`; recipients the server rejected or left pending fail it. */
async function sendVerificationRequest(params: VerificationRequestParams): Promise<void> {
  const { subject, text, html } = verificationEmail(params)
  await sendMessage({ to: params.identifier, subject, text, html, provider: params.provider })
}

/** Sends any message (two-factor security notices) with the provider's transport, failing as the sign-in email does. */
async function sendMessage(message: EmailMessageToSend): Promise<void> {
  const { to, subject, text, html, provider } = message
  const server = provider.server as NodemailerServer | undefined
  if (!server || (typeof server !== "string" && typeof server !== "object")) {
    throw new InvalidConfig("Nodemailer requires a `server` configuration")
  }
  const transport = await transportFor(provider, server)
  const result = await transport.sendMail({ to, from: provider.from, subject, text, html })
  const failed = [...(result.rejected ?? []), ...(result.pending ?? [])].filter(Boolean).map(recipient)
  if (failed.length > 0) throw new Error(`Email (${failed.join(", ")}) could not be sent`)
}

/**
 * An email provider sending over SMTP with Nodemailer: id `nodemailer`, name `Nodemailer`, from
 * `Auth.js <no-reply@authjs.dev>` unless set, links valid for a day. The transport is made on
 * the first email and kept for the provider. Sending fails with `InvalidConfig` ("Nodemailer
 * requires a `server` configuration") when `server` is missing, and with an error naming the
 * recipients the server rejected.
 *
 * @param options - `server` (required), `from`, and any email provider option.
 * @example
 * ```ts
 * Nodemailer({ server: "smtps://user:pass@smtp.acme.test", from: "Acme <auth@acme.test>" })
 * Nodemailer({ server: { host: "smtp.acme.test", port: 587, auth: { user, pass } }, from: "auth@acme.test" })
 * ```
 */
export function Nodemailer(options: NodemailerOptions = {}): EmailConfig {
  return emailProvider(
    { id: "nodemailer", name: "Nodemailer", from: "Auth.js <no-reply@authjs.dev>", sendVerificationRequest, sendMessage },
    options,
  )
}

export default Nodemailer
