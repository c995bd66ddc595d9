/**
 * The built-in sign-in page: an error banner when asked for, then one form per provider.
 * @module
 */
import type { CredentialsConfig, EmailConfig, OAuthConfig, ProviderConfig, WebAuthnConfig } from "../../providers/types.js"
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { credentialField, hiddenInput, signInHiddenInputs } from "./form-fields.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import { routeUrl, type PageContext } from "./page-context.js"
import { PASSKEY_SCRIPT } from "./passkey-script.js"
import { signInErrorText } from "./sign-in-error.js"

/** The query parameters the sign-in page reads. */
export interface SignInQuery {
  /** An error code from a failed sign-in; shown as a banner. */
  error?: string
  /** Pre-fills the email providers' address field. */
  email?: string
}

/**
 * The sign-in page (`200`, title "Sign In"): the banner for `query.error`, then, separated by
 * `<hr>`, a form for each OAuth/OIDC, email, credentials and WebAuthn provider. Providers of other
 * types, credentials providers without a `credentials` object and WebAuthn providers without form
 * fields are skipped. With a WebAuthn form the page carries the passkey script, and its
 * `Content-Security-Policy` allows that script alone (`passkeyScriptHash`); without one, none.
 */
export function renderSignInPage(ctx: PageContext, query: SignInQuery, passkeyScriptHash: string): ResponseInternal<string> {
  const banner = query.error ? `<div class="error"><p>${escapeHtml(signInErrorText(query.error))}</p></div>` : ""
  const forms = ctx.providers.map((provider) => providerForm(ctx, provider, query)).filter((form) => form !== "")
  const passkeys = ctx.providers.some((provider) => provider.type === "webauthn" && webAuthnForm(ctx, provider) !== "")
  const page = htmlResponse(
    renderPage({ title: "Sign In", theme: ctx.theme, body: banner + forms.join("<hr>"), ...(passkeys && { script: PASSKEY_SCRIPT }) }),
  )
  return { ...page, headers: { ...page.headers, "Content-Security-Policy": `script-src ${passkeys ? passkeyScriptHash : "'none'"}` } }
}

/** The form for one provider, or `""` when the page offers none for it. */
function providerForm(ctx: PageContext, provider: ProviderConfig, query: SignInQuery): string {
  switch (provider.type) {
    case "oauth":
    case "oidc":
      return oauthForm(ctx, provider)
    case "email":
      return emailForm(ctx, provider, query.email)
    case "credentials":
      return credentialsForm(ctx, provider)
    case "webauthn":
      return webAuthnForm(ctx, provider)
    default:
      return ""
  }
}

function oauthForm(ctx: PageContext, provider: OAuthConfig): string {
  return (
    `<form action="${escapeHtml(routeUrl(ctx, `signin/${encodeURIComponent(provider.id)}`))}" method="POST">` +
    signInHiddenInputs(ctx) +
    submitButton(provider) +
    "</form>"
  )
}

function emailForm(ctx: PageContext, provider: EmailConfig, email: string | undefined): string {
  const id = escapeHtml(`input-email-for-${provider.id}-provider`)
  return (
    `<form action="${escapeHtml(routeUrl(ctx, `signin/${encodeURIComponent(provider.id)}`))}" method="POST">` +
    signInHiddenInputs(ctx) +
    `<label for="${id}">Email</label>` +
    `<input type="email" name="email" id="${id}" value="${escapeHtml(email)}" placeholder="email@example.com" required autofocus>` +
    submitButton(provider) +
    "</form>"
  )
}

function credentialsForm(ctx: PageContext, provider: CredentialsConfig): string {
  // Configuration is JavaScript at runtime: the declared type does not guarantee the object.
  const credentials: unknown = provider.credentials
  if (typeof credentials !== "object" || credentials === null) return ""
  return (
    `<form action="${escapeHtml(routeUrl(ctx, `callback/${encodeURIComponent(provider.id)}`))}" method="POST">` +
    signInHiddenInputs(ctx) +
    fields(provider.id, credentials) +
    submitButton(provider) +
    "</form>"
  )
}

function webAuthnForm(ctx: PageContext, provider: WebAuthnConfig): string {
  const formFields: unknown = provider.formFields
  if (typeof formFields !== "object" || formFields === null || Object.keys(formFields).length === 0) return ""
  const id = encodeURIComponent(provider.id)
  return (
    `<form id="${escapeHtml(`${provider.id}-form`)}" action="${escapeHtml(routeUrl(ctx, `callback/${id}`))}" method="POST"` +
    ` data-webauthn-options="${escapeHtml(routeUrl(ctx, `webauthn-options/${id}`))}"${provider.enableConditionalUI ? " data-webauthn-conditional" : ""}>` +
    signInHiddenInputs(ctx) +
    // `data-form-field` marks what the passkey script sends to `webauthn-options`.
    fields(provider.id, formFields, " data-form-field") +
    // Filled in by the passkey script with the ceremony and the authenticator's answer.
    hiddenInput("action", "") +
    hiddenInput("data", "") +
    '<p class="error" data-webauthn-error role="alert" hidden></p>' +
    submitButton(provider) +
    // A new passkey is always a new account (see core/webauthn/options.ts), so it is its own button.
    `<button type="submit" class="button" value="register">Sign up with ${escapeHtml(provider.name)}</button>` +
    "</form>"
  )
}

function fields(providerId: string, definitions: object, extraAttributes?: string): string {
  return Object.entries(definitions)
    .map(([key, definition]) => credentialField(providerId, key, definition, extraAttributes))
    .join("")
}

function submitButton(provider: ProviderConfig): string {
  return `<button type="submit" class="button">Sign in with ${escapeHtml(provider.name)}</button>`
}
