/**
 * The built-in page shown after a sign-in link has been emailed.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import type { PageContext } from "./page-context.js"
import { siteLink } from "./site-link.js"

/** The verify-request page (`200`, title "Verify Request"): "Check your email" and a link to the site. */
export function renderVerifyRequestPage(ctx: PageContext): ResponseInternal<string> {
  const body =
    "<h1>Check your email</h1><p>A sign in link has been sent to your email address.</p>" + siteLink(ctx)
  return htmlResponse(renderPage({ title: "Verify Request", theme: ctx.theme, body }))
}
