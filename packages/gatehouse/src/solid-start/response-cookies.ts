/**
 * Refreshed session cookies written to a SolidStart response that is still being built.
 * @module
 */
import type { ResponseHeadersLike } from "./types.js"

/**
 * Appends each `Set-Cookie` value to `headers` and keeps the response out of shared caches.
 * Returns `false` when the response was already sent (a page that streamed its shell before the
 * read): nothing is lost, the next request that can write cookies (the middleware, a server
 * function, the session route) sends the same refresh.
 */
export function appendSetCookies(headers: ResponseHeadersLike, setCookies: readonly string[]): boolean {
  try {
    for (const line of setCookies) headers.append("set-cookie", line)
    keepOutOfSharedCaches(headers)
    return true
  } catch {
    // SolidStart 1's headers write to Node's response, which throws once the headers are sent.
    return false
  }
}

/**
 * A response carrying someone's session cookie must never be served to others from a shared cache
 * (a CDN): `private` is added (and `public` dropped) unless the response is already private or
 * `no-store`.
 */
function keepOutOfSharedCaches(headers: ResponseHeadersLike): void {
  const directives = (headers.get("cache-control") ?? "")
    .split(",")
    .map((directive) => directive.trim())
    .filter((directive) => directive !== "" && directive.toLowerCase() !== "public")
  if (directives.some((directive) => /^(private|no-store)$/i.test(directive))) return
  headers.set("cache-control", ["private", ...directives].join(", "))
}
