/**
 * The admin delete of a user: their accounts, sessions, memberships and status go with them, the
 * organizations where they were the only member too, and every session of theirs ends on every
 * instance. Never an organization's last owner while others are left in it.
 * @module
 */
import type { AdapterMembership } from "../../adapters/index.js"
import { OWNER_ROLE } from "../../adapters/organization-fields.js"
import { AdapterError, LastOwner, PermissionDenied } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import { sessionRevoker } from "../sign-out-everywhere.js"
import { actingAdmin, isListedAdmin, targetUser } from "./acting-admin.js"

/** What `deleteUser` removed besides the user. */
export interface DeletedUser {
  /** The deleted user's id. */
  id: string
  /** The organizations deleted with them: those where they were the only member. */
  deletedOrganizations: string[]
}

/**
 * Deletes `userId` as the request's admin. All or nothing: the memberships go one by one through
 * the store's own last-owner guard (`removeMember`, atomic against a concurrent demotion), and
 * when one is refused those already removed are put back before the refusal.
 *
 * @throws {PermissionDenied} for a non-admin, the admin themselves, or an admin listed in
 *   `admin.userIds`; `UserNotFound`; `LastOwner` when they are the only owner of an
 *   organization that has other members (nothing is deleted).
 */
export async function deleteUserAs(ctx: RequestContext, userId: unknown): Promise<DeletedUser> {
  const admin = await actingAdmin(ctx)
  const user = await targetUser(ctx, userId)
  if (user.id === admin.id) throw new PermissionDenied("An admin cannot delete themselves")
  if (isListedAdmin(ctx, user.id)) throw new PermissionDenied("An admin listed in admin.userIds cannot be deleted")
  const adapter = ctx.config.adapter
  const revoke = sessionRevoker(ctx.config)
  const memberships: AdapterMembership[] = typeof adapter?.listOrganizationsByUserId === "function" ? await callAdapter(adapter, "listOrganizationsByUserId", user.id) : []

  const alone: AdapterMembership[] = []
  const shared: AdapterMembership[] = []
  for (const membership of memberships) ((await isAlone(ctx, membership, user.id)) ? alone : shared).push(membership)

  const removed: AdapterMembership[] = []
  const deleted: string[] = []
  try {
    for (const membership of shared) await leave(ctx, membership, user.id, removed)
    // Judged alone a moment ago: someone may have joined since (an accepted invitation), and
    // their organization must not go with this user. Checked again, after the removals above.
    for (const membership of alone) {
      if (await isAlone(ctx, membership, user.id)) deleted.push(membership.organization.id)
      else await leave(ctx, membership, user.id, removed)
    }
  } catch (error) {
    await restore(ctx, user.id, removed)
    throw error
  }
  for (const organizationId of deleted) await callAdapter(adapter, "deleteOrganization", organizationId)
  // Sessions first: a JWT session must find its version raised whatever becomes of the user's row.
  await revoke(user.id)
  await callAdapter(adapter, "deleteUser", user.id)
  await recordAudit(ctx, admin.id, { action: "admin.delete-user", targetType: "user", targetId: user.id, details: { email: user.email ?? null, deletedOrganizations: deleted } })
  return { id: user.id, deletedOrganizations: deleted }
}

/** Whether the user is the organization's only member (two members read at most). */
async function isAlone(ctx: RequestContext, membership: AdapterMembership, userId: string): Promise<boolean> {
  const members = await callAdapter(ctx.config.adapter, "listMembers", membership.organization.id, { limit: 2 })
  return !members.some((member) => member.userId !== userId)
}

/** Removes the user's membership with the store's last-owner guard, noting it in `removed` to put back on a refusal. */
async function leave(ctx: RequestContext, membership: AdapterMembership, userId: string, removed: AdapterMembership[]): Promise<void> {
  const organizationId = membership.organization.id
  const answer = await callAdapter(ctx.config.adapter, "removeMember", organizationId, userId)
  if (answer === "last-owner") {
    throw new LastOwner(`The user is the last ${OWNER_ROLE} of organization ${organizationId}, which has other members: make another member its ${OWNER_ROLE} first`)
  }
  // "not-found": gone already (they left meanwhile), nothing to put back.
  if (answer !== "not-found") removed.push(membership)
}

/** Puts back the memberships a refused delete removed, with their role and join time; one that cannot be is logged, naming it. */
async function restore(ctx: RequestContext, userId: string, removed: readonly AdapterMembership[]): Promise<void> {
  for (const { organization, role, joinedAt } of removed) {
    try {
      await callAdapter(ctx.config.adapter, "addMember", { organizationId: organization.id, userId, role, createdAt: new Date(joinedAt) })
    } catch (error) {
      logError(ctx.logger, new AdapterError(`User ${userId}'s membership of organization ${organization.id} (role ${role}) was removed by a refused delete and could not be put back`, { cause: error }))
    }
  }
}
