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

/**
 * A labelled input for one field of a credentials or WebAuthn provider: `name` is the key, the id
 * is `input-{key}-for-{providerId}-provider`, the type defaults to `text`, and the definition's
 * other string, number and boolean attributes are copied over. Attribute names that are not plain
 * names, or that start with `on` (event handlers), are dropped.
 */
export function credentialField(
  providerId: string,
  key: string,
  definition: unknown,
  extraAttributes = "",
): string {
  // Field definitions come from JavaScript configuration; anything but an object counts as empty.
  const input = (typeof definition === "object" && definition !== null ? definition : {}) as CredentialInput
  const id = escapeHtml(`input-${key}-for-${providerId}-provider`)
  return (
    `<label for="${id}">${escapeHtml(input.label ?? key)}</label>` +
    `<input name="${escapeHtml(key)}" id="${id}" type="${escapeHtml(input.type ?? "text")}"` +
    `${copiedAttributes(input)}${extraAttributes}>`
  )
}

/** The definition's attributes that may go onto the input, each as ` name="value"`. */
function copiedAttributes(input: CredentialInput): string {
  let html = ""
  for (const [name, value] of Object.entries(input)) {
    if (!attributeName.test(name) || /^on/i.test(name) || reserved.has(name.toLowerCase())) continue
    if (value === true) html += ` ${escapeHtml(name)}`
    else if (typeof value === "string" || typeof value === "number") html += ` ${escapeHtml(name)}="${escapeHtml(value)}"`
  }
  return html
}
