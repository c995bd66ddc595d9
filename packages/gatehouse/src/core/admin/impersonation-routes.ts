/**
 * `POST admin/impersonate` (`{ userId }`) and `POST admin/stop-impersonating` (served with
 * `admin.routes`; the handler checked CSRF). JSON in, JSON out: `{ impersonatedBy }` on a start,
 * `{ stopped: true }` on a stop, with the session cookies set; refusals as `{ error }` with
 * their status.
 * @module
 */
import { ImpersonationRefused, InvalidRequest, PermissionDenied, SessionRequired, UnknownAction, UserNotFound } from "../../errors.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { answeringJson, type RefusalStatuses } from "../json-refusal.js"
import type { RequestContext } from "../request-context.js"

const STATUS: RefusalStatuses = [
  [SessionRequired, 401],
  [PermissionDenied, 403],
  [ImpersonationRefused, 403],
  [UserNotFound, 404],
  [InvalidRequest, 400],
]

/** Serves the impersonation routes below `admin`. */
export async function impersonationRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  const [route, ...rest] = ctx.request.segments ?? []
  if (ctx.request.method !== "POST" || rest.length > 0 || (route !== "impersonate" && route !== "stop-impersonating")) {
    throw new UnknownAction(`Cannot handle action: ${ctx.request.method} admin/${(ctx.request.segments ?? []).join("/")}`)
  }
  const impersonation = await import("./impersonation.js")
  return answeringJson(ctx, STATUS, async () => {
    if (route === "impersonate") {
      const { cookies, impersonatedBy } = await impersonation.startImpersonation(ctx, ctx.request.body?.userId)
      return jsonResponse({ impersonatedBy }, { noCache: true, cookies })
    }
    return jsonResponse({ stopped: true }, { noCache: true, cookies: await impersonation.stopImpersonation(ctx) })
  })
}
