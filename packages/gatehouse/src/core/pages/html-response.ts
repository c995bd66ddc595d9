/**
 * The response every built-in page returns.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"

/** An HTML document as an internal response; `Content-Type` without charset, as Auth.js sends it. */
export function htmlResponse(html: string, status = 200): ResponseInternal<string> {
  return { status, headers: { "Content-Type": "text/html" }, body: html }
}
