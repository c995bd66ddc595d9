/**
 * The admin routes below `admin` (served with `admin.routes`): JSON reads on GET, changes on POST
 * (CSRF-checked by the handler). Every one needs an admin's session; refusals are JSON with the
 * error's type and status (401 signed out, 403 not an admin or not allowed, 404 no such user,
 * 409 last owner, 400 bad input).
 *
 * | Route | Does |
 * |---|---|
 * | `GET admin/users?search=&after=&limit=` | a page of users |
 * | `GET admin/users/<userId>` | the user, status, sessions, accounts, memberships |
 * | `POST admin/users/<userId>/ban` `{ reason?, expiresAt? }` | ban |
 * | `POST admin/users/<userId>/unban` | lift the ban |
 * | `POST admin/users/<userId>/role` `{ role }` | set the role (`null` clears it) |
 * | `POST admin/users/<userId>/password` `{ password }` | set the password (`admin.setPassword`) |
 * | `POST admin/users/<userId>/revoke-sessions` | end every session |
 * | `POST admin/users/<userId>/delete` | delete the user |
 * | `GET admin/audit?before=&limit=&action=&actorId=&organizationId=` | the audit log, `{ entries, nextCursor }` (as `listAuditLog`) |
 * | `POST admin/impersonate`, `POST admin/stop-impersonating` | impersonation (`impersonation-routes.ts`) |
 * @module
 */
import { InvalidRequest, LastOwner, PermissionDenied, SessionRequired, UnknownAction, UserNotFound } from "../../errors.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { answeringJson, type RefusalStatuses } from "../json-refusal.js"
import type { RequestContext } from "../request-context.js"

const STATUS: RefusalStatuses = [
  [SessionRequired, 401],
  [PermissionDenied, 403],
  [UserNotFound, 404],
  [LastOwner, 409],
  [InvalidRequest, 400],
]

/** The changes a user's page takes, by the last segment of `admin/users/<userId>/<change>`. */
const CHANGES = ["ban", "unban", "role", "password", "revoke-sessions", "delete"] as const
type Change = (typeof CHANGES)[number]

/** Serves `{basePath}/admin/…`. */
export async function adminRoutes(ctx: RequestContext): Promise<ResponseInternal> {
  const segments = ctx.request.segments ?? []
  const [first, userSegment, change, ...rest] = segments
  if ((first === "impersonate" || first === "stop-impersonating") && segments.length === 1) return (await import("./impersonation-routes.js")).impersonationRoutes(ctx)
  const method = ctx.request.method
  if (rest.length === 0 && first === "users" && method === "GET" && userSegment === undefined) {
    return answering(ctx, async () => {
      const { search, after, limit } = ctx.request.query
      const page = await (await import("./users.js")).searchUsersPage(ctx, { ...(search !== undefined && { search }), ...(after !== undefined && { after }), ...(limit !== undefined && { limit: pageLimit(limit) }) })
      return jsonResponse(page, { noCache: true })
    })
  }
  if (rest.length === 0 && first === "users" && method === "GET" && userSegment !== undefined && change === undefined) {
    return answering(ctx, async () => jsonResponse(await (await import("./users.js")).userDetails(ctx, userIdOf(userSegment)), { noCache: true }))
  }
  if (rest.length === 0 && first === "users" && method === "POST" && userSegment !== undefined && isChange(change)) {
    return answering(ctx, () => changeUser(ctx, userIdOf(userSegment), change))
  }
  if (segments.length === 1 && first === "audit" && method === "GET") {
    return answering(ctx, async () => {
      // The one reader of the audit log (and its cursor) the organizations' routes use too; the
      // admin is asked first, so a banned or signed-out one is refused before anything is read.
      const [{ actingAdmin }, { auditLogFor }] = await Promise.all([import("./acting-admin.js"), import("../organizations/organization-actions.js")])
      const admin = await actingAdmin(ctx)
      const { organizationId, actorId, action, before, limit } = ctx.request.query
      return jsonResponse(await auditLogFor(ctx, admin.id, { organizationId, actorId, action, before, limit }), { noCache: true })
    })
  }
  throw new UnknownAction(`Cannot handle action: ${method} admin/${segments.join("/")}`)
}

async function changeUser(ctx: RequestContext, userId: string | undefined, change: Change): Promise<ResponseInternal> {
  const body = ctx.request.body ?? {}
  if (change === "delete") return jsonResponse(await (await import("./delete-user.js")).deleteUserAs(ctx, userId), { noCache: true })
  const actions = await import("./user-actions.js")
  switch (change) {
    case "ban":
      return jsonResponse({ status: await actions.banUserAs(ctx, userId, { reason: body.reason as string | undefined, expiresAt: body.expiresAt as string | undefined }) }, { noCache: true })
    case "unban":
      return jsonResponse({ status: await actions.unbanUserAs(ctx, userId) }, { noCache: true })
    case "role":
      return jsonResponse({ status: await actions.setUserRoleAs(ctx, userId, body.role === "" ? null : body.role) }, { noCache: true })
    case "password":
      await actions.setUserPasswordAs(ctx, userId, body.password)
      return jsonResponse({ ok: true }, { noCache: true })
    case "revoke-sessions":
      await actions.revokeUserSessionsAs(ctx, userId)
      return jsonResponse({ ok: true }, { noCache: true })
  }
}

function isChange(segment: string | undefined): segment is Change {
  return (CHANGES as readonly (string | undefined)[]).includes(segment)
}

/**
 * A path segment as the id it names (segments arrive as sent, percent-encoded); `undefined` for
 * one that does not decode, which names no user (refused as such once the admin is known).
 */
function userIdOf(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** `limit` from the query: digits as a number, anything else as NaN, which the page refuses once the admin is known. */
function pageLimit(limit: string): number {
  return /^\d{1,3}$/.test(limit) ? Number(limit) : Number.NaN
}

function answering(ctx: RequestContext, run: () => Promise<ResponseInternal>): Promise<ResponseInternal> {
  return answeringJson(ctx, STATUS, run, { message: true })
}
