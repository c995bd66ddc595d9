/**
 * Keeping responses that carry someone's session cookie out of shared caches.
 * @module
 */

/**
 * The `Cache-Control` a response carrying a session cookie must have: `current` with `private`
 * added and `public` dropped, or `undefined` when `current` is already `private` or `no-store`
 * (nothing to change). A CDN that cached such a response would hand one user's cookie to the
 * next; the app's own caching directives (`max-age`, …) are kept for the browser.
 *
 * @example
 * ```ts
 * const cacheControl = privateCacheControl(response.headers.get("cache-control"))
 * if (cacheControl) response.headers.set("cache-control", cacheControl)
 * ```
 */
export function privateCacheControl(current: string | null | undefined): string | undefined {
  const directives = (current ?? "")
    .split(",")
    .map((directive) => directive.trim())
    .filter((directive) => directive !== "" && directive.toLowerCase() !== "public")
  if (directives.some((directive) => /^(private|no-store)$/i.test(directive))) return undefined
  return ["private", ...directives].join(", ")
}
