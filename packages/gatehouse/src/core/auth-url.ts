/**
 * Absolute URLs of auth routes.
 * @module
 */

/**
 * `{origin}{basePath}/{path}`, with a root `basePath` adding nothing.
 *
 * @example
 * ```ts
 * authUrl("https://app.test", "/auth", "signin/github") // "https://app.test/auth/signin/github"
 * authUrl("https://app.test", "/", "session") // "https://app.test/session"
 * ```
 */
export function authUrl(origin: string, basePath: string, path: string): string {
  return `${origin}${basePath === "/" ? "" : basePath}/${path}`
}
