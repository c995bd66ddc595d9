/**
 * Organizations themselves, acting as the signed-in user: create (the creator is its owner),
 * read, update, delete, list the user's, set the session's active one, and read the audit log.
 * Each change is checked (`requireMemberPermission`) and recorded (`recordAudit`) once.
 * @module
 */
import type { AdapterMembership, AdapterOrganization, AdapterUser, AuditCursor } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { InvalidRequest, OrganizationNotFound, PermissionDenied, SlugTaken } from "../../errors.js"
import type { AuditAction, AuditEvent, OrganizationRequirement } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { isAdmin } from "../admin/admin-check.js"
import { recordAudit } from "../audit.js"
import type { RequestContext } from "../request-context.js"
import { updateSessionContext } from "../sessions/session-context.js"
import { requiredId } from "./members.js"
import { decodeCursor, encodeCursor, pageLimit } from "./page-cursor.js"
import { requireMemberPermission, requireMembership, sessionFacts } from "./permission-check.js"
import { checkedPolicy, unmetRequirements } from "./policy.js"

/** An organization as one of its members reads it: with their role and what it lets them do. */
export interface OrganizationDetails extends AdapterOrganization {
  /** The reader's role in it. */
  role: string
  /** What the role lets the reader do (empty while `unmet` is not). */
  permissions: string[]
  /** The organization's policy requirements the reader's session does not meet. */
  unmet: OrganizationRequirement[]
}

/** What `createOrganization` takes. */
export interface NewOrganization {
  /** Its display name, 1 to 200 characters. */
  name: string
  /** Its unique slug: lower-case letters, digits and inner hyphens, 1 to 64 characters. */
  slug: string
}

/** What `updateOrganization` changes: the fields given. */
export interface OrganizationPatch {
  /** A new display name. */
  name?: string
  /** A new slug. */
  slug?: string
  /** A new policy (`null`: none). */
  policy?: unknown
}

/** What `listAuditLog` takes. */
export interface AuditLogQuery {
  /** Only this organization's entries (members whose role has `audit:read` may read them); every entry when left out (Gatehouse admins only). */
  organizationId?: string | undefined
  /** Only this actor's entries. */
  actorId?: string | undefined
  /** Only entries of this action. */
  action?: AuditAction | string | undefined
  /** The `nextCursor` of the previous page (newest first). */
  before?: string | undefined
  /** Entries per page, 1 to 100. Default 50. */
  limit?: number | string | undefined
}

/**
 * An audit-log entry as a reader gets it: the client's address and user agent only for Gatehouse
 * admins (an organization's members learn nothing of each other's network or devices).
 */
export type AuditLogEntry = Omit<AuditEvent, "ip" | "userAgent"> & Partial<Pick<AuditEvent, "ip" | "userAgent">>

/** A page of the audit log, newest first. */
export interface AuditLogPage {
  /** The entries (`ip` and `userAgent` for Gatehouse admins only). */
  entries: AuditLogEntry[]
  /** Pass as `before` for the next page; `null` on the last one. */
  nextCursor: string | null
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/
const MAX_NAME = 200
const CONTROL = /[\u0000-\u001f\u007f]/

/** Creates an organization with `user` as its owner, when `organizations.allowCreate` lets them. */
export async function createOrganizationFor(ctx: RequestContext, user: AdapterUser, input: unknown): Promise<AdapterOrganization> {
  const fields = objectOf(input)
  const name = organizationName(fields.name)
  const slug = organizationSlug(fields.slug)
  const allow = ctx.config.organizations?.allowCreate ?? true
  const allowed = typeof allow === "function" ? await allow(user) : allow
  if (allowed !== true) throw new PermissionDenied("This user may not create organizations")
  const created = await callAdapter(ctx.config.adapter, "createOrganization", { name, slug }, user.id)
  if (created === "slug-taken") throw new SlugTaken(`The slug ${JSON.stringify(slug)} is taken`)
  await recordAudit(ctx, user.id, { action: "organization.create", organizationId: created.id, targetType: "organization", targetId: created.id, details: { name, slug } })
  return created
}

/** The organization as `userId`, a member, reads it. */
export async function organizationFor(ctx: RequestContext, userId: string, organizationId: string): Promise<OrganizationDetails> {
  const { organization, member, permissions, unmet } = await requireMembership(ctx, userId, organizationId)
  return { ...organization, role: member.role, permissions: [...permissions], unmet }
}

/** The organizations `userId` is a member of, with their role in each (one query). */
export async function organizationsOf(ctx: RequestContext, userId: string): Promise<AdapterMembership[]> {
  return callAdapter(ctx.config.adapter, "listOrganizationsByUserId", userId)
}

/** Changes the organization's name, slug or policy (`organization:update`). */
export async function updateOrganizationOf(ctx: RequestContext, userId: string, organizationId: string, input: unknown): Promise<AdapterOrganization> {
  const fields = objectOf(input)
  const patch: { name?: string; slug?: string; policy?: AdapterOrganization["policy"] } = {}
  if (fields.name !== undefined) patch.name = organizationName(fields.name)
  if (fields.slug !== undefined) patch.slug = organizationSlug(fields.slug)
  if (fields.policy !== undefined) patch.policy = checkedPolicy(fields.policy, ctx.config)
  if (Object.keys(patch).length === 0) throw new InvalidRequest("Nothing to change: give name, slug or policy")
  const { organization } = await requireMemberPermission(ctx, userId, organizationId, "organization:update")
  if (patch.policy) {
    // Whoever sets the policy must still meet it: otherwise nobody may be left able to undo it.
    const unmet = unmetRequirements(ctx, { ...organization, policy: patch.policy }, await sessionFacts(ctx, userId))
    if (unmet.length > 0) throw new InvalidRequest(`The policy would lock out the session setting it (it does not meet: ${unmet.join(", ")}); sign in as the policy asks first`)
  }
  const updated = await callAdapter(ctx.config.adapter, "updateOrganization", organizationId, patch)
  if (updated === "slug-taken") throw new SlugTaken(`The slug ${JSON.stringify(patch.slug)} is taken`)
  // Deleted between the check and the update.
  if (updated === null) throw new OrganizationNotFound(`No organization ${JSON.stringify(organizationId)} for this user`)
  await recordAudit(ctx, userId, { action: "organization.update", organizationId, targetType: "organization", targetId: organizationId, details: { changed: Object.keys(patch) } })
  return updated
}

/** Deletes the organization with its members and invitations (`organization:delete`); its audit entries stay. */
export async function deleteOrganizationOf(ctx: RequestContext, userId: string, organizationId: string): Promise<void> {
  const { organization } = await requireMemberPermission(ctx, userId, organizationId, "organization:delete")
  if (!(await callAdapter(ctx.config.adapter, "deleteOrganization", organizationId))) {
    throw new OrganizationNotFound(`No organization ${JSON.stringify(organizationId)} for this user`)
  }
  await recordAudit(ctx, userId, {
    action: "organization.delete",
    organizationId,
    targetType: "organization",
    targetId: organizationId,
    details: { name: organization.name, slug: organization.slug },
  })
}

/**
 * Makes `organizationId` (a membership of the user: one indexed query, no member list) the
 * session's active organization, or clears it with `null`; the cookies to send.
 */
export async function setActiveOrganizationOf(ctx: RequestContext, userId: string, organizationId: unknown): Promise<Cookie[]> {
  if (organizationId !== null) {
    const id = requiredId(organizationId, "organizationId")
    const membership = await callAdapter(ctx.config.adapter, "getMembership", id, userId)
    if (!membership) throw new OrganizationNotFound(`No organization ${JSON.stringify(id)} for this user`)
  }
  return updateSessionContext(ctx, { activeOrganizationId: organizationId as string | null })
}

/**
 * A page of the audit log: of one organization for its members whose role has `audit:read`
 * (owners and admins by default) and for Gatehouse admins, of everything for Gatehouse admins
 * only. The client's address and user agent are in the entries for Gatehouse admins only.
 */
export async function auditLogFor(ctx: RequestContext, userId: string, query: AuditLogQuery = {}): Promise<AuditLogPage> {
  const organizationId = query.organizationId === undefined || query.organizationId === "" ? undefined : requiredId(query.organizationId, "organizationId")
  const limit = pageLimit(query.limit)
  const cursor = query.before === undefined || query.before === "" ? undefined : decodeCursor(query.before)
  const before: AuditCursor | undefined = cursor && { createdAt: cursor.at, id: cursor.id }
  if (query.action !== undefined && (typeof query.action !== "string" || query.action.length > 64)) throw new InvalidRequest("action must be an audit action")
  if (query.actorId !== undefined && query.actorId !== "") requiredId(query.actorId, "actorId")
  const admin = await isAdmin(ctx, userId)
  if (!admin) {
    if (organizationId === undefined) throw new PermissionDenied("Only admins read the whole audit log")
    await requireMemberPermission(ctx, userId, organizationId, "audit:read")
  }
  const found = await callAdapter(ctx.config.adapter, "listAuditEntries", {
    limit: limit + 1,
    ...(organizationId !== undefined && { organizationId }),
    ...(query.actorId && { actorId: query.actorId }),
    ...(query.action && { action: query.action }),
    ...(before && { before }),
  })
  const entries = found.slice(0, limit).map(({ ip, userAgent, ...entry }): AuditLogEntry => ({ ...entry, action: entry.action as AuditAction, ...(admin && { ip, userAgent }) }))
  const last = entries.at(-1)
  return { entries, nextCursor: found.length > limit && last ? encodeCursor(last.createdAt, last.id) : null }
}

function objectOf(input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new InvalidRequest("Expected an object of fields")
  return input as Record<string, unknown>
}

function organizationName(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : ""
  if (name === "" || name.length > MAX_NAME || CONTROL.test(name)) throw new InvalidRequest(`name must be 1 to ${MAX_NAME} characters`)
  return name
}

function organizationSlug(value: unknown): string {
  if (typeof value !== "string" || !SLUG.test(value)) throw new InvalidRequest("slug must be 1 to 64 lower-case letters, digits and inner hyphens")
  return value
}
