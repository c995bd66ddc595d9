/**
 * What a failed credentials sign-in hands back to the built-in sign-in page, so that a person who
 * mistyped their password finds their address still there. Only the identifier fields (`email`,
 * `username`, the ones throttling counts too) travel, never a field a password goes into, and
 * not in the URL (which reaches access logs, browser history and `Referer`): in the
 * `signInIdentifier` cookie, HttpOnly, under the base path, for a minute, deleted once shown.
 * @module
 */
import type { Cookie, CookieOption } from "../../cookies/defaults.js"
import type { CredentialsConfig } from "../../providers/types.js"

/** The fields that may be carried back, each under its own name. */
export const KEPT_FIELDS = ["email", "username"] as const

/** A field that may be carried back. */
export type KeptField = (typeof KEPT_FIELDS)[number]

// Input types of an identifier. Anything else (password, hidden, a checkbox) stays where it was posted.
const identifierTypes: ReadonlySet<string> = new Set(["text", "email", "tel", "url", "search", "number"])

// Longer than any address (254) or sensible user name: not worth carrying back.
const MAX_LENGTH = 256

// The cookie's value as written, percent-encoded: one field of 256 characters outside ASCII takes
// up to 2,304 characters, so the writer and the reader share this budget (well inside the 4 KiB a
// browser keeps per cookie); a field that would not fit is left out rather than the cookie refused.
const MAX_COOKIE_VALUE = 3000

/** Whether the field `key`, defined as `definition`, is one a failed sign-in carries back. */
export function isKeptField(key: string, definition: unknown): key is KeptField {
  if (!(KEPT_FIELDS as readonly string[]).includes(key)) return false
  // As the page renders it: a definition that is not an object is a plain text field.
  const type: unknown = typeof definition === "object" && definition !== null ? (definition as { type?: unknown }).type : undefined
  return identifierTypes.has(typeof type === "string" ? type.toLowerCase() : "text")
}

/**
 * The `[name, value]` pairs to carry back after a failed sign-in with `provider`: each kept field
 * the provider defines, posted as a non-empty string of at most 256 characters, as it was typed.
 */
export function keptFields(provider: CredentialsConfig, body: Readonly<Record<string, unknown>> | undefined): [KeptField, string][] {
  // Configuration is JavaScript at runtime: the declared type does not guarantee the object.
  const definitions: unknown = provider.credentials
  if (typeof definitions !== "object" || definitions === null || body === undefined) return []
  const kept: [KeptField, string][] = []
  for (const key of KEPT_FIELDS) {
    const value = body[key]
    if (!Object.hasOwn(definitions, key) || !isKeptField(key, (definitions as Record<string, unknown>)[key])) continue
    if (typeof value === "string" && value !== "" && value.length <= MAX_LENGTH) kept.push([key, value])
  }
  return kept
}

/** The cookie carrying `kept` to the sign-in page; `undefined` when nothing is kept. */
export function keptFieldsCookie(cookie: CookieOption, kept: readonly (readonly [string, string])[]): Cookie | undefined {
  const fitting = new URLSearchParams()
  for (const [name, value] of kept) {
    fitting.append(name, value)
    if (fitting.toString().length > MAX_COOKIE_VALUE) fitting.delete(name)
  }
  const value = fitting.toString()
  if (value === "") return undefined
  // Expires beside Max-Age, as the other short-lived cookies have it, for clients that read only one.
  const expires = cookie.options.maxAge === undefined ? undefined : new Date(Date.now() + cookie.options.maxAge * 1000)
  return { ...cookie, value, options: { ...cookie.options, ...(expires && { expires }) } }
}

/** The kept fields a `signInIdentifier` cookie holds; anything else in it (it came from a browser) is ignored. */
export function readKeptFields(value: string | undefined): Partial<Record<KeptField, string>> {
  if (!value || value.length > MAX_COOKIE_VALUE) return {}
  const fields = new URLSearchParams(value)
  const kept: Partial<Record<KeptField, string>> = {}
  for (const key of KEPT_FIELDS) {
    const field = fields.get(key)
    if (field && field.length <= MAX_LENGTH) kept[key] = field
  }
  return kept
}

/** The deletion of the `signInIdentifier` cookie, under the name and path it was set with. */
export function keptFieldsDeletion(cookie: CookieOption): Cookie {
  return { ...cookie, value: "", options: { ...cookie.options, maxAge: 0 } }
}
