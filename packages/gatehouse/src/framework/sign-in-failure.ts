/**
 * Where a failed server-side sign-in or sign-out sends the browser, for integrations whose form
 * actions answer with a redirect rather than throw to the app.
 * @module
 */
import { postingPage } from "../core/posting-page.js"
import { AuthError, CredentialsSignin } from "../errors.js"
import type { AuthConfig } from "../types.js"
import type { SettledBasePath } from "./prepare-config.js"

/** The request a failed action was posted with. */
export interface FailedActionRequest {
  /** The origin the app answers on (`AUTH_URL`'s, else the framework's view of the request). */
  origin: string
  /** The request's `Referer`: the page the form was on. */
  referer: string | null
  /** Where the sign-in was to go once done; kept on the sign-in page, so a second try goes there too. */
  callbackUrl: string
}

/**
 * The page for a failed action, as a path (never the request's host: the failure may be an
 * untrusted host), as the auth routes would send it: a sign-in failure goes to `pages.signIn`
 * when set, else back to the app's own page the form was posted from (its `Referer`, when that is
 * an app page and not an auth route), else to the built-in sign-in page; anything else to
 * `pages.error` or the built-in error page. `error` names the error's type when it is client-safe
 * (`Configuration` otherwise) and `code` a `CredentialsSignin`'s code; the sign-in pages also
 * get `callbackUrl`, except the posting page, which keeps its own query.
 *
 * @example A form action
 * ```ts
 * try {
 *   const { redirect } = await runServerAction(ready.config, { action: "callback", providerId: "credentials", origin, headers, fields })
 *   return redirectTo(redirect)
 * } catch (error) {
 *   if (!(error instanceof AuthError)) throw error
 *   return redirectTo(signInFailurePage(ready.config, error, { origin, referer: headers.get("referer"), callbackUrl: "/" }))
 * }
 * ```
 */
export function signInFailurePage(config: AuthConfig & SettledBasePath, error: AuthError, request: FailedActionRequest): string {
  const params = new URLSearchParams({ error: error.clientSafe ? error.type : "Configuration" })
  if (error instanceof CredentialsSignin) params.set("code", String(error.code))
  const base = config.basePath.replace(/\/+$/, "")
  const { pages } = config
  if (error.kind !== "signIn") return withQuery(pages?.error ?? `${base}/error`, params)
  if (!pages?.signIn) {
    const own = postingPage(request.referer, request.origin, config.basePath, params, config)
    if (own) return own
  }
  params.set("callbackUrl", request.callbackUrl)
  return withQuery(pages?.signIn ?? `${base}/signin`, params)
}

function withQuery(page: string, params: URLSearchParams): string {
  return `${page}${page.includes("?") ? "&" : "?"}${params}`
}
