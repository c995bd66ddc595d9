/**
 * What every built-in page needs to know about the request and the configuration.
 * @module
 */
import type { PagesOptions, Theme } from "../../types.js"
import type { ProviderConfig } from "../../providers/types.js"
import { authUrl } from "../auth-url.js"

/** The inputs of the built-in pages, gathered once by the page handler. */
export interface PageContext {
  /** The request URL. */
  url: URL
  /** Where the auth routes are mounted, e.g. `/auth`; no trailing slash, may be `/`. */
  basePath: string
  /** The configured theme; `""` means unset for `logo`, `brandColor` and `buttonText`. */
  theme: Required<Theme>
  pages: Partial<PagesOptions>
  /** `undefined` when CSRF checks are skipped: the hidden field is then left out. */
  csrfToken: string | undefined
  /** Where to go after signing in, already validated. */
  callbackUrl: string
  providers: readonly ProviderConfig[]
}

/**
 * The absolute URL of an auth route on the request's origin, e.g. `routeUrl(ctx, "signin/github")`
 * → `https://app.test/auth/signin/github`. Not escaped.
 */
export function routeUrl(ctx: PageContext, path: string): string {
  return authUrl(ctx.url.origin, ctx.basePath, path)
}
