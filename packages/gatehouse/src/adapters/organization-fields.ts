/**
 * What the organization and audit methods of Gatehouse's own adapters share: the owner role the
 * last-owner guard protects, the checks of the paging options, so memory and SQL refuse the
 * same bad input, the list of the methods, and one reading of each row for both SQL adapters.
 * @module
 */
import type {
  Adapter,
  AdapterAuditEntry,
  AdapterInvitation,
  AdapterMember,
  AdapterOrganization,
  AdapterUserStatus,
  InvitationStatus,
  JsonValue,
  OrganizationPolicy,
} from "./index.js"

/** The adapter methods organizations need: what the configuration check asks for, and the conformance suite tests. */
export const ORGANIZATION_METHODS = [
  "createOrganization",
  "getOrganization",
  "updateOrganization",
  "deleteOrganization",
  "listOrganizationsByUserId",
  "addMember",
  "getMember",
  "getMembership",
  "updateMemberRole",
  "removeMember",
  "listMembers",
  "createInvitation",
  "getInvitation",
  "getInvitationByTokenHash",
  "setInvitationStatus",
  "listInvitations",
  "appendAuditEntry",
  "listAuditEntries",
] as const satisfies readonly (keyof Adapter)[]

/** The role an organization must always have one member in. */
export const OWNER_ROLE = "owner"

/** Most rows one page may ask for: a bound on what one call reads. */
export const MAX_PAGE_LIMIT = 1000

/** Throws a RangeError naming the adapter unless `limit` is an integer from 1 to {@link MAX_PAGE_LIMIT}. */
export function checkLimit(adapter: string, limit: unknown): number {
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new RangeError(`${adapter}: limit must be an integer from 1 to ${MAX_PAGE_LIMIT}, got ${String(limit)}`)
  }
  return limit
}

/** A search text as a SQL `LIKE` prefix pattern (escaped with `\`), or `null` for no search. */
export function likePrefix(search: string | undefined): string | null {
  if (search === undefined || search === "") return null
  return `${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** Whether `text` starts with `search`, ASCII case ignored as SQL's `LIKE` ignores it. */
export function startsWithIgnoringCase(text: string | null | undefined, search: string): boolean {
  if (typeof text !== "string") return false
  return asciiLower(text).startsWith(asciiLower(search))
}

const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (character) => character.toLowerCase())

/** A column's value as text, SQL NULL (or a missing column) as `null`. */
function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value)
}

/** How one SQL adapter reads its columns: dates (integer milliseconds or timestamptz) and JSON (text or jsonb). */
export interface ColumnReaders {
  date(value: unknown): Date
  json(value: unknown): JsonValue | null
}

/** The organization, member, invitation, audit and user-status rows, read with an adapter's own `columns`. */
export function organizationRowReaders(columns: ColumnReaders) {
  const optionalDate = (value: unknown): Date | null => (value === null || value === undefined ? null : columns.date(value))
  return {
    toOrganization: (row: Record<string, unknown>): AdapterOrganization => ({
      id: String(row.id),
      name: String(row.name),
      slug: String(row.slug),
      createdAt: columns.date(row.created_at),
      policy: columns.json(row.policy) as OrganizationPolicy | null,
    }),
    toMember: (row: Record<string, unknown>): AdapterMember => ({
      organizationId: String(row.organization_id),
      userId: String(row.userId),
      role: String(row.role),
      createdAt: columns.date(row.created_at),
    }),
    toInvitation: (row: Record<string, unknown>): AdapterInvitation => ({
      id: String(row.id),
      organizationId: String(row.organization_id),
      email: String(row.email),
      role: String(row.role),
      inviterId: String(row.inviter_id),
      tokenHash: String(row.token_hash),
      expiresAt: columns.date(row.expires_at),
      status: String(row.status) as InvitationStatus,
      createdAt: columns.date(row.created_at),
    }),
    toAuditEntry: (row: Record<string, unknown>): AdapterAuditEntry => ({
      id: String(row.id),
      actorId: textOrNull(row.actor_id),
      action: String(row.action),
      organizationId: textOrNull(row.organization_id),
      targetType: textOrNull(row.target_type),
      targetId: textOrNull(row.target_id),
      ip: textOrNull(row.ip),
      userAgent: textOrNull(row.user_agent),
      createdAt: columns.date(row.created_at),
      details: columns.json(row.details),
    }),
    toUserStatus: (row: Record<string, unknown>): AdapterUserStatus => ({
      userId: String(row.userId),
      role: textOrNull(row.role),
      bannedAt: optionalDate(row.banned_at),
      banReason: textOrNull(row.ban_reason),
      banExpiresAt: optionalDate(row.ban_expires_at),
      bannedBy: textOrNull(row.banned_by),
    }),
  }
}
