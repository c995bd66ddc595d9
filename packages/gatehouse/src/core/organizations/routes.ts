/**
 * The organization routes below `organizations` (served with `organizations.routes`): JSON reads
 * on GET, changes on POST (CSRF-checked by the handler), and the invitation page.
 * @module
 */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"

/** Serves `{basePath}/organizations/…`. */
export async function organizationRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  throw new UnknownAction(`Cannot handle action: ${ctx.request.method} organizations/${(ctx.request.segments ?? []).join("/")}`)
}
