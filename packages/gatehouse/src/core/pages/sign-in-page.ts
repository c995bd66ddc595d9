/**
 * The built-in sign-in page: a heading, an error banner when asked for, then one form per provider.
 * @module
 */
import type { CredentialInput } from "../../types.js"
import type { CredentialsConfig, EmailConfig, OAuthConfig, ProviderConfig, WebAuthnConfig } from "../../providers/types.js"
import { isKeptField } from "../credentials/kept-fields.js"
import { NO_CACHE_HEADERS, type ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { credentialField, fieldDefinition, hiddenInput, isEmptyTypedField, signInHiddenInputs } from "./form-fields.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import { routeUrl, type PageContext } from "./page-context.js"
import { PASSKEY_SCRIPT } from "./passkey-script.js"
import { signInErrorText } from "./sign-in-error.js"

/** The query parameters the sign-in page reads. */
export interface SignInQuery {
  /** An error code from a failed sign-in; shown as a banner. */
  error?: string
  /** Pre-fills the email providers' address field and a credentials field named `email`. */
  email?: string
  /** Pre-fills a credentials field named `username`. */
  username?: string
}

/** Gives `autofocus` to one field: the first one, in page order, that is empty and typed into. */
type FocusClaim = (empty: boolean) => boolean

/**
 * The sign-in page (`200`, title "Sign in"): a "Sign in" heading, the banner for `query.error`,
 * then, separated by `<hr>`, a form for each OAuth/OIDC, email, credentials and WebAuthn provider.
 * Forms with fields of their own (credentials, WebAuthn) are a group named after their provider,
 * so fields of the same name ("Email") say which form they belong to; the email provider's field
 * says what it is for. The first empty field takes the focus, unless a field definition asks for
 * it itself: after a wrong password, with the address kept, that is the password. Providers of
 * other types, credentials providers without a `credentials` object and WebAuthn providers
 * without form fields are skipped. With a WebAuthn form the page carries the passkey script, and
 * its `Content-Security-Policy` allows that script alone (`passkeyScriptHash`); without one, none.
 */
export function renderSignInPage(ctx: PageContext, query: SignInQuery, passkeyScriptHash: string): ResponseInternal<string> {
  const banner = query.error ? `<div class="error"><p>${escapeHtml(signInErrorText(query.error))}</p></div>` : ""
  let focusGiven = ctx.providers.some(asksForFocus)
  const claimFocus: FocusClaim = (empty) => {
    if (focusGiven || !empty) return false
    focusGiven = true
    return true
  }
  const forms = ctx.providers.map((provider) => providerForm(ctx, provider, query, claimFocus)).filter((form) => form !== "")
  const passkeys = ctx.providers.some((provider) => provider.type === "webauthn" && hasFields(provider.formFields))
  const body = `<h1>Sign in</h1>${banner}${forms.join("<hr>")}`
  const page = htmlResponse(renderPage({ title: "Sign in", theme: ctx.theme, body, ...(passkeys && { script: PASSKEY_SCRIPT }) }))
  // Never stored: it carries the CSRF token, and what a failed sign-in kept of what was typed.
  const headers = { ...page.headers, ...NO_CACHE_HEADERS, "Content-Security-Policy": `script-src ${passkeys ? passkeyScriptHash : "'none'"}` }
  return { ...page, headers }
}

/** The form for one provider, or `""` when the page offers none for it. */
function providerForm(ctx: PageContext, provider: ProviderConfig, query: SignInQuery, claimFocus: FocusClaim): string {
  switch (provider.type) {
    case "oauth":
    case "oidc":
      return oauthForm(ctx, provider)
    case "email":
      return emailForm(ctx, provider, query.email, claimFocus)
    case "credentials":
      return credentialsForm(ctx, provider, query, claimFocus)
    case "webauthn":
      return webAuthnForm(ctx, provider, claimFocus)
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

function emailForm(ctx: PageContext, provider: EmailConfig, email: string | undefined, claimFocus: FocusClaim): string {
  const id = escapeHtml(`input-email-for-${provider.id}-provider`)
  const autofocus = claimFocus(!email) ? " autofocus" : ""
  return (
    `<form action="${escapeHtml(routeUrl(ctx, `signin/${encodeURIComponent(provider.id)}`))}" method="POST">` +
    signInHiddenInputs(ctx) +
    `<label for="${id}">Email for a sign-in link</label>` +
    `<input type="email" name="email" id="${id}" value="${escapeHtml(email)}" placeholder="email@example.com" required${autofocus}>` +
    submitButton(provider) +
    "</form>"
  )
}

function credentialsForm(ctx: PageContext, provider: CredentialsConfig, query: SignInQuery, claimFocus: FocusClaim): string {
  // Configuration is JavaScript at runtime: the declared type does not guarantee the object.
  const credentials: unknown = provider.credentials
  if (typeof credentials !== "object" || credentials === null) return ""
  return (
    `<form action="${escapeHtml(routeUrl(ctx, `callback/${encodeURIComponent(provider.id)}`))}" method="POST">` +
    signInHiddenInputs(ctx) +
    group(provider, fields(provider.id, credentials, claimFocus, (key, definition) => keptValue(query, key, definition)) + submitButton(provider)) +
    "</form>"
  )
}

function webAuthnForm(ctx: PageContext, provider: WebAuthnConfig, claimFocus: FocusClaim): string {
  const formFields: unknown = provider.formFields
  if (!hasFields(formFields)) return ""
  const id = encodeURIComponent(provider.id)
  return (
    `<form id="${escapeHtml(`${provider.id}-form`)}" action="${escapeHtml(routeUrl(ctx, `callback/${id}`))}" method="POST"` +
    ` data-webauthn-options="${escapeHtml(routeUrl(ctx, `webauthn-options/${id}`))}"${provider.enableConditionalUI ? " data-webauthn-conditional" : ""}>` +
    signInHiddenInputs(ctx) +
    // Filled in by the passkey script with the ceremony and the authenticator's answer.
    hiddenInput("action", "") +
    hiddenInput("data", "") +
    group(
      provider,
      // `data-form-field` marks what the passkey script sends to `webauthn-options`.
      fields(provider.id, formFields, claimFocus, () => undefined, " data-form-field") +
        '<p class="error" data-webauthn-error role="alert" hidden></p>' +
        // Signing in needs no identifier (the browser offers the passkeys it holds): a required
        // field left empty must not stop it. Signing up still checks the fields.
        submitButton(provider, " formnovalidate") +
        // A new passkey is always a new account (see core/webauthn/options.ts), so it is its own button.
        `<button type="submit" class="button" value="register">Sign up with ${escapeHtml(provider.name)}</button>`,
    ) +
    "</form>"
  )
}

/** `content` as a group named after the provider: what tells one form's "Email" from another's. */
function group(provider: ProviderConfig, content: string): string {
  return `<fieldset><legend>${escapeHtml(provider.name)}</legend>${content}</fieldset>`
}

/** The value a credentials field shows: what was typed before, for the fields a failed sign-in keeps. */
function keptValue(query: SignInQuery, key: string, definition: CredentialInput): string | undefined {
  return isKeptField(key, definition) ? query[key] : undefined
}

function fields(
  providerId: string,
  definitions: object,
  claimFocus: FocusClaim,
  valueOf: (key: string, definition: CredentialInput) => string | undefined,
  extraAttributes?: string,
): string {
  return Object.entries(definitions)
    .map(([key, raw]) => {
      const definition = fieldDefinition(raw)
      const value = valueOf(key, definition) || undefined
      const autofocus = claimFocus(isEmptyTypedField(definition, value))
      return credentialField(providerId, key, definition, { value, autofocus, ...(extraAttributes !== undefined && { extraAttributes }) })
    })
    .join("")
}

function hasFields(formFields: unknown): formFields is object {
  return typeof formFields === "object" && formFields !== null && Object.keys(formFields).length > 0
}

/** Whether a field definition of `provider` sets `autofocus` itself: the page then leaves focus to it. */
function asksForFocus(provider: ProviderConfig): boolean {
  const definitions: unknown = provider.type === "credentials" ? provider.credentials : provider.type === "webauthn" ? provider.formFields : undefined
  if (typeof definitions !== "object" || definitions === null) return false
  return Object.values(definitions).some((definition) => {
    const autofocus = fieldDefinition(definition).autofocus
    return autofocus !== undefined && autofocus !== false
  })
}

function submitButton(provider: ProviderConfig, attributes = ""): string {
  return `<button type="submit" class="button"${attributes}>Sign in with ${escapeHtml(provider.name)}</button>`
}
