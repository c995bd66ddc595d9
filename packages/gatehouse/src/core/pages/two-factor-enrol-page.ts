/**
 * The built-in enrolment pages, in the look of the sign-in page: setting up an authenticator app
 * (the QR code, the secret as text for those who cannot scan, the confirm form), then the
 * recovery codes to save, shown once. No script: plain forms and links, usable by keyboard and
 * screen reader.
 * @module
 */
import type { Theme } from "../../types.js"
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "./escape-html.js"
import { htmlResponse } from "./html-response.js"
import { renderPage } from "./layout.js"

/** What the enrolment page shows and where its form posts. */
export interface EnrolPageInput {
  /** The QR code as SVG markup (from `twoFactor.totp.qrCode`), or `null` to show the secret alone. */
  qr: string | null
  /** The secret in base32, grouped for reading. */
  secret: string
  /** The `otpauth://` URI, as a link for authenticator apps on the same device. */
  uri: string
  /** The enrolment's reference, posted back so a restarted enrolment is told apart. */
  ref: string
  /** `POST two-factor/totp/confirm`. */
  action: string
  csrfToken: string | undefined
  /** Where to go once the codes are saved, for a signed-in user (posted as `callbackUrl`). */
  callbackUrl?: string
  /** A sentence saying what went wrong with the last code. */
  error?: string
}

const NO_STORE_HEADERS = { "Cache-Control": "no-store", "Content-Security-Policy": "script-src 'none'; frame-ancestors 'none'" }

/** "Set up two-step verification": QR code, secret, code input. */
export function renderTwoFactorEnrolPage(theme: Required<Theme>, input: EnrolPageInput): ResponseInternal<string> {
  const error = input.error ? `<p role="alert" id="enrol-error" class="error">${escapeHtml(input.error)}</p>` : ""
  const qr = input.qr === null ? "" : `<div class="qr">${labelledSvg(input.qr)}</div>`
  const body =
    "<h1>Set up two-step verification</h1>" +
    "<p>Scan this code with an authenticator app, or enter the key below in it by hand.</p>" +
    qr +
    `<p>Key: <code id="totp-secret">${escapeHtml(input.secret)}</code></p>` +
    `<p><a href="${escapeHtml(input.uri)}">Open in an authenticator app on this device</a></p>` +
    error +
    `<form method="post" action="${escapeHtml(input.action)}">` +
    `<input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken ?? "")}">` +
    `<input type="hidden" name="ref" value="${escapeHtml(input.ref)}">` +
    (input.callbackUrl ? `<input type="hidden" name="callbackUrl" value="${escapeHtml(input.callbackUrl)}">` : "") +
    `<label for="code">The 6-digit code the app shows</label>` +
    `<input id="code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9 ]*" required${error && ' aria-invalid="true" aria-describedby="enrol-error"'}>` +
    `<button type="submit">Turn on</button></form>`
  const page = htmlResponse(renderPage({ title: "Set up two-step verification", theme, body }))
  return { ...page, headers: { ...page.headers, ...NO_STORE_HEADERS } }
}

/**
 * "Set up two-step verification" for a signed-in user, before any enrolment exists: one button
 * that posts (with the CSRF token) to `two-factor/totp`, which begins the enrolment and answers
 * the enrolment page. Showing the page begins nothing, so a link or a reload from elsewhere
 * cannot replace a key being set up.
 */
export function renderEnrolStartPage(theme: Required<Theme>, input: { action: string; csrfToken: string | undefined; callbackUrl?: string; error?: string }): ResponseInternal<string> {
  const body =
    "<h1>Set up two-step verification</h1>" +
    "<p>Add this account to an authenticator app. After your password, sign-in then asks for the code the app shows.</p>" +
    (input.error ? `<p role="alert" class="error">${escapeHtml(input.error)}</p>` : "") +
    `<form method="post" action="${escapeHtml(input.action)}">` +
    `<input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken ?? "")}">` +
    (input.callbackUrl ? `<input type="hidden" name="callbackUrl" value="${escapeHtml(input.callbackUrl)}">` : "") +
    `<button type="submit">Set up an authenticator app</button></form>`
  const page = htmlResponse(renderPage({ title: "Set up two-step verification", theme, body }))
  return { ...page, headers: { ...page.headers, ...NO_STORE_HEADERS } }
}

/** "Save your recovery codes": the new codes, once, and a link onwards. */
export function renderRecoveryCodesPage(theme: Required<Theme>, input: { recoveryCodes: readonly string[]; continueUrl: string; removed?: readonly string[] }): ResponseInternal<string> {
  const removed =
    input.removed && input.removed.length > 0
      ? "<h2>Other ways to sign in were removed</h2>" +
        "<p>Before you proved this address was yours, other ways to sign in had been added to this account. Anyone could have added them, so they were removed and every other session was signed out:</p>" +
        `<ul>${input.removed.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`
      : ""
  const codes =
    input.recoveryCodes.length === 0
      ? "<p>No recovery codes are made on this site.</p>"
      : "<p>Save these recovery codes somewhere safe. Each signs you in once if you lose your authenticator app. They are not shown again.</p>" +
        `<ul aria-label="Recovery codes">${input.recoveryCodes.map((code) => `<li><code>${escapeHtml(code)}</code></li>`).join("")}</ul>`
  const body = "<h1>Two-step verification is on</h1>" + codes + removed + `<a class="button" href="${escapeHtml(input.continueUrl)}">I have saved them, continue</a>`
  const page = htmlResponse(renderPage({ title: "Save your recovery codes", theme, body }))
  return { ...page, headers: { ...page.headers, ...NO_STORE_HEADERS } }
}

/**
 * The QR code's SVG with an accessible name, so a screen reader announces it as one image rather
 * than reading out its shapes. The markup is the library's own rendering of our URI.
 */
function labelledSvg(svg: string): string {
  return svg.replace(/^<svg\b/, '<svg role="img" aria-label="QR code to scan with an authenticator app" width="200" height="200"')
}
