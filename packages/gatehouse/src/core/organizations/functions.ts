/**
 * The organizations' server functions: the same as the opt-in organization routes, called from
 * the application's own server code for the session a request carries (no route, no CSRF token:
 * the application's own form handling protects its forms). Each needs `organizations`
 * configured and a signed-in user, checks the user's role in the organization, and fails closed.
 * During an impersonation the reads and `setActiveOrganization` work; changes are refused.
 * @module
 */
import type { AdapterMember, AdapterMembership, AdapterOrganization, AdapterUser } from "../../adapters/index.js"
import { serializeCookie } from "../../cookies/serialize.js"
import type { AuthConfig } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import type { SessionRequest } from "../request-session.js"
import type { MemberPage, MemberPageOptions } from "./members.js"
import type { AuditLogEntry, AuditLogPage, AuditLogQuery, NewOrganization, OrganizationDetails, OrganizationPatch } from "./organization-actions.js"

export type { AuditLogEntry, AuditLogPage, AuditLogQuery, MemberPage, MemberPageOptions, NewOrganization, OrganizationDetails, OrganizationPatch }

/** One of the user's organizations, with their role there and when they joined. */
export type OrganizationMembership = AdapterMembership

/** What {@link setActiveOrganization} did. */
export interface ActiveOrganizationSet {
  /** `Set-Cookie` values to send with the response (the JWT session cookie, written again; none under database sessions). */
  setCookies: string[]
}

// Loaded on first use: every app imports this module with `gatehouse-auth`, few call these.
const organizations = () => import("./organization-actions.js")
const members = () => import("./members.js")

/**
 * The request's context and the user it acts as. `change`: the call changes something, which an
 * impersonating admin may not do in the user's name (`ImpersonationRefused`).
 */
async function actingAs(request: SessionRequest, config: AuthConfig, change: boolean): Promise<{ ctx: RequestContext; user: AdapterUser; userId: string }> {
  const ctx = await (await import("../request-session.js")).sessionRequestContext(request, config)
  const actors = await import("./signed-in-actor.js")
  const user = change ? await actors.changingActor(ctx) : (await actors.signedInActor(ctx)).user
  return { ctx, user, userId: user.id }
}

/**
 * Creates an organization; the signed-in user becomes its owner (when `organizations.allowCreate`
 * lets them). Recorded in the audit log.
 *
 * @throws {SessionRequired} without a session; `PermissionDenied` when `allowCreate` refuses;
 *   `SlugTaken` when another organization has the slug; `InvalidRequest` for a blank name or a
 *   slug that is not lower-case letters, digits and inner hyphens.
 * @example
 * ```ts
 * import { createOrganization } from "gatehouse-auth"
 *
 * const organization = await createOrganization(request, authConfig, { name: "Acme", slug: "acme" })
 * ```
 */
export async function createOrganization(request: SessionRequest, config: AuthConfig, organization: NewOrganization): Promise<AdapterOrganization> {
  const { ctx, user } = await actingAs(request, config, true)
  return (await organizations()).createOrganizationFor(ctx, user, organization)
}

/**
 * Changes an organization's name, slug or policy (needs `organization:update`).
 *
 * @throws {OrganizationNotFound} when the user is no member (or there is no such organization);
 *   `PermissionDenied` without the permission; `SlugTaken`; `InvalidRequest` for bad fields.
 * @example
 * ```ts
 * import { updateOrganization } from "gatehouse-auth"
 *
 * await updateOrganization(request, authConfig, organizationId, { name: "Acme Inc.", policy: { requireTwoFactor: true } })
 * ```
 */
export async function updateOrganization(request: SessionRequest, config: AuthConfig, organizationId: string, patch: OrganizationPatch): Promise<AdapterOrganization> {
  const { ctx, userId } = await actingAs(request, config, true)
  return (await organizations()).updateOrganizationOf(ctx, userId, organizationId, patch)
}

/**
 * Deletes an organization with its members and invitations (needs `organization:delete`: owners).
 * Its audit entries stay.
 *
 * @throws {OrganizationNotFound} for a non-member; `PermissionDenied` without the permission.
 * @example
 * ```ts
 * import { deleteOrganization } from "gatehouse-auth"
 *
 * await deleteOrganization(request, authConfig, organizationId)
 * ```
 */
export async function deleteOrganization(request: SessionRequest, config: AuthConfig, organizationId: string): Promise<void> {
  const { ctx, userId } = await actingAs(request, config, true)
  await (await organizations()).deleteOrganizationOf(ctx, userId, organizationId)
}

/**
 * An organization the signed-in user is a member of, with their role, permissions and the
 * policy requirements their session does not meet.
 *
 * @throws {OrganizationNotFound} for a non-member (whether or not the organization exists).
 * @example
 * ```ts
 * import { getOrganization } from "gatehouse-auth"
 *
 * const organization = await getOrganization(request, authConfig, params.id)
 * ```
 */
export async function getOrganization(request: SessionRequest, config: AuthConfig, organizationId: string): Promise<OrganizationDetails> {
  const { ctx, userId } = await actingAs(request, config, false)
  return (await organizations()).organizationFor(ctx, userId, organizationId)
}

/**
 * The signed-in user's organizations, with their role in each, oldest membership first.
 *
 * @throws {SessionRequired} without a session.
 * @example
 * ```ts
 * import { listOrganizations } from "gatehouse-auth"
 *
 * for (const { organization, role } of await listOrganizations(request, authConfig)) console.log(organization.name, role)
 * ```
 */
export async function listOrganizations(request: SessionRequest, config: AuthConfig): Promise<OrganizationMembership[]> {
  const { ctx, userId } = await actingAs(request, config, false)
  return (await organizations()).organizationsOf(ctx, userId)
}

/**
 * A page of an organization's members (any member may read it), oldest first, with their name,
 * email and image; continue with `after: page.nextCursor`.
 *
 * @throws {OrganizationNotFound} for a non-member; `PermissionDenied` while the session does not
 *   meet the organization's policy; `InvalidRequest` for a cursor this server did not give or a
 *   limit outside 1–100.
 * @example
 * ```ts
 * import { listMembers } from "gatehouse-auth"
 *
 * const page = await listMembers(request, authConfig, organizationId, { limit: 50, search: "ada" })
 * const next = page.nextCursor && (await listMembers(request, authConfig, organizationId, { after: page.nextCursor }))
 * ```
 */
export async function listMembers(request: SessionRequest, config: AuthConfig, organizationId: string, options: MemberPageOptions = {}): Promise<MemberPage> {
  const { ctx, userId } = await actingAs(request, config, false)
  return (await members()).listMembersOf(ctx, userId, organizationId, options)
}

/**
 * Gives a member another role (needs `member:update`). Nobody changes their own role; only an
 * owner makes or changes an owner; nobody grants a role that can do more than theirs; the last
 * owner stays an owner.
 *
 * @throws {OrganizationNotFound} for a non-member; `PermissionDenied` as above; `UserNotFound` when
 *   the target is no member; `LastOwner`; `InvalidRequest` for a role nobody defined.
 * @example
 * ```ts
 * import { updateMemberRole } from "gatehouse-auth"
 *
 * await updateMemberRole(request, authConfig, organizationId, memberUserId, "admin")
 * ```
 */
export async function updateMemberRole(request: SessionRequest, config: AuthConfig, organizationId: string, userId: string, role: string): Promise<AdapterMember> {
  const signed = await actingAs(request, config, true)
  return (await members()).changeMemberRole(signed.ctx, signed.userId, organizationId, userId, role)
}

/**
 * Removes a member (needs `member:remove`; an owner only by an owner; the last owner never).
 *
 * @throws {OrganizationNotFound} for a non-member; `PermissionDenied`; `UserNotFound`;
 *   `LastOwner`; `InvalidRequest` for the user themselves (see {@link leaveOrganization}).
 * @example
 * ```ts
 * import { removeMember } from "gatehouse-auth"
 *
 * await removeMember(request, authConfig, organizationId, memberUserId)
 * ```
 */
export async function removeMember(request: SessionRequest, config: AuthConfig, organizationId: string, userId: string): Promise<void> {
  const signed = await actingAs(request, config, true)
  await (await members()).removeMemberOf(signed.ctx, signed.userId, organizationId, userId)
}

/**
 * The signed-in user leaves an organization (not its last owner).
 *
 * @throws {OrganizationNotFound} for a non-member; `LastOwner` for its last owner.
 * @example
 * ```ts
 * import { leaveOrganization } from "gatehouse-auth"
 *
 * await leaveOrganization(request, authConfig, organizationId)
 * ```
 */
export async function leaveOrganization(request: SessionRequest, config: AuthConfig, organizationId: string): Promise<void> {
  const { ctx, userId } = await actingAs(request, config, true)
  await (await members()).leave(ctx, userId, organizationId)
}

/**
 * Makes one of the user's organizations the session's active one (`session.activeOrganization`),
 * or clears it with `null`. One indexed query, no member list read. Send `setCookies` with the
 * response (under JWT sessions the cookie carries the organization's id).
 *
 * @throws {OrganizationNotFound} for an organization the user is no member of.
 * @example
 * ```ts
 * import { setActiveOrganization } from "gatehouse-auth"
 *
 * const { setCookies } = await setActiveOrganization(request, authConfig, organizationId)
 * for (const line of setCookies) response.headers.append("set-cookie", line)
 * ```
 */
export async function setActiveOrganization(request: SessionRequest, config: AuthConfig, organizationId: string | null): Promise<ActiveOrganizationSet> {
  const { ctx, userId } = await actingAs(request, config, false)
  const cookies = await (await organizations()).setActiveOrganizationOf(ctx, userId, organizationId)
  return { setCookies: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
}

/**
 * A page of the audit log, newest first: one organization's (for its members whose role has
 * `audit:read`, owners and admins by default, and for Gatehouse admins), or every entry (Gatehouse
 * admins, `admin` configured, only); filter by actor or action; continue with
 * `before: page.nextCursor`. Entries carry the client's `ip` and `userAgent` for Gatehouse admins only.
 *
 * @throws {OrganizationNotFound} for a non-member; `PermissionDenied` for a member whose role lacks
 *   `audit:read`, or for a whole-log read by a non-admin.
 * @example
 * ```ts
 * import { listAuditLog } from "gatehouse-auth"
 *
 * const { entries, nextCursor } = await listAuditLog(request, authConfig, { organizationId, action: "member.remove" })
 * ```
 */
export async function listAuditLog(request: SessionRequest, config: AuthConfig, query: AuditLogQuery = {}): Promise<AuditLogPage> {
  const { ctx, userId } = await actingAs(request, config, false)
  return (await organizations()).auditLogFor(ctx, userId, query)
}
