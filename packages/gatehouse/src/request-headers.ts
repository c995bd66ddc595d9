/**
 * Request headers as a `Headers`, whatever the caller had: a `Headers` already, or the plain map
 * a Node server gives (any key case, repeated headers as arrays, sometimes non-string junk).
 * @module
 */

/** A `Headers`, or a plain header map. */
export type HeaderSource = Headers | Readonly<Record<string, unknown>>

/**
 * `source` as a `Headers`. Entries that are not strings (or arrays of strings), and entries a
 * `Headers` refuses (bad names, newlines in values), are skipped rather than thrown on.
 */
export function toHeaders(source: HeaderSource | null | undefined): Headers {
  if (source instanceof Headers) return source
  const headers = new Headers()
  for (const [name, value] of Object.entries(source ?? {})) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string")
    if (values.length === 0) continue
    // Cookie pairs are separated by ";", so repeated cookie headers must not be joined with ",".
    const joined = values.join(name.toLowerCase() === "cookie" ? "; " : ", ")
    try {
      headers.append(name, joined)
    } catch {
      // Not a header a browser or server could have sent; ignore it.
    }
  }
  return headers
}
