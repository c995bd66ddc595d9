/**
 * The link back to the application that several pages end with.
 * @module
 */
import { escapeHtml } from "./escape-html.js"
import type { PageContext } from "./page-context.js"

/** A link to the request's origin, labelled with its host. */
export function siteLink(ctx: PageContext): string {
  return `<p><a class="site" href="${escapeHtml(ctx.url.origin)}">${escapeHtml(ctx.url.host)}</a></p>`
}
