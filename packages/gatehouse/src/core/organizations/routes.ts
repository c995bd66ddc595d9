/**
 * The organization routes below `organizations` (served with `organizations.routes`): JSON reads
 * on GET, changes on POST (CSRF-checked by the handler), for the signed-in user only. The
 * invitation and join routes go to `invitationRoutes`. Refusals are JSON with the error's type
 * and a 4xx status, never a redirect to the error page.
 * @module
 */
import {
  ImpersonationRefused,
  InvalidRequest,
  LastOwner,
  MissingCSRF,
  OrganizationNotFound,
  PermissionDenied,
  SessionRequired,
  SlugTaken,
  UnknownAction,
  UserNotFound,
} from "../../errors.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { answeringJson, type RefusalStatuses } from "../json-refusal.js"
import type { RequestContext } from "../request-context.js"
import { invitationRoutes } from "./invitation-routes.js"
import { changeMemberRole, leave, listMembersOf, removeMemberOf } from "./members.js"
import {
  auditLogFor,
  createOrganizationFor,
  deleteOrganizationOf,
  organizationFor,
  organizationsOf,
  setActiveOrganizationOf,
  updateOrganizationOf,
} from "./organization-actions.js"
import { signedInActor } from "./signed-in-actor.js"

const STATUS: RefusalStatuses = [
  [SessionRequired, 401],
  [MissingCSRF, 403],
  [ImpersonationRefused, 403],
  [PermissionDenied, 403],
  [OrganizationNotFound, 404],
  [UserNotFound, 404],
  [UnknownAction, 404],
  [SlugTaken, 409],
  [LastOwner, 409],
  [InvalidRequest, 400],
]

/** Serves `{basePath}/organizations/…`. */
export async function organizationRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  const segments = ctx.request.segments ?? []
  const [first, second] = segments
  if (first === "invitation" || second === "invitations" || (second === "join" && segments.length === 2)) return invitationRoutes(ctx)
  // The type only: `allowCreate` and `loadRole` are the app's, and may throw with internal messages.
  return answeringJson(ctx, STATUS, () => route(ctx, segments.map(decoded)))
}

async function route(ctx: RequestContext, segments: string[]): Promise<ResponseInternal> {
  const { method } = ctx.request
  const actor = await signedInActor(ctx)
  const { user } = actor
  const body = ctx.request.body ?? {}
  const query = ctx.request.query
  const [id, part, userId, last] = segments
  const answer = <T>(value: T) => jsonResponse(value, { noCache: true })
  // An impersonating admin reads what the user sees and may switch the active organization; nothing else.
  if (actor.impersonatorId !== null && method !== "GET" && !(id === "active" && part === undefined)) {
    throw new ImpersonationRefused("An impersonating admin cannot change organizations or members in the user's name")
  }
  if (id === undefined) {
    if (method === "GET") return answer({ organizations: await organizationsOf(ctx, user.id) })
    return answer({ organization: await createOrganizationFor(ctx, user, { name: body.name, slug: body.slug }) })
  }
  if (id === "active" && part === undefined && method === "POST") {
    // A form cannot send null: its empty field clears the active organization.
    const organizationId = body.organizationId === "" || body.organizationId === null ? null : body.organizationId
    const cookies = await setActiveOrganizationOf(ctx, user.id, organizationId)
    return jsonResponse({ activeOrganizationId: organizationId }, { noCache: true, cookies })
  }
  if (part === undefined) {
    if (method === "GET") return answer({ organization: await organizationFor(ctx, user.id, id) })
    return answer({ organization: await updateOrganizationOf(ctx, user.id, id, { name: body.name, slug: body.slug, policy: body.policy }) })
  }
  if (method === "POST" && part === "delete" && userId === undefined) {
    await deleteOrganizationOf(ctx, user.id, id)
    return answer({ deleted: true })
  }
  if (method === "POST" && part === "leave" && userId === undefined) {
    await leave(ctx, user.id, id)
    return answer({ left: true })
  }
  if (method === "GET" && part === "audit" && userId === undefined) {
    return answer(await auditLogFor(ctx, user.id, { organizationId: id, before: query.before, limit: query.limit, action: query.action }))
  }
  if (part === "members") {
    if (method === "GET" && userId === undefined) return answer(await listMembersOf(ctx, user.id, id, { after: query.after, limit: query.limit, search: query.search }))
    if (method === "POST" && userId !== undefined && last === undefined) return answer({ member: await changeMemberRole(ctx, user.id, id, userId, body.role) })
    if (method === "POST" && userId !== undefined && last === "remove") {
      await removeMemberOf(ctx, user.id, id, userId)
      return answer({ removed: true })
    }
  }
  throw new UnknownAction(`Cannot handle action: ${method} organizations/${segments.join("/")}`)
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new InvalidRequest("A path segment is not valid percent-encoding")
  }
}
