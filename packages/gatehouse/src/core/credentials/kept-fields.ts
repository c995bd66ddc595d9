/**
 * What a failed credentials sign-in hands back to the built-in sign-in page, so that a person who
 * mistyped their password finds their address still there. Only the identifier fields (`email`,
 * `username`, the ones throttling counts too) travel, as query parameters of the same name, and
 * never a field a password goes into.
 * @module
 */
import type { CredentialsConfig } from "../../providers/types.js"

/** The fields that may be carried back, each as the query parameter of its name. */
export const KEPT_FIELDS = ["email", "username"] as const

/** A field that may be carried back. */
export type KeptField = (typeof KEPT_FIELDS)[number]

// Input types of an identifier. Anything else (password, hidden, a checkbox) stays where it was posted.
const identifierTypes: ReadonlySet<string> = new Set(["text", "email", "tel", "url", "search", "number"])

// Longer than any address (254) or sensible user name: not worth a Location header.
const MAX_LENGTH = 256

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
