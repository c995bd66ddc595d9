/**
 * The check every organization function makes before it acts: the signed-in user is a member of
 * the organization and their role grants the permission (and the session meets the policy).
 * (Seam: implemented by the organizations part.)
 * @module
 */
import type { AdapterMember, AdapterOrganization } from "../../adapters/index.js"
import { OrganizationNotFound } from "../../errors.js"
import type { RequestContext } from "../request-context.js"

/** The organization and the acting member, once the check passed. */
export interface PermittedMember {
  organization: AdapterOrganization
  member: AdapterMember
  /** Every permission of the member's role. */
  permissions: readonly string[]
}

/**
 * The organization and `userId`'s membership when they may do `permission` in it.
 *
 * @throws {OrganizationNotFound} when there is no such organization or `userId` is not a member.
 * @throws {PermissionDenied} when the role does not grant `permission`, or the session does not meet the policy.
 */
export async function requireMemberPermission(_ctx: RequestContext, _userId: string, organizationId: string, _permission: string): Promise<PermittedMember> {
  throw new OrganizationNotFound(`No organization ${organizationId} for this user`)
}
