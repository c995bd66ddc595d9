/**
 * The built-in sign-out confirmation page.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { csrfInput } from "./form-fields.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import { routeUrl, type PageContext } from "./page-context.js"

/** The sign-out page (`200`, title "Sign Out"): a confirmation form posting to `{base}/signout`. */
export function renderSignOutPage(ctx: PageContext): ResponseInternal<string> {
  const body =
    "<h1>Signout</h1><p>Are you sure you want to sign out?</p>" +
    `<form action="${escapeHtml(routeUrl(ctx, "signout"))}" method="POST">` +
    csrfInput(ctx) +
    '<button type="submit" class="button">Sign out</button></form>'
  return htmlResponse(renderPage({ title: "Sign Out", theme: ctx.theme, body }))
}
