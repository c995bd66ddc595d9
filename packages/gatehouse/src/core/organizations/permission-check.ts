/**
 * The check every organization function makes before it acts: the signed-in user is a member of
 * the organization and their role grants the permission (and the session meets the policy). One
 * indexed query (`getMembership`: the member joined with its organization); the session's own
 * facts are read only when the organization has a policy to check them against.
 * @module
 */
import type { AdapterMember, AdapterMembership, AdapterOrganization } from "../../adapters/index.js"
import { OrganizationNotFound, PermissionDenied } from "../../errors.js"
import type { OrganizationRequirement } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { currentSessionContext } from "../sessions/session-context.js"
import { currentAuthentication } from "../sessions/index.js"
import { rolePermissions, type SessionFacts } from "./active.js"
import { unmetRequirements } from "./policy.js"

/** The organization and the acting member, once the check passed. */
export interface PermittedMember {
  organization: AdapterOrganization
  member: AdapterMember
  /** Every permission of the member's role. */
  permissions: readonly string[]
}

/** A membership as a member read, with the policy requirements the request's session does not meet. */
export interface CheckedMembership extends PermittedMember {
  /** The policy requirements not met; `permissions` is empty while there are any. */
  unmet: OrganizationRequirement[]
}

/**
 * The organization and `userId`'s membership when they may do `permission` in it.
 *
 * @throws {OrganizationNotFound} when there is no such organization or `userId` is not a member.
 * @throws {PermissionDenied} when the role does not grant `permission`, or the session does not meet the policy.
 */
export async function requireMemberPermission(ctx: RequestContext, userId: string, organizationId: string, permission: string): Promise<PermittedMember> {
  const checked = await requireMembership(ctx, userId, organizationId)
  if (checked.unmet.length > 0) throw new PermissionDenied(`The session does not meet the organization's policy (${checked.unmet.join(", ")})`)
  if (!checked.permissions.includes(permission)) throw new PermissionDenied(`The role "${checked.member.role}" may not ${permission}`)
  return checked
}

/**
 * `userId`'s membership of the organization, whatever their role: what reading the organization
 * needs. Its permissions are empty while the session does not meet the policy.
 *
 * @throws {OrganizationNotFound} when there is no such organization or `userId` is not a member.
 */
export async function requireMembership(ctx: RequestContext, userId: string, organizationId: string): Promise<CheckedMembership> {
  const membership = typeof organizationId === "string" && organizationId !== "" ? await callAdapter(ctx.config.adapter, "getMembership", organizationId, userId) : null
  // The same refusal for "no such organization" and "not yours": nobody learns which exist.
  if (!membership) throw new OrganizationNotFound(`No organization ${JSON.stringify(organizationId)} for this user`)
  const unmet = membership.organization.policy ? unmetRequirements(ctx, membership.organization, await sessionFacts(ctx, userId)) : []
  const permissions = unmet.length > 0 ? [] : await rolePermissions(ctx, organizationId, membership.role)
  return { organization: membership.organization, member: memberOf(membership, userId), permissions, unmet }
}

/** What the policy asks of the request's session: its context and, with `twoFactor`, its authentication. */
export async function sessionFacts(ctx: RequestContext, userId: string): Promise<SessionFacts> {
  const current = await currentSessionContext(ctx)
  const context = current?.userId === userId ? current.context : { activeOrganizationId: null, impersonatorId: null, signInProvider: null }
  const authentication = ctx.config.twoFactor ? ((await currentAuthentication(ctx)) ?? undefined) : undefined
  return { userId, context, authentication }
}

function memberOf(membership: AdapterMembership, userId: string): AdapterMember {
  return { organizationId: membership.organization.id, userId, role: membership.role, createdAt: membership.joinedAt }
}
