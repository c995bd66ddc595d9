/**
 * Reading the `Cookie` request header. Same rules as the jshttp/cookie parser Auth.js uses, so
 * both read a cookie header alike: the first occurrence of a name wins, values are
 * percent-decoded when they decode, and kept raw when they do not. Names that occur more than
 * once are remembered: for the session cookie that means two sessions (see ./chunks.ts).
 * @module
 */

/** The cookies of a request: name → first value, and the names the header repeated. */
export interface RequestCookies extends ReadonlyMap<string, string> {
  /** Names the header carried more than once; absent means none. */
  readonly repeated?: ReadonlySet<string>
}

/** Parses a `Cookie` header into a name → value map; malformed pairs are skipped. */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> & RequestCookies {
  const cookies: Map<string, string> & { repeated?: Set<string> } = new Map<string, string>()
  if (!header) return cookies
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=")
    if (eq === -1) continue
    const name = pair.slice(0, eq).trim()
    if (!name) continue
    if (cookies.has(name)) {
      ;(cookies.repeated ??= new Set()).add(name)
      continue
    }
    let value = pair.slice(eq + 1).trim()
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    cookies.set(name, decodeOrKeep(value))
  }
  return cookies
}

function decodeOrKeep(value: string): string {
  if (!value.includes("%")) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
