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

/** The provider the session came from, which the page offers to sign out of too. */
export interface ProviderSignOutChoice {
  id: string
  name: string
}

/**
 * The sign-out page (`200`, title "Sign out"): a confirmation form posting to `{base}/signout`.
 * With `provider` (the session came from an OIDC provider that offers RP-initiated logout), a
 * second button posts `provider` too, to end the session there as well.
 */
export function renderSignOutPage(ctx: PageContext, provider?: ProviderSignOutChoice): ResponseInternal<string> {
  const also = provider
    ? `<button type="submit" class="button" name="provider" value="${escapeHtml(provider.id)}">Sign out of ${escapeHtml(provider.name)} too</button>`
    : ""
  const body =
    "<h1>Sign out</h1><p>Are you sure you want to sign out?</p>" +
    `<form action="${escapeHtml(routeUrl(ctx, "signout"))}" method="POST">` +
    csrfInput(ctx) +
    '<button type="submit" class="button">Sign out</button>' +
    also +
    "</form>"
  return htmlResponse(renderPage({ title: "Sign out", theme: ctx.theme, body }))
}
