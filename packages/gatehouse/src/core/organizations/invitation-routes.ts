/**
 * The invitation routes: `organizations/<id>/invitations[/<invitationId>/revoke]`,
 * `organizations/invitation` (the page on GET, accept or decline on POST) and
 * `organizations/<id>/join` (joining by verified email domain). (Seam: the invitations part builds them.)
 * @module
 */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"

/** Serves the invitation and join routes below `organizations`. */
export async function invitationRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  throw new UnknownAction(`Cannot handle action: ${ctx.request.method} organizations/${(ctx.request.segments ?? []).join("/")}`)
}
