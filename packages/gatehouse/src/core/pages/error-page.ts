/**
 * The built-in error page; its status depends on the `error` query parameter.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import { routeUrl, type PageContext } from "./page-context.js"
import { siteLink } from "./site-link.js"

/**
 * The error page (title "Error"): `Configuration` → 500 "Server error"; `AccessDenied` → 403 and
 * `Verification` → 403, both with a Sign in button; `InvalidCheck`, `InvalidProvider` and
 * `UnknownAction` (the request's own fault) → 400 with a Sign in button; any other code, or none
 * → 200 with a link to the site. Unlike Auth.js, the button points at the sign-in page itself (`pages.signIn` when
 * configured), not at the current URL with `/signin` appended.
 */
export function renderErrorPage(ctx: PageContext, error: string | undefined): ResponseInternal<string> {
  const { status, body } = errorContent(ctx, error)
  return htmlResponse(renderPage({ title: "Error", theme: ctx.theme, body }), status)
}

function errorContent(ctx: PageContext, error: string | undefined): { status: number; body: string } {
  switch (error) {
    case "Configuration":
      return {
        status: 500,
        body:
          "<h1>Server error</h1><p>There is a problem with the server configuration.</p>" +
          "<p>Check the server logs for more information.</p>",
      }
    case "AccessDenied":
      return {
        status: 403,
        body: "<h1>Access denied</h1><p>You do not have permission to sign in.</p>" + signInButton(ctx),
      }
    case "Verification":
      return {
        status: 403,
        body:
          "<h1>Unable to sign in</h1><p>The sign in link is no longer valid.</p>" +
          "<p>It may have been used already or it may have expired.</p>" +
          signInButton(ctx),
      }
    // What the request itself got wrong (Gatehouse's codes; Auth.js shows these as Configuration).
    case "InvalidCheck":
    case "InvalidProvider":
    case "UnknownAction":
      return {
        status: 400,
        body:
          "<h1>Unable to sign in</h1><p>This sign-in request could not be completed. It may have been started in another " +
          "browser or tab, or taken too long.</p><p>Please start again.</p>" +
          signInButton(ctx),
      }
    default:
      return { status: 200, body: "<h1>Error</h1>" + siteLink(ctx) }
  }
}

function signInButton(ctx: PageContext): string {
  const href = ctx.pages.signIn || routeUrl(ctx, "signin")
  return `<a class="button" href="${escapeHtml(href)}">Sign in</a>`
}
