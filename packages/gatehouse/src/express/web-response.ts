/**
 * A Web `Response` written to Node's response: status, every header (each `Set-Cookie` kept
 * apart, after any the app set already), and the body.
 * @module
 */
import type { ServerResponse } from "node:http"

/** Writes `response` to `res`; resolves once the body has been sent (or rejects if it could not be). */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value)
  }
  appendSetCookies(response.headers.getSetCookie(), res)
  if (!response.body) {
    res.end()
    return
  }
  // Auth()'s answers are whole strings (JSON, a page, a few kilobytes): written at once, which
  // costs a fraction of a stream pipeline per request.
  res.end(Buffer.from(await response.arrayBuffer()))
}

/** Adds `Set-Cookie` headers to `res`, keeping those already there. */
function appendSetCookies(cookies: string[], res: ServerResponse): void {
  if (cookies.length > 0) res.appendHeader("set-cookie", cookies)
}

/**
 * Adds `Set-Cookie` headers to `res`, dropping any earlier one for the same cookie name, so
 * reading the session twice in one request still sends each cookie once.
 */
export function replaceSetCookies(cookies: string[], res: ServerResponse): void {
  if (cookies.length === 0) return
  const names = new Set(cookies.map(cookieName))
  const existing = res.getHeader("set-cookie")
  const kept = (Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)]).filter(
    (cookie) => !names.has(cookieName(cookie)),
  )
  res.setHeader("set-cookie", [...kept, ...cookies])
}

/** The name of the cookie a `Set-Cookie` value sets. */
export function cookieName(setCookie: string): string {
  return setCookie.slice(0, setCookie.indexOf("="))
}

/** A small JSON answer written directly. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status
  res.setHeader("content-type", "application/json; charset=utf-8")
  res.end(JSON.stringify(value))
}
