/**
 * The page a sign-in link opens under `confirmSignIn`, or in a browser other than the one that
 * asked for it: mail scanners open links too, so the link itself spends nothing, and a link
 * someone else asked for must not sign in silently; the button, a same-origin POST, signs in.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { csrfInput } from "./form-fields.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import { routeUrl, type PageContext } from "./page-context.js"

/** What the link carried, posted back by the button. */
export interface EmailLinkFields {
  providerId: string
  email: string
  token: string
  /** The link was opened in a browser other than the one that asked for it. */
  otherBrowser?: boolean
}

/** "Sign in as <email>" (`200`): a form posting the link's token back to the callback. */
export function renderConfirmEmailPage(ctx: PageContext, link: EmailLinkFields): ResponseInternal<string> {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`
  const explanation = link.otherBrowser
    ? "<p>This link was opened in a different browser from the one that asked for it. Continue only if you asked for " +
      "a sign-in link to this address yourself: a link someone else sent you signs you in to their account.</p>"
    : "<p>Press the button to finish signing in.</p>"
  const body =
    `<h1>Sign in as ${escapeHtml(link.email)}</h1>${explanation}` +
    `<form action="${escapeHtml(routeUrl(ctx, `callback/${encodeURIComponent(link.providerId)}`))}" method="POST">` +
    csrfInput(ctx) +
    hidden("token", link.token) +
    hidden("email", link.email) +
    hidden("callbackUrl", ctx.callbackUrl) +
    '<button type="submit" class="button">Sign in</button></form>'
  const page = htmlResponse(renderPage({ title: "Sign in", theme: ctx.theme, body }))
  // The token is in this page: keep it out of caches, out of the Referer of anything it loads, and
  // out of frames (a framing page could trick the click).
  const headers = {
    ...page.headers,
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
  }
  return { ...page, headers }
}
