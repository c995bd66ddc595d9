/**
 * Members of an organization: a page of them (keyset cursor, search), changing a role, removing
 * one, leaving. Who may do what: `member:update` / `member:remove` from the role; nobody changes
 * their own role; only an owner makes or changes an owner; nobody grants or manages a role that
 * can do more than their own; an organization keeps its last owner (the adapter's atomic answer).
 * @module
 */
import type { AdapterMember, AdapterMemberListing, MemberCursor } from "../../adapters/index.js"
import { OWNER_ROLE } from "../../adapters/organization-fields.js"
import { InvalidRequest, LastOwner, OrganizationNotFound, PermissionDenied, UserNotFound } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
import type { RequestContext } from "../request-context.js"
import { definedRole, rolePermissions } from "./active.js"
import { decodeCursor, encodeCursor, pageLimit } from "./page-cursor.js"
import { requireMemberPermission, requireMembership, type PermittedMember } from "./permission-check.js"

const MAX_SEARCH = 200
const MAX_ROLE = 64
const CONTROL = /[\u0000-\u001f\u007f]/

/** What `listMembers` takes. */
export interface MemberPageOptions {
  /** The `nextCursor` of the previous page; from the first member when left out. */
  after?: string | undefined
  /** Members per page, 1 to 100. Default 50. */
  limit?: number | string | undefined
  /** Only members whose email or name starts with this (case-insensitive). */
  search?: string | undefined
}

/** A page of members, and where the next one starts. */
export interface MemberPage {
  /** The members, oldest first, with their users' name, email and image. */
  members: AdapterMemberListing[]
  /** Pass as `after` for the next page; `null` on the last one. */
  nextCursor: string | null
}

/** One page of the organization's members, for any member of it (one query for the check, one with a join for the page). */
export async function listMembersOf(ctx: RequestContext, actorId: string, organizationId: string, options: MemberPageOptions = {}): Promise<MemberPage> {
  const checked = await requireMembership(ctx, actorId, organizationId)
  if (checked.unmet.length > 0) throw new PermissionDenied(`The session does not meet the organization's policy (${checked.unmet.join(", ")})`)
  const limit = pageLimit(options.limit)
  const after = options.after === undefined || options.after === "" ? undefined : decodeMemberCursor(options.after)
  const search = options.search
  if (search !== undefined && (typeof search !== "string" || search.length > MAX_SEARCH)) throw new InvalidRequest(`search must be text of at most ${MAX_SEARCH} characters`)
  // One more than asked: whether there is a next page, without a count.
  const found = await callAdapter(ctx.config.adapter, "listMembers", organizationId, {
    limit: limit + 1,
    ...(after && { after }),
    ...(search && { search }),
  })
  const members = found.slice(0, limit)
  const last = members.at(-1)
  return { members, nextCursor: found.length > limit && last ? encodeMemberCursor(last) : null }
}

/**
 * Gives `targetId` the role `role` in the organization.
 *
 * @throws {OrganizationNotFound} when the actor is no member; {@link PermissionDenied} without
 *   `member:update`, for the actor's own role, for making or changing an owner without being one,
 *   or for a role (granted or taken away) that can do more than the actor; `UserNotFound` when
 *   the target is no member; `LastOwner` when the last owner would be demoted; `InvalidRequest`
 *   for a role nobody defined.
 */
export async function changeMemberRole(ctx: RequestContext, actorId: string, organizationId: string, targetId: unknown, role: unknown): Promise<AdapterMember> {
  const actor = await requireMemberPermission(ctx, actorId, organizationId, "member:update")
  const userId = requiredId(targetId, "userId")
  roleName(role)
  if (userId === actorId) throw new PermissionDenied("Nobody changes their own role")
  const newRole = await requireGrantable(ctx, actor, role)
  const target = await targetMember(ctx, organizationId, userId)
  await requireAuthorityOver(ctx, actor, target)
  const changed = await callAdapter(ctx.config.adapter, "updateMemberRole", organizationId, userId, newRole)
  if (changed === "not-found") throw new UserNotFound("That user is not a member of this organization")
  if (changed === "last-owner") throw new LastOwner("The organization would be left without an owner")
  await recordAudit(ctx, actorId, { action: "member.update-role", organizationId, targetType: "member", targetId: userId, details: { from: target.role, to: newRole } })
  return changed
}

/**
 * Removes `targetId` from the organization.
 *
 * @throws as {@link changeMemberRole}, with `member:remove`; `InvalidRequest` for the actor
 *   themselves (they leave instead).
 */
export async function removeMemberOf(ctx: RequestContext, actorId: string, organizationId: string, targetId: unknown): Promise<AdapterMember> {
  const actor = await requireMemberPermission(ctx, actorId, organizationId, "member:remove")
  const userId = requiredId(targetId, "userId")
  if (userId === actorId) throw new InvalidRequest("Leave the organization rather than removing yourself")
  const target = await targetMember(ctx, organizationId, userId)
  await requireAuthorityOver(ctx, actor, target)
  const removed = await callAdapter(ctx.config.adapter, "removeMember", organizationId, userId)
  if (removed === "not-found") throw new UserNotFound("That user is not a member of this organization")
  if (removed === "last-owner") throw new LastOwner("The organization would be left without an owner")
  await recordAudit(ctx, actorId, { action: "member.remove", organizationId, targetType: "member", targetId: userId, details: { role: removed.role } })
  return removed
}

/**
 * The actor leaves the organization (whatever their role and the session's standing).
 *
 * @throws {OrganizationNotFound} when they are no member; `LastOwner` when they are its last owner.
 */
export async function leave(ctx: RequestContext, actorId: string, organizationId: string): Promise<void> {
  const removed = typeof organizationId === "string" && organizationId !== "" ? await callAdapter(ctx.config.adapter, "removeMember", organizationId, actorId) : "not-found"
  if (removed === "not-found") throw new OrganizationNotFound(`No organization ${JSON.stringify(organizationId)} for this user`)
  if (removed === "last-owner") throw new LastOwner("The last owner cannot leave; make someone else an owner first")
  await recordAudit(ctx, actorId, { action: "member.leave", organizationId, targetType: "member", targetId: actorId, details: { role: removed.role } })
}

async function targetMember(ctx: RequestContext, organizationId: string, userId: string): Promise<AdapterMember> {
  const target = await callAdapter(ctx.config.adapter, "getMember", organizationId, userId)
  if (!target) throw new UserNotFound("That user is not a member of this organization")
  return target
}

/**
 * `role` when the actor may give it (a role change or an invitation): a role name of at most
 * 64 characters that is defined; owners may give any; anyone else neither `owner` nor a role that
 * can do something they cannot (an admin must not mint a role above their own). The one rule
 * both role changes and invitations follow.
 *
 * @throws {InvalidRequest} for a malformed or undefined role; {@link PermissionDenied} for one
 *   the actor may not give.
 */
export async function requireGrantable(ctx: RequestContext, actor: PermittedMember, role: unknown): Promise<string> {
  const name = roleName(role)
  const permissions = await definedRole(ctx, actor.organization.id, name)
  if (permissions === null) throw new InvalidRequest(`No role ${JSON.stringify(name)} is defined`)
  if (actor.member.role === OWNER_ROLE) return name
  if (name === OWNER_ROLE) throw new PermissionDenied("Only an owner makes or changes an owner")
  requireWithin(actor, name, permissions)
  return name
}

/**
 * Refuses a change or removal of `target` the actor has no authority for: owners may touch
 * anyone their permission allows; anyone else neither an owner nor a member whose role can do
 * something they cannot.
 */
async function requireAuthorityOver(ctx: RequestContext, actor: PermittedMember, target: AdapterMember): Promise<void> {
  if (actor.member.role === OWNER_ROLE) return
  if (target.role === OWNER_ROLE) throw new PermissionDenied("Only an owner makes or changes an owner")
  requireWithin(actor, target.role, await rolePermissions(ctx, target.organizationId, target.role))
}

function requireWithin(actor: PermittedMember, role: string, permissions: readonly string[]): void {
  const held = new Set(actor.permissions)
  const beyond = permissions.find((permission) => !held.has(permission))
  if (beyond !== undefined) throw new PermissionDenied(`The role "${role}" can ${beyond}, which the actor cannot`)
}

function roleName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > MAX_ROLE || CONTROL.test(value)) throw new InvalidRequest(`role must be a role name of 1 to ${MAX_ROLE} characters`)
  return value
}

/** `value` as an id from a request (a string, not blank). */
export function requiredId(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "" || value.length > 255 || CONTROL.test(value)) throw new InvalidRequest(`${name} must be an id`)
  return value
}

/** The opaque `nextCursor` of a page ending with `member`. */
export function encodeMemberCursor(member: Pick<AdapterMember, "createdAt" | "userId">): string {
  return encodeCursor(member.createdAt, member.userId)
}

/**
 * The member cursor `text` stands for.
 *
 * @throws {InvalidRequest} for anything {@link encodeMemberCursor} did not make.
 */
export function decodeMemberCursor(text: unknown): MemberCursor {
  const { at, id } = decodeCursor(text)
  return { createdAt: at, userId: id }
}
