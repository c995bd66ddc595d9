/**
 * The page someone lands on after proving the address of an account nobody had proven it for,
 * when that took other ways in away from the account (see core/unproven-account.ts): they must
 * hear it, since a method they added themselves is gone too.
 * @module
 */
import type { Theme } from "../../types.js"
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"

/** What the page names. */
export interface MethodsRemovedNotice {
  /** The address just proven, when there is one. */
  email: string | null | undefined
  /** What was removed, as list items: `Your GitHub account`, `A passkey`, `A password`. */
  removed: readonly string[]
  /** Where "Continue" goes: the callback URL, already validated. */
  continueUrl: string
}

/** "Your address is confirmed" (`200`), listing what was removed, with a link onwards. */
export function renderMethodsRemovedPage(theme: Required<Theme>, notice: MethodsRemovedNotice): ResponseInternal<string> {
  const address = notice.email ? `<strong>${escapeHtml(notice.email)}</strong>` : "this address"
  const body =
    "<h1>Your address is confirmed</h1>" +
    `<p>Before you proved that ${address} is yours, other ways to sign in had been added to this account. ` +
    "Anyone could have added them, so they were removed and every other session of the account was signed out:</p>" +
    `<ul>${notice.removed.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>` +
    "<p>If you added them yourself, add them again now that you are signed in.</p>" +
    `<a class="button" href="${escapeHtml(notice.continueUrl)}">Continue</a>`
  const page = htmlResponse(renderPage({ title: "Address confirmed", theme, body }))
  return { ...page, headers: { ...page.headers, "Cache-Control": "no-store" } }
}
