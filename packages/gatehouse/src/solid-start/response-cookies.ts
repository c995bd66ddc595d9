/**
 * Refreshed session cookies written to a SolidStart response that is still being built.
 * @module
 */
import { privateCacheControl } from "../framework/index.js"
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
    const cacheControl = privateCacheControl(headers.get("cache-control"))
    if (cacheControl) headers.set("cache-control", cacheControl)
    return true
  } catch {
    // SolidStart 1's headers write to Node's response, which throws once the headers are sent.
    return false
  }
}
