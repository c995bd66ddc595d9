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
 * @throws {TypeError} for a name or attribute that would corrupt the header.
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
  if (options.expires) cookie += `; Expires=${options.expires.toUTCString()}`
  if (options.httpOnly) cookie += "; HttpOnly"
  if (options.secure) cookie += "; Secure"
  if (options.partitioned) cookie += "; Partitioned"
  if (options.sameSite) cookie += `; SameSite=${options.sameSite[0]!.toUpperCase()}${options.sameSite.slice(1)}`
  return cookie
}

function attribute(value: string, attributeName: string, cookieName: string): string {
  if (!ATTRIBUTE_VALUE.test(value)) throw new TypeError(`Invalid ${attributeName} for cookie ${cookieName}`)
  return value
}
