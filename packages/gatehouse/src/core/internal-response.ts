/**
 * The core's own response shape, before it becomes a Web `Response`. Framework authors get it
 * as is by passing the `raw` marker; everyone else gets `toResponse(internal)`.
 * @module
 */
import type { Cookie } from "../cookies/defaults.js"
import { serializeCookie } from "../cookies/serialize.js"
import type { ResponseInternal } from "../auth-routes.js"

export type { Cookie, ResponseInternal }

/** Keeps browsers and shared caches from storing a response that carries session data or a token. */
export const NO_CACHE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
})

/** A JSON answer; `noCache` adds {@link NO_CACHE_HEADERS}. */
export function jsonResponse<Body>(body: Body, options: { status?: number; noCache?: boolean; cookies?: Cookie[] } = {}): ResponseInternal<Body> {
  return {
    status: options.status ?? 200,
    headers: { "Content-Type": "application/json", ...(options.noCache ? NO_CACHE_HEADERS : {}) },
    body,
    cookies: options.cookies ?? [],
  }
}

/**
 * The Web `Response` for an internal response: `302` when it redirects, JSON bodies serialised,
 * one `Set-Cookie` header per cookie.
 */
export function toResponse(internal: ResponseInternal): Response {
  const headers = new Headers(internal.headers)
  appendCookies(headers, internal.cookies ?? [])
  let body: BodyInit | null = null
  if (internal.body !== undefined) {
    // Read from the record, not the Headers: the same answer without a lookup per response.
    body = internal.headers?.["Content-Type"] === "application/json" ? JSON.stringify(internal.body) : (internal.body as BodyInit)
  }
  if (internal.redirect !== undefined) {
    headers.set("Location", internal.redirect)
    return new Response(body, { status: 302, headers })
  }
  return new Response(body, { status: internal.status ?? 200, headers })
}

/** Adds one `Set-Cookie` header per cookie to `headers`. */
export function appendCookies(headers: Headers, cookies: readonly Cookie[]): void {
  for (const cookie of cookies) headers.append("Set-Cookie", serializeCookie(cookie.name, cookie.value, cookie.options))
}
