/**
 * The built-in second-factor page (`GET {basePath}/two-factor`): a sign-in waiting for its second
 * factor, or a signed-in user confirming it is them (step-up). One form per way to answer, each a
 * named group, all posting to `two-factor`; no script, so it works with the keyboard, a screen
 * reader, and scripts off alike.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { csrfInput, hiddenInput } from "./form-fields.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import { routeUrl, type PageContext } from "./page-context.js"

/** The email code a user may ask for, at an address shown masked. */
export interface TwoFactorEmailOffer {
  /** The address the code goes to (shown masked: `a***@example.com`). */
  address: string
  /** Whether a code was sent already: the page then asks for it. */
  sent: boolean
  /** Digits of the code (6 to 8). */
  digits: number
}

/** What the page offers, and to whom. */
export interface TwoFactorPageOptions {
  /** `signIn`: a pending sign-in. `stepUp`: a signed-in user confirming it is them. */
  variant: "signIn" | "stepUp"
  /** The user has an authenticator app enabled. */
  totp: boolean
  /** The user has recovery codes left. */
  recovery: boolean
  /** The email code, when offered. */
  email?: TwoFactorEmailOffer
  /** Offer "don't ask again on this browser" (`twoFactor.trustDevice`), for this many seconds. */
  trustDeviceMaxAge?: number
  /** The `error` query parameter: only mapped to fixed texts, never shown as given. */
  error?: string
}

/** The texts for the error codes a form of this page can come back with; anything else gets the default. */
const errorTexts: ReadonlyMap<string, string> = new Map([
  ["InvalidTwoFactorCode", "That code did not work. Check it and try again."],
  ["TwoFactorFailed", "Too many wrong codes. Sign in again to try once more."],
  ["TwoFactorExpired", "This sign-in took too long. Sign in again."],
  ["RecentAuthRequired", "For your security, confirm it is you before you continue."],
  ["TwoFactorNotEnrolled", "Two-step verification is not set up for this account."],
  ["RateLimited", "Too many attempts. Try again in a few minutes."],
  ["MissingCSRF", "The form had expired. Try again."],
  ["EmailSignin", "The email could not be sent. Try again in a moment."],
  ["EmailSignInError", "The email could not be sent. Try again in a moment."],
  ["EmailRateLimited", "A code was sent a moment ago. Check your inbox, or try again in a few minutes."],
])

/** The message shown for an error code of this page; a plain one for codes it does not know. */
export function twoFactorErrorText(code: string): string {
  return errorTexts.get(code) ?? "That did not work. Try again."
}

const ERROR_ID = "two-factor-error"

/**
 * The page (`200`, title "Two-step verification" or "Confirm it's you"): the error banner
 * (`role="alert"`, referenced by every code field's `aria-describedby`), then a form for the
 * authenticator app code, one for a recovery code, and the email code (ask for one, or type the one
 * sent), as the user has them. Sent with `Cache-Control: no-store`, no script allowed, and not to
 * be framed (a framing page could trick the "trust this browser" box).
 */
export function renderTwoFactorPage(ctx: PageContext, options: TwoFactorPageOptions): ResponseInternal<string> {
  const stepUp = options.variant === "stepUp"
  const title = stepUp ? "Confirm it's you" : "Two-step verification"
  const describedBy = options.error ? ERROR_ID : undefined
  const invalid = options.error === "InvalidTwoFactorCode"
  const field: FieldContext = { describedBy, invalid, focusTaken: false }
  // Typing the code just sent is what the person came back for: it takes the focus first.
  const emailSent = options.email?.sent === true
  const forms: string[] = []
  const emailForms = options.email && !stepUp ? emailSection(ctx, options.email, field, options.trustDeviceMaxAge) : undefined
  if (emailSent && emailForms) forms.push(emailForms)
  if (options.totp) forms.push(totpForm(ctx, options, field))
  if (options.recovery) forms.push(recoveryForm(ctx, stepUp, field))
  if (!emailSent && emailForms) forms.push(emailForms)

  const intro = stepUp
    ? "<p>Enter a code to confirm it is you before you continue.</p>"
    : "<p>One more step to sign in: confirm it is you with a code.</p>"
  const banner = options.error
    ? `<div class="error" role="alert" id="${ERROR_ID}"><p>${escapeHtml(twoFactorErrorText(options.error))}</p></div>`
    : ""
  const none = forms.length === 0 ? "<p>There is no way left to confirm it is you here. Sign in again, or contact the site's support.</p>" : ""
  const body = `<h1>${title}</h1>${banner}${intro}${none}${forms.join("<hr>")}`
  const page = htmlResponse(renderPage({ title, theme: ctx.theme, body }))
  const headers = {
    ...page.headers,
    "Cache-Control": "no-store",
    "Content-Security-Policy": "script-src 'none'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
  }
  return { ...page, headers }
}

/** What the code fields share: the error they are described by, and whether the focus is given. */
interface FieldContext {
  describedBy: string | undefined
  invalid: boolean
  focusTaken: boolean
}

/** How a code field is typed: digits (an app's or an email's code) or a recovery code. */
type CodeKind = { digits: number } | "recovery"

/**
 * A labelled field named `code`, described by the error banner (and `hintId`), with the focus when
 * no field before it took it.
 */
function codeField(field: FieldContext, id: string, label: string, kind: CodeKind, hintId?: string): string {
  const autofocus = field.focusTaken ? "" : " autofocus"
  field.focusTaken = true
  const describedBy = [field.describedBy, hintId].filter((value) => value !== undefined).join(" ")
  const described = describedBy ? ` aria-describedby="${describedBy}"` : ""
  const invalid = field.invalid ? ' aria-invalid="true"' : ""
  // Digits, spaces allowed (apps show `123 456`), as the server reads them.
  const typed =
    kind === "recovery"
      ? ' autocomplete="off" autocapitalize="characters" spellcheck="false"'
      : ` autocomplete="one-time-code" inputmode="numeric" pattern="\\s*(\\d\\s*){${kind.digits}}" title="${kind.digits} digits"`
  return `<label for="${id}">${label}</label><input id="${id}" name="code" type="text"${typed} required${described}${invalid}${autofocus}>`
}

/** How one form of the page posts: its `method` field, whether it is a step-up's, and its extra hidden fields. */
interface FormSpec {
  method: "totp" | "recovery" | "email"
  stepUp: boolean
  /** Names the form's group (`<legend>`); a form of a single button has none. */
  legend?: string
  hidden?: Record<string, string>
}

/** A form posting to `two-factor` with the CSRF token, `method`, and `content` (in a named group when it has a legend). */
function form(ctx: PageContext, spec: FormSpec, content: string): string {
  // A step-up goes back to where the person was; a pending sign-in knows where it goes.
  const hidden = { ...(spec.stepUp && { callbackUrl: ctx.callbackUrl }), method: spec.method, ...spec.hidden }
  const fields = Object.entries(hidden).map(([name, value]) => hiddenInput(name, value)).join("")
  const inner = spec.legend === undefined ? content : `<fieldset><legend>${spec.legend}</legend>${content}</fieldset>`
  return `<form action="${escapeHtml(routeUrl(ctx, "two-factor"))}" method="POST">${csrfInput(ctx)}${fields}${inner}</form>`
}

function trustBox(id: string, maxAge: number | undefined): string {
  if (maxAge === undefined) return ""
  const days = Math.floor(maxAge / 86_400)
  const span = days >= 2 ? ` for ${days} days` : ""
  return `<label for="${id}" class="check"><input type="checkbox" id="${id}" name="trustDevice" value="on"> Don't ask again on this browser${span}</label>`
}

function totpForm(ctx: PageContext, options: TwoFactorPageOptions, field: FieldContext): string {
  const stepUp = options.variant === "stepUp"
  return form(
    ctx,
    { method: "totp", stepUp, legend: "Authenticator app" },
    codeField(field, "two-factor-totp", "Code from your authenticator app", { digits: 6 }) +
      (stepUp ? "" : trustBox("two-factor-trust-totp", options.trustDeviceMaxAge)) +
      '<button type="submit" class="button">Verify</button>',
  )
}

function recoveryForm(ctx: PageContext, stepUp: boolean, field: FieldContext): string {
  return form(
    ctx,
    { method: "recovery", stepUp, legend: "Recovery code" },
    '<p id="two-factor-recovery-hint">No access to your authenticator app? Each recovery code you saved works once.</p>' +
      codeField(field, "two-factor-recovery", "Recovery code", "recovery", "two-factor-recovery-hint") +
      '<button type="submit" class="button">Use recovery code</button>',
  )
}

/** "Email me a code", or, once one was sent, the field for it and a way to get another. */
function emailSection(ctx: PageContext, offer: TwoFactorEmailOffer, field: FieldContext, trustDeviceMaxAge: number | undefined): string {
  const address = escapeHtml(maskEmail(offer.address))
  const send = { method: "email", stepUp: false, hidden: { action: "send" } } as const
  if (!offer.sent) {
    return form(ctx, { ...send, legend: "Email" }, `<p>Get a code at ${address}.</p><button type="submit" class="button">Email me a code</button>`)
  }
  return (
    form(
      ctx,
      { method: "email", stepUp: false, legend: "Email" },
      `<p>We sent a code to ${address}.</p>` +
        codeField(field, "two-factor-email", "Code from the email", { digits: offer.digits }) +
        trustBox("two-factor-trust-email", trustDeviceMaxAge) +
        '<button type="submit" class="button">Verify email code</button>',
    ) + form(ctx, send, '<button type="submit" class="button">Email me a new code</button>')
  )
}

/**
 * `address` with most of its local part hidden, e.g. `ada@example.com` → `a***@example.com`:
 * enough for its owner to know it, little for someone looking over their shoulder.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@")
  if (at <= 0) return "your email address"
  return `${address.slice(0, 1)}***${address.slice(at)}`
}
