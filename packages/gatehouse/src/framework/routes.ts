/**
 * Whether a request is for the auth routes, by the core's own route parser.
 * @module
 */
import type { OptInRoutes } from "../core/auth-action.js"
import { parseRoute } from "../core/router.js"

/**
 * Whether `url` (a URL, or a path) names an auth route under `basePath`: an action the core
 * serves (`signin`, `callback/github`, `session`, …), not merely a path below it (the app's own
 * `/auth/login` page is not one). Pass the configuration as `config` so that the routes it opts
 * into (`account.routes`, `backchannelLogout`, `twoFactor`) count too; without it they do not.
 *
 * @example
 * ```ts
 * isAuthRoute("/api/auth/session", "/api/auth") // true
 * isAuthRoute("/api/auth/login", "/api/auth")   // false
 * ```
 */
export function isAuthRoute(url: string | URL, basePath: string, config?: OptInRoutes): boolean {
  const pathname = typeof url === "string" && url.startsWith("/") ? url.split(/[?#]/)[0]! : new URL(url).pathname
  return parseRoute(pathname, basePath, config) !== undefined
}
