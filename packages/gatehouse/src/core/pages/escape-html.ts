/**
 * The one escaping helper of the built-in pages.
 * @module
 */

const replacements: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
}

/**
 * `value` as text that is safe inside HTML content and inside quoted attribute values.
 * `null` and `undefined` become the empty string; anything else goes through `String`.
 *
 * @example
 * ```ts
 * escapeHtml('"><script>') // "&quot;&gt;&lt;script&gt;"
 * ```
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (char) => replacements[char] ?? char)
}
