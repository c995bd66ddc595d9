/**
 * The admin routes below `admin` (served with `admin.routes`): JSON reads on GET, changes on POST
 * (CSRF-checked by the handler). Every one needs an admin's session.
 * @module
 */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"

/** Serves `{basePath}/admin/…`. */
export async function adminRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  throw new UnknownAction(`Cannot handle action: ${ctx.request.method} admin/${(ctx.request.segments ?? []).join("/")}`)
}
