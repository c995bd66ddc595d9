/**
 * The built-in page for a sign-in refused for now: `429` when attempts are throttled, `503` when
 * the server is too busy to check a password.
 * @module
 */
import type { Theme } from "../../types.js"
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"

/** What the retry-later page says and where its button goes. */
export interface RetryLaterParts {
  theme: Required<Theme>
  /** `429` (throttled) or `503` (busy). */
  status: 429 | 503
  /** Seconds until trying again makes sense. */
  retryAfter: number
  /** The sign-in page, with `?error=<type>` so it shows the reason too. */
  signInUrl: string
}

/**
 * "Too many attempts" (429) or "Server busy" (503), when to try again, and a button back to the
 * sign-in page. The same for every address or identifier, so it tells nothing about accounts.
 */
export function renderRetryLaterPage({ theme, status, retryAfter, signInUrl }: RetryLaterParts): ResponseInternal<string> {
  const [heading, reason] =
    status === 429
      ? ["Too many attempts", "There were too many sign-in attempts."]
      : ["Server busy", "The server is too busy to sign you in right now."]
  const body =
    `<h1>${heading}</h1><p>${reason}</p><p>Try again in ${waitText(retryAfter)}.</p>` +
    `<a class="button" href="${escapeHtml(signInUrl)}">Sign in</a>`
  return htmlResponse(renderPage({ title: heading, theme, body }), status)
}

/** `retryAfter` for people: seconds below two minutes, whole minutes (rounded up) beyond. */
function waitText(seconds: number): string {
  if (seconds < 120) return seconds === 1 ? "1 second" : `${seconds} seconds`
  return `${Math.ceil(seconds / 60)} minutes`
}
