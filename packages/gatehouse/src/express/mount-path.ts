/**
 * Where the integration is mounted, read from Express's routing rather than configured, so the
 * same config works under `app.use("/auth", …)`, `app.use("/auth/*", …)` (Express 4),
 * `app.all("/auth/*splat", …)` (Express 5) or a router mounted anywhere.
 * @module
 */
import type { ExpressRequest } from "./node-types.js"

/**
 * The request target's path and query, starting with exactly one `/`. Node also accepts the
 * absolute form (`GET http://host/path`), meant for proxies, and a target such as `//host/path`
 * would read as a host when resolved against the origin; neither host ever becomes the app's.
 */
export function pathAndQuery(req: ExpressRequest): string {
  const target = req.originalUrl
  if (target.startsWith("/")) return target.replace(/^[/\\]+/, "/")
  try {
    const url = new URL(target)
    return (url.pathname + url.search).replace(/^[/\\]+/, "/")
  } catch {
    return "/"
  }
}

/**
 * Where a login page may send the browser back to: the request's path (dot segments resolved, so
 * `/..//evil.test` cannot turn into `//evil.test` later) and query, starting with exactly one `/`.
 */
export function returnPath(req: ExpressRequest): string {
  const asked = new URL(pathAndQuery(req), "http://localhost")
  return `${asked.pathname.replace(/^\/+/, "/")}${asked.search}`
}

/**
 * The base path of the auth routes for this request: the path Express matched before the
 * wildcard, or before this middleware when mounted without one. `undefined` when mounted at the
 * root with no wildcard, where only the configured base path can say.
 *
 * @example
 * ```ts
 * // app.use("/api/auth/*", …), GET /api/auth/signin/github → "/api/auth"
 * ```
 */
export function mountPath(req: ExpressRequest): string | undefined {
  const wildcard = Object.values(req.params ?? {}).find((value) => Array.isArray(value)) ?? req.params?.[0]
  if (wildcard === undefined) return req.baseUrl || undefined
  // Express decodes what it captured; count its segments instead of matching its text.
  const captured = Array.isArray(wildcard) ? wildcard.length : wildcard.split("/").length
  const pathname = pathAndQuery(req).split("?")[0]!
  if (captured === 0) return pathname.replace(/\/+$/, "") || "/"
  return pathname.split("/").slice(0, -captured).join("/") || "/"
}
