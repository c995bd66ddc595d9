/**
 * The built-in invitation page (`GET organizations/invitation?token=`), in the look of the sign-in
 * page: the organization and role, and Accept / Decline for the invited user. Opening it changes
 * nothing (mail scanners open links); the buttons post the token back with the CSRF token.
 * @module
 */
import type { AdapterInvitation, AdapterOrganization, AdapterUser } from "../../adapters/index.js"
import { pageContextOf } from "../actions/page-context.js"
import type { ResponseInternal } from "../internal-response.js"
import { escapeHtml } from "../pages/escape-html.js"
import { csrfInput, hiddenInput } from "../pages/form-fields.js"
import { htmlResponse } from "../pages/html-response.js"
import { renderPage } from "../pages/layout.js"
import { routeUrl, type PageContext } from "../pages/page-context.js"
import { siteLink } from "../pages/site-link.js"
import { pageUrl, type RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { invitationByToken, isInvitee, type InvitationUnusable } from "./invitations.js"

const UNUSABLE: Readonly<Record<InvitationUnusable | "refused", string>> = {
  unknown: "This invitation link is not valid. Ask for a new invitation.",
  expired: "This invitation has expired. Ask for a new invitation.",
  answered: "This invitation was already accepted, declined or revoked.",
  refused: "This invitation cannot be answered: it expired, was already answered or revoked, or was sent to another address than yours.",
}

/** `GET organizations/invitation?token=`: the page for the invitation the token opens. */
export async function invitationPage(ctx: RequestContext): Promise<ResponseInternal<string>> {
  const page = pageContextOf(ctx)
  const token = ctx.request.query.token
  const found = await invitationByToken(ctx, token)
  if ("unusable" in found) return unusablePage(page, found.unusable)
  return openInvitationPage(ctx, page, found.invitation, found.organization, String(token))
}

/** The page saying an invitation cannot be answered (`410`); `refused`: an answer posted for it was. */
export function unusablePage(page: PageContext, why: InvitationUnusable | "refused"): ResponseInternal<string> {
  const body = `<h1>Invitation</h1><p>${escapeHtml(UNUSABLE[why])}</p>${siteLink(page)}`
  return guarded(htmlResponse(renderPage({ title: "Invitation", theme: page.theme, body }), 410))
}

async function openInvitationPage(ctx: RequestContext, page: PageContext, invitation: AdapterInvitation, organization: AdapterOrganization, token: string): Promise<ResponseInternal<string>> {
  const heading = `<h1>Join ${escapeHtml(organization.name)}</h1><p>You are invited to join ${escapeHtml(organization.name)} as ${escapeHtml(invitation.role)}.</p>`
  const user: AdapterUser | null = await currentUser(ctx)
  let action: string
  if (!user) {
    // Back to this page once signed in, where the buttons are.
    const signIn = pageUrl(ctx, "signIn", "signin", new URLSearchParams({ callbackUrl: ctx.request.url.href }))
    action = `<p>The invitation was sent to ${escapeHtml(invitation.email)}.</p><a class="button" href="${escapeHtml(signIn)}">Sign in to accept</a>`
  } else if (!isInvitee(user, invitation)) {
    const signOut = routeUrl(page, "signout")
    const unproven = typeof user.email === "string" && user.email.toLowerCase() === invitation.email.toLowerCase()
    action = unproven
      ? `<p>The invitation was sent to ${escapeHtml(invitation.email)}, but this account has not proven that address. Sign in with a link sent to it, then open the invitation again.</p>`
      : `<p>The invitation was sent to ${escapeHtml(invitation.email)}, and you are signed in as ${escapeHtml(user.email ?? "another user")}. Sign in as ${escapeHtml(invitation.email)} to answer it.</p>`
    action += `<a class="button" href="${escapeHtml(signOut)}">Sign out</a>`
  } else {
    action =
      `<form action="${escapeHtml(routeUrl(page, "organizations/invitation"))}" method="POST">` +
      csrfInput(page) +
      hiddenInput("token", token) +
      (typeof ctx.request.query.callbackUrl === "string" && ctx.request.query.callbackUrl !== "" ? hiddenInput("callbackUrl", ctx.callbackUrl) : "") +
      '<button type="submit" class="button" name="decision" value="accept">Accept</button>' +
      '<button type="submit" class="button" name="decision" value="decline">Decline</button>' +
      "</form>"
  }
  return guarded(htmlResponse(renderPage({ title: "Invitation", theme: page.theme, body: heading + action })))
}

/**
 * The headers of a page whose URL or form holds an invitation token: kept out of caches, out of
 * the `Referer` of anything it links to, and out of frames (a framing page could trick the click).
 */
function guarded(page: ResponseInternal<string>): ResponseInternal<string> {
  return {
    ...page,
    headers: {
      ...page.headers,
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "Content-Security-Policy": "frame-ancestors 'none'",
      "X-Frame-Options": "DENY",
    },
  }
}
