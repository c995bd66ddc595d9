/**
 * Writing `Set-Cookie` values, attribute for attribute in the order the jshttp/cookie serializer
 * (and therefore Auth.js) uses, so the headers of both libraries read the same.
 * @module
 */
import type { CookieAttributes } from "./defaults.js"

// RFC 6265 cookie-name: a token, i.e. visible ASCII without separators.
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// A domain or path must not end the attribute early or start a new header line.
const ATTRIBUTE_VALUE = /^[\x20-\x3a\x3c-\x7e]*$/

/** Whether `name` may be used as a cookie name. */
export function isCookieName(name: unknown): name is string {
  return typeof name === "string" && COOKIE_NAME.test(name)
}

/**
 * One `Set-Cookie` header value: `value` percent-encoded, then `Max-Age`, `Domain`, `Path`,
 * `Expires`, `HttpOnly`, `Secure`, `Partitioned`, `SameSite`.
 *
 * @throws {TypeError} for a name or attribute that would corrupt the header, or one that is not of
 *   its type (a `Domain` that is not a string, a `SameSite` other than lax/strict/none, an invalid
 *   `Expires` date).
 */
export function serializeCookie(name: string, value: string, options: CookieAttributes): string {
  if (!isCookieName(name)) throw new TypeError(`Invalid cookie name ${JSON.stringify(name)}`)
  let cookie = `${name}=${encodeURIComponent(value)}`
  if (options.maxAge !== undefined) {
    if (!Number.isFinite(options.maxAge)) throw new TypeError(`Invalid Max-Age for cookie ${name}`)
    cookie += `; Max-Age=${Math.floor(options.maxAge)}`
  }
  if (options.domain) cookie += `; Domain=${attribute(options.domain, "Domain", name)}`
  if (options.path) cookie += `; Path=${attribute(options.path, "Path", name)}`
  if (options.expires) cookie += `; Expires=${expiresOf(options.expires, name)}`
  if (options.httpOnly) cookie += "; HttpOnly"
  if (options.secure) cookie += "; Secure"
  if (options.partitioned) cookie += "; Partitioned"
  if (options.priority !== undefined) cookie += `; Priority=${priorityOf(options.priority, name)}`
  if (options.sameSite) cookie += `; SameSite=${sameSiteOf(options.sameSite, name)}`
  return cookie
}

// Options come from the application's configuration, typed or not: anything but a string of
// safe characters (a number, a function's source text) must not reach the header as text.
function attribute(value: unknown, attributeName: string, cookieName: string): string {
  if (typeof value !== "string" || !ATTRIBUTE_VALUE.test(value)) throw new TypeError(`Invalid ${attributeName} for cookie ${cookieName}`)
  return value
}

const SAME_SITE: Readonly<Record<string, string>> = { lax: "Lax", strict: "Strict", none: "None" }

const PRIORITY: Readonly<Record<string, string>> = { low: "Low", medium: "Medium", high: "High" }

/** One of the three Priority values, whatever its case; anything else could append attributes. */
function priorityOf(value: unknown, cookieName: string): string {
  const key = typeof value === "string" ? value.toLowerCase() : ""
  if (!Object.hasOwn(PRIORITY, key)) throw new TypeError(`Invalid Priority for cookie ${cookieName}`)
  return PRIORITY[key]!
}

/**
 * One of the three SameSite values, whatever its case, and `true` as `Strict` (jshttp/cookie's
 * reading, which Auth.js configurations rely on); anything else could append attributes.
 */
function sameSiteOf(value: unknown, cookieName: string): string {
  const key = value === true ? "strict" : typeof value === "string" ? value.toLowerCase() : ""
  if (!Object.hasOwn(SAME_SITE, key)) throw new TypeError(`Invalid SameSite for cookie ${cookieName}`)
  return SAME_SITE[key]!
}

/** An HTTP date; an invalid `Date` (a lifetime past year 275760) or a non-date is refused, as jshttp/cookie does. */
function expiresOf(value: unknown, cookieName: string): string {
  if (!(value instanceof Date) || !Number.isFinite(value.getTime())) throw new TypeError(`Invalid Expires for cookie ${cookieName}`)
  return value.toUTCString()
}
