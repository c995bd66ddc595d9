/**
 * The admin delete of a user: their accounts, sessions, memberships and status go with them, the
 * organizations where they were the only member too, and every session of theirs ends on every
 * instance. Never an organization's last owner while others are left in it.
 * @module
 */
import type { AdapterMembership } from "../../adapters/index.js"
import { LastOwner, PermissionDenied } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
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

/** Members read per page while looking for another owner (a keyset walk; owners come first, usually). */
const OWNER_SCAN_PAGE = 500
const OWNER = "owner"

/**
 * Deletes `userId` as the request's admin.
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

  // Every organization is judged before anything changes, so a refusal leaves everything as it was.
  const alone: string[] = []
  const shared: string[] = []
  for (const { organization, role } of memberships) {
    const others = await callAdapter(adapter, "listMembers", organization.id, { limit: 2 })
    if (!others.some((member) => member.userId !== user.id)) alone.push(organization.id)
    else {
      if (role === OWNER && !(await hasOtherOwner(ctx, organization.id, user.id))) {
        throw new LastOwner(`The user is the last owner of organization ${organization.id}, which has other members: make another member its owner first`)
      }
      shared.push(organization.id)
    }
  }
  // Removed one by one with the store's own last-owner guard, which holds against a concurrent
  // demotion of the other owner; the user's row (and the rest) goes only after every one passed.
  for (const organizationId of shared) {
    const removed = await callAdapter(adapter, "removeMember", organizationId, user.id)
    if (removed === "last-owner") throw new LastOwner(`The user became the last owner of organization ${organizationId}; nothing more was deleted`)
  }
  for (const organizationId of alone) await callAdapter(adapter, "deleteOrganization", organizationId)
  // Sessions first: a JWT session must find its version raised whatever becomes of the user's row.
  await revoke(user.id)
  await callAdapter(adapter, "deleteUser", user.id)
  await recordAudit(ctx, admin.id, { action: "admin.delete-user", targetType: "user", targetId: user.id, details: { email: user.email ?? null, deletedOrganizations: alone } })
  return { id: user.id, deletedOrganizations: alone }
}

/** Whether the organization has an owner besides `userId`: its members walked by keyset until one is found. */
async function hasOtherOwner(ctx: RequestContext, organizationId: string, userId: string): Promise<boolean> {
  let after: { createdAt: Date; userId: string } | undefined
  for (;;) {
    const page = await callAdapter(ctx.config.adapter, "listMembers", organizationId, { limit: OWNER_SCAN_PAGE, ...(after && { after }) })
    if (page.some((member) => member.role === OWNER && member.userId !== userId)) return true
    if (page.length < OWNER_SCAN_PAGE) return false
    const last = page[page.length - 1]!
    after = { createdAt: last.createdAt, userId: last.userId }
  }
}
