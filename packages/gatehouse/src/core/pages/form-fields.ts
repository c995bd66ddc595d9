/**
 * The inputs the sign-in and sign-out forms are built from.
 * @module
 */
import type { CredentialInput } from "../../types.js"
import { escapeHtml } from "./escape-html.js"
import type { PageContext } from "./page-context.js"

// Attributes set by the page itself, which a field definition may not override.
const reserved: ReadonlySet<string> = new Set(["label", "type", "name", "id"])
const attributeName = /^[a-zA-Z][a-zA-Z0-9-]*$/

/** A hidden input with an escaped value. */
export function hiddenInput(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`
}

/** The hidden CSRF token (left out when CSRF checks are skipped). */
export function csrfInput(ctx: PageContext): string {
  return ctx.csrfToken === undefined ? "" : hiddenInput("csrfToken", ctx.csrfToken)
}

/** The hidden CSRF token and callback URL every sign-in form posts. */
export function signInHiddenInputs(ctx: PageContext): string {
  return csrfInput(ctx) + hiddenInput("callbackUrl", ctx.callbackUrl)
}

/** How the page fills in and focuses one field. */
export interface FieldState {
  /** A value to show instead of the definition's own (what the person typed before). */
  value?: string
  /** Whether this is the field the page puts the cursor in. */
  autofocus?: boolean
  /** Attributes appended as they are, e.g. ` data-form-field`. */
  extraAttributes?: string
}

/**
 * A labelled input for one field of a credentials or WebAuthn provider: `name` is the key, the id
 * is `input-{key}-for-{providerId}-provider`, the type defaults to `text`, and the definition's
 * other string, number and boolean attributes are copied over. Attribute names that are not plain
 * names, or that start with `on` (event handlers), are dropped. A password field without an
 * `autocomplete` of its own gets `current-password`: the built-in page signs in (a form that
 * also signs up sets `autocomplete: "new-password"` on its field definition).
 */
export function credentialField(providerId: string, key: string, definition: unknown, state: FieldState = {}): string {
  const input = fieldDefinition(definition)
  const id = escapeHtml(`input-${key}-for-${providerId}-provider`)
  const value = state.value === undefined ? "" : ` value="${escapeHtml(state.value)}"`
  return (
    `<label for="${id}">${escapeHtml(input.label ?? key)}</label>` +
    `<input name="${escapeHtml(key)}" id="${id}" type="${escapeHtml(input.type ?? "text")}"${value}` +
    `${copiedAttributes(input, state.value !== undefined)}${passwordAutocomplete(input)}${state.autofocus ? " autofocus" : ""}${state.extraAttributes ?? ""}>`
  )
}

/** ` autocomplete="current-password"` for a password field whose definition names no autocomplete, else nothing. */
function passwordAutocomplete(input: CredentialInput): string {
  const isPassword = typeof input.type === "string" && input.type.toLowerCase() === "password"
  const ownAutocomplete = Object.keys(input).some((name) => name.toLowerCase() === "autocomplete")
  return isPassword && !ownAutocomplete ? ' autocomplete="current-password"' : ""
}

/** A field definition as an object; anything else (configuration is JavaScript) counts as empty. */
export function fieldDefinition(definition: unknown): CredentialInput {
  return (typeof definition === "object" && definition !== null ? definition : {}) as CredentialInput
}

// Only fields a person types into take the cursor; a checkbox or a hidden field first would not help.
const typedInto: ReadonlySet<string> = new Set(["text", "email", "password", "tel", "url", "number", "search"])

/** Whether the field of `definition` is one a person types into and still empty (given `value`). */
export function isEmptyTypedField(definition: CredentialInput, value: string | undefined): boolean {
  const type = typeof definition.type === "string" ? definition.type.toLowerCase() : "text"
  const shown = value ?? definition.value
  return typedInto.has(type) && (shown === undefined || shown === null || String(shown) === "")
}

/** The definition's attributes that may go onto the input, each as ` name="value"`. */
function copiedAttributes(input: CredentialInput, valueGiven: boolean): string {
  let html = ""
  for (const [name, value] of Object.entries(input)) {
    if (!attributeName.test(name) || /^on/i.test(name) || reserved.has(name.toLowerCase())) continue
    // A value the page shows replaces the definition's: two value attributes would keep the first.
    if (valueGiven && name.toLowerCase() === "value") continue
    if (value === true) html += ` ${escapeHtml(name)}`
    else if (typeof value === "string" || typeof value === "number") html += ` ${escapeHtml(name)}="${escapeHtml(value)}"`
  }
  return html
}
