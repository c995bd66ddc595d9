/**
 * The invitation routes: `organizations/<id>/invitations[/<invitationId>/revoke]`,
 * `organizations/invitation` (the page on GET, accept or decline on POST) and
 * `organizations/<id>/join` (joining by verified email domain). JSON in and out, refusals as
 * `{ error, message }` with their status; the invitation page's form gets pages and redirects.
 * POSTs reach here CSRF-checked by the handler.
 * @module
 */
import { ImpersonationRefused, InvalidRequest, InvitationInvalid, MissingCSRF, OrganizationNotFound, PermissionDenied, SessionRequired, UnknownAction } from "../../errors.js"
import { pageContextOf } from "../actions/page-context.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { answeringJson, type RefusalStatuses } from "../json-refusal.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import { isJsonRequest, postedCallbackUrl } from "../request-shape.js"
import { joinByDomain } from "./domain-join.js"
import { accept, decline, invite, pendingInvitations, revoke } from "./invitations.js"

const STATUSES: RefusalStatuses = [
  [SessionRequired, 401],
  [PermissionDenied, 403],
  [ImpersonationRefused, 403],
  [OrganizationNotFound, 404],
  [UnknownAction, 404],
  [InvitationInvalid, 410],
  [InvalidRequest, 400],
]

/** Serves the invitation and join routes below `organizations` (the segments after it). */
export async function invitationRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  const segments = ctx.request.segments ?? []
  const { method } = ctx.request
  if (segments.length === 1 && segments[0] === "invitation") {
    if (method === "GET") return (await import("./invitation-page.js")).invitationPage(ctx)
    return answerInvitation(ctx)
  }
  const [rawId, section, rawInvitationId, verb] = segments
  return answeringJson(
    ctx,
    STATUSES,
    async () => {
      const organizationId = decoded(rawId)
      if (section === "invitations" && segments.length === 2) {
        if (method === "GET") return jsonResponse({ invitations: await pendingInvitations(ctx, organizationId) }, { noCache: true })
        const body = ctx.request.body ?? {}
        const made = await invite(ctx, { organizationId, email: body.email, role: body.role })
        // The link goes to the inviter only when nobody emailed it: they send it themselves.
        return jsonResponse({ invitation: made.invitation, emailed: made.emailed, ...(!made.emailed && { url: made.url }) }, { noCache: true })
      }
      if (method === "POST" && section === "invitations" && segments.length === 4 && verb === "revoke") {
        return jsonResponse({ invitation: await revoke(ctx, organizationId, decoded(rawInvitationId)) }, { noCache: true })
      }
      if (method === "POST" && section === "join" && segments.length === 2) {
        return jsonResponse({ member: await joinByDomain(ctx, organizationId) }, { noCache: true })
      }
      throw new UnknownAction(`Cannot handle action: ${method} organizations/${segments.join("/")}`)
    },
    { message: true },
  )
}

/**
 * `POST organizations/invitation` with `token` and `decision` (`accept` or `decline`): a script
 * gets JSON; the page's form goes on to its `callbackUrl` (or the site), and a refused invitation
 * gets the page saying so.
 */
async function answerInvitation(ctx: RequestContext): Promise<ResponseInternal> {
  const body = ctx.request.body ?? {}
  // The CSRF token proves the post came from a page of this site; a browser also says so.
  const site = ctx.request.headers.get("sec-fetch-site")
  if (site !== null && site !== "same-origin") throw new MissingCSRF("The invitation answer was not posted from its page")
  const json = isJsonRequest(ctx.request)
  try {
    return await answeringJson(
      ctx,
      STATUSES,
      async () => {
        const { decision, token } = body
        let answer: Record<string, unknown>
        if (decision === "accept") answer = { ...(await accept(ctx, token)) }
        else if (decision === "decline") answer = { invitation: await decline(ctx, token) }
        else throw new InvalidRequest('The answer to an invitation needs decision "accept" or "decline"')
        if (!json) return { redirect: postedCallbackUrl(ctx) ?? ctx.origin }
        return jsonResponse(answer, { noCache: true })
      },
      { message: true, onlyFor: () => json },
    )
  } catch (error) {
    if (json || !(error instanceof InvitationInvalid)) throw error
    logError(ctx.logger, error)
    const { unusablePage } = await import("./invitation-page.js")
    return unusablePage(pageContextOf(ctx), "refused")
  }
}

/** A path segment as sent (percent-encoded), decoded; broken encoding is a bad request. */
function decoded(segment: string | undefined): string {
  if (segment === undefined || segment === "") throw new InvalidRequest("The route needs an organization id")
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new InvalidRequest("A path segment has broken percent-encoding")
  }
}
