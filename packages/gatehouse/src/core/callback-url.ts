/**
 * The default `redirect` callback: a redirect may only stay on the application's own origin.
 * @module
 */

/**
 * `url` resolved against `baseUrl` when it stays on `baseUrl`'s origin, otherwise `baseUrl`.
 *
 * The decision is made on the parsed URL, not on the string, so every spelling a browser would
 * follow off-site (`//evil.com`, `/\evil.com`, tabs and newlines inside the scheme, mixed case,
 * `javascript:`) lands on the origin instead.
 *
 * @example
 * ```ts
 * sameOriginRedirect({ url: "/dashboard", baseUrl: "https://app.test" }) // "https://app.test/dashboard"
 * sameOriginRedirect({ url: "//evil.test", baseUrl: "https://app.test" }) // "https://app.test"
 * ```
 */
export function sameOriginRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  try {
    const base = new URL(baseUrl)
    // Only a path is relative. Anything else must name its origin by itself: resolved against the
    // base, "https:evil.test" would pass as a path here yet reads as https://evil.test elsewhere.
    const target = url.startsWith("/") ? new URL(url, base) : new URL(url)
    // A path starting with `//` turns into another host the moment anyone reuses it as a relative URL.
    if (target.origin === base.origin && !target.pathname.startsWith("//")) {
      // Keep Auth.js's spelling of the URL (so callback-url cookies it set compare equal) unless
      // it holds characters that cannot go into a Location header as they are, or a backslash:
      // URL parsers disagree on it (`https://app.test\@evil.test` is this origin to a browser,
      // evil.test to Python's urllib and many proxies), so only the normalized form goes out.
      const asGiven = url.startsWith("/") ? `${baseUrl}${url}` : url
      return /^[\x21-\x5b\x5d-\x7e]+$/.test(asGiven) ? asGiven : target.href
    }
  } catch {
    // An unparsable URL never leaves the origin.
  }
  return baseUrl
}

/**
 * Whether `value` can be a callback URL at all: a path starting with `/`, or an absolute http(s)
 * URL. Anything else (`javascript:`, `data:`, a bare word) is ignored before the redirect
 * callback ever sees it.
 */
export function isHttpCallbackUrl(value: string, origin: string): boolean {
  try {
    const url = value.startsWith("/") ? new URL(value, origin) : new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}
