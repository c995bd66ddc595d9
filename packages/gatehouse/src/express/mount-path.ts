/**
 * Where the integration is mounted, read from Express's routing rather than configured, so the
 * same config works under `app.use("/auth", …)`, `app.use("/auth/*", …)` (Express 4),
 * `app.all("/auth/*splat", …)` (Express 5) or a router mounted anywhere.
 * @module
 */
import type { ExpressRequest } from "./node-types.js"

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
/**
 * The request target's path and query. Node also accepts the absolute form
 * (`GET http://host/path`), meant for proxies; only its path and query count here, so the host
 * in it never becomes the app's.
 */
export function pathAndQuery(req: ExpressRequest): string {
  const target = req.originalUrl
  if (target.startsWith("/")) return target
  try {
    const url = new URL(target)
    return url.pathname + url.search
  } catch {
    return "/"
  }
}

export function mountPath(req: ExpressRequest): string | undefined {
  const wildcard = Object.values(req.params ?? {}).find((value) => Array.isArray(value)) ?? req.params?.[0]
  if (wildcard === undefined) return req.baseUrl || undefined
  // Express decodes what it captured; count its segments instead of matching its text.
  const captured = Array.isArray(wildcard) ? wildcard.length : wildcard.split("/").length
  const pathname = pathAndQuery(req).split("?")[0]!
  if (captured === 0) return pathname.replace(/\/+$/, "") || "/"
  return pathname.split("/").slice(0, -captured).join("/") || "/"
}

/** The path below `basePath`, or `undefined` when `pathname` is not below it. */
export function pathBelow(pathname: string, basePath: string): string | undefined {
  const base = basePath.replace(/\/+$/, "")
  if (pathname === base) return ""
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length + 1) : undefined
}
