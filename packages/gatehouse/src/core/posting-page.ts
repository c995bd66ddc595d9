/**
 * The app's own page a sign-in form was posted from: where a failed sign-in goes back to when the
 * configuration names no `pages.signIn`.
 * @module
 */
import type { OptInRoutes } from "./auth-action.js"
import { parseRoute } from "./router.js"

/**
 * The page named by `referer` with `params` set on its query (replacing values of the same names,
 * so a second failure does not stack a second `error`), as a path and query; `undefined` when
 * there is no such page of the app.
 *
 * An app that writes its own sign-in form and never sets `pages.signIn` expects a refused sign-in
 * back on that form, not on the built-in page; the `Referer` of the form post is the only place
 * that names it. Only a page of `origin` counts (anything else would make the auth routes an open
 * redirect), and no auth route (the built-in pages are auth routes and keep their own handling;
 * an app's own `/auth/login` beside Express's routes is not one). No `Referer` (a `no-referrer`
 * policy) leaves the built-in page.
 *
 * @param referer - The request's `Referer` header.
 * @param origin - The origin the app answers on.
 * @param basePath - The auth routes' base path.
 * @param params - `error` and, for a refused credentials sign-in, `code`.
 * @param optIn - The configuration's opt-in routes, which are auth routes too when served.
 */
export function postingPage(referer: string | null, origin: string, basePath: string, params: URLSearchParams, optIn?: OptInRoutes): string | undefined {
  if (!referer) return undefined
  let page: URL
  try {
    page = new URL(referer)
  } catch {
    return undefined
  }
  if (page.origin !== origin || parseRoute(page.pathname, basePath, optIn)) return undefined
  // `https://app//evil.example/` is of the app's origin, but its path alone is another host's URL.
  if (page.pathname.startsWith("//")) return undefined
  for (const name of new Set(params.keys())) page.searchParams.delete(name)
  for (const [name, value] of params) page.searchParams.append(name, value)
  return `${page.pathname}${page.search}`
}
