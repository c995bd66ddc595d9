/**
 * `POST admin/impersonate` (`{ userId }`) and `POST admin/stop-impersonating`. (Seam: the
 * session-context part builds them.)
 * @module
 */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"

/** Serves the impersonation routes below `admin`. */
export async function impersonationRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  throw new UnknownAction(`Cannot handle action: ${ctx.request.method} admin/${(ctx.request.segments ?? []).join("/")}`)
}
