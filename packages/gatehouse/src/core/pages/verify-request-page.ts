/**
 * The built-in page shown after a sign-in email has been sent: "check your email", and, for a
 * provider that sends codes (`code` on the provider), the form to type the code in.
 * @module
 */
import type { EmailConfig } from "../../providers/types.js"
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"
import { routeUrl, type PageContext } from "./page-context.js"
import { siteLink } from "./site-link.js"

/**
 * The verify-request page (`200`, title and heading "Check your email") and a link to the
 * site; with `?provider=<id>&email=<address>` of a provider with `code`, a labelled form posting
 * the code (`autocomplete="one-time-code"`) to that provider's callback.
 */
export function renderVerifyRequestPage(ctx: PageContext): ResponseInternal<string> {
  const codeForm = signInCodeForm(ctx)
  const body = codeForm
    ? `<h1>Check your email</h1><p>A sign-in code has been sent to your email address.</p>${codeForm}${siteLink(ctx)}`
    : "<h1>Check your email</h1><p>A sign-in link has been sent to your email address.</p>" + siteLink(ctx)
  const page = htmlResponse(renderPage({ title: "Check your email", theme: ctx.theme, body }))
  return codeForm ? { ...page, headers: { ...page.headers, "Cache-Control": "no-store" } } : page
}

/** The code form, when the page is for a provider that sends codes and names the address. */
function signInCodeForm(ctx: PageContext): string | undefined {
  const providerId = ctx.url.searchParams.get("provider")
  const email = ctx.url.searchParams.get("email")
  const provider = ctx.providers.find((candidate): candidate is EmailConfig => candidate.type === "email" && candidate.id === providerId)
  if (!provider || provider.code === undefined || !email) return undefined
  const digits = provider.code === true ? 6 : (provider.code.digits ?? 6)
  const error = ctx.url.searchParams.get("error")
  const alert = error ? `<p role="alert" id="code-error">That code did not work. Check it, or ask for a new one.</p>` : ""
  const csrf = ctx.csrfToken === undefined ? "" : `<input type="hidden" name="csrfToken" value="${escapeHtml(ctx.csrfToken)}">`
  return (
    alert +
    `<form method="post" action="${escapeHtml(routeUrl(ctx, `callback/${encodeURIComponent(provider.id)}`))}">` +
    csrf +
    `<input type="hidden" name="email" value="${escapeHtml(email)}">` +
    `<label for="code">Sign-in code sent to ${escapeHtml(email)}</label>` +
    `<input id="code" name="code" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9]{${digits}}" maxlength="${digits}" required${alert && ' aria-describedby="code-error"'}>` +
    `<button type="submit">Sign in</button></form>`
  )
}
