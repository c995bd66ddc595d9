/**
 * What the admin API reads about users: a page of users (searched by the start of their email or
 * name), and one user whole (status, sessions, accounts, memberships). Dates are ISO strings, as
 * the routes answer them; nothing secret (a session token, an account's tokens) is ever included.
 * @module
 */
import type { AdapterUser, AdapterUserStatus } from "../../adapters/index.js"
import { InvalidRequest } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
import type { RequestContext } from "../request-context.js"
import { actingAdmin, targetUser } from "./acting-admin.js"
import { isBanned } from "./ban-check.js"

/** A user as the admin API shows them. */
export interface AdminUser {
  /** The user's id. */
  id: string
  /** Their name, or `null`. */
  name: string | null
  /** Their email address, or `null` when they have none. */
  email: string | null
  /** When their address was last proven (ISO), or `null`. */
  emailVerified: string | null
  /** Their picture's URL, or `null`. */
  image: string | null
}

/** A user's role and ban, as the admin API shows them. */
export interface AdminUserStatus {
  /** The role set with `setUserRole`, or `null`. */
  role: string | null
  /** Whether a ban is in force now (one whose end has passed is not). */
  banned: boolean
  /** When the ban began (ISO), `null` without one. */
  bannedAt: string | null
  /** Why, or `null`. */
  banReason: string | null
  /** When the ban ends by itself (ISO), `null` for a ban without end or no ban. */
  banExpiresAt: string | null
  /** The admin who banned, or `null`. */
  bannedBy: string | null
}

/** One of a user's database sessions: when and where it started, never its token. */
export interface AdminUserSession {
  /** The session's public id. */
  id: string
  /** When it was signed in (ISO), `null` when unknown. */
  createdAt: string | null
  /** When it ends unless used (ISO). */
  expiresAt: string
  /** The browser's `User-Agent` at sign-in, or `null`. */
  userAgent: string | null
}

/** One of a user's linked accounts, never its tokens. */
export interface AdminUserAccount {
  /** The provider's id (`github`). */
  provider: string
  /** The user's id at the provider. */
  providerAccountId: string
  /** The kind of account (`oauth`, `oidc`, `email`, `webauthn`). */
  type: string
}

/** One of a user's organizations, with their role there. */
export interface AdminUserMembership {
  /** The organization's id. */
  organizationId: string
  /** Its name. */
  name: string
  /** Its slug. */
  slug: string
  /** The user's role there. */
  role: string
  /** When they joined (ISO). */
  joinedAt: string
}

/** What `getUserDetails` answers. */
export interface AdminUserDetails {
  /** The user. */
  user: AdminUser
  /** Their role and ban. */
  status: AdminUserStatus
  /** Their live database sessions (none are recorded under JWT sessions). */
  sessions: AdminUserSession[]
  /** Their linked accounts. */
  accounts: AdminUserAccount[]
  /** Their organizations (empty when the adapter has none). */
  memberships: AdminUserMembership[]
}

/** What `searchUsers` takes. */
export interface SearchUsersQuery {
  /** Users whose email or name starts with this, case ignored. */
  search?: string
  /** The `next` of the previous page. */
  after?: string
  /** Users per page, 1 to 100. Default 50. */
  limit?: number
}

/** A page of `searchUsers`. */
export interface AdminUserPage {
  /** The users, in id order. */
  users: AdminUser[]
  /** Pass as `after` for the next page; `null` on the last one. */
  next: string | null
}

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 100
/** Longer than any email address (254) or id: a search or cursor beyond it is refused, not run. */
const MAX_TEXT = 320

const iso = (date: Date | string | null | undefined): string | null => (date === null || date === undefined ? null : new Date(date).toISOString())

/** `user` as the admin API shows it: the standard fields only, whatever else the store keeps. */
export function adminUser(user: AdapterUser): AdminUser {
  return { id: user.id, name: user.name ?? null, email: user.email ?? null, emailVerified: iso(user.emailVerified), image: user.image ?? null }
}

/** `status` as the admin API shows it; no status reads as no role and no ban. */
export function adminStatus(status: AdapterUserStatus | null): AdminUserStatus {
  return {
    role: status?.role ?? null,
    banned: isBanned(status),
    bannedAt: iso(status?.bannedAt),
    banReason: status?.banReason ?? null,
    banExpiresAt: iso(status?.banExpiresAt),
    bannedBy: status?.bannedBy ?? null,
  }
}

/**
 * A page of users for the request's admin (asked before the query is even read: fails closed);
 * audited as `admin.search-users` with the search text.
 * @throws {InvalidRequest} for a limit outside 1–100, or a search or cursor that is no short text.
 */
export async function searchUsersPage(ctx: RequestContext, query: SearchUsersQuery): Promise<AdminUserPage> {
  const admin = await actingAdmin(ctx)
  const limit = query.limit ?? DEFAULT_LIMIT
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new InvalidRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`)
  }
  const search = optionalText(query.search, "search")
  const after = optionalText(query.after, "after")
  // One more than asked: whether another page follows, in the same query.
  const found = await callAdapter(ctx.config.adapter, "searchUsers", { limit: limit + 1, ...(search && { search }), ...(after && { after }) })
  const users = found.slice(0, limit)
  // Who looked for whom: the search text only (not the users found, which the log would copy).
  await recordAudit(ctx, admin.id, { action: "admin.search-users", details: { search: search ?? null } })
  return { users: users.map(adminUser), next: found.length > limit ? users[users.length - 1]!.id : null }
}

/** A user whole, for the request's admin; audited as `admin.view-user`. @throws {UserNotFound} for an unknown id. */
export async function userDetails(ctx: RequestContext, userId: unknown): Promise<AdminUserDetails> {
  const admin = await actingAdmin(ctx)
  const user = await targetUser(ctx, userId)
  const adapter = ctx.config.adapter
  const has = (method: string): boolean => typeof (adapter as Record<string, unknown> | undefined)?.[method] === "function"
  const now = Date.now()
  const [status, sessions, accounts, memberships] = await Promise.all([
    callAdapter(adapter, "getUserStatus", user.id),
    has("listSessionsByUserId") ? callAdapter(adapter, "listSessionsByUserId", user.id) : [],
    has("listAccountsByUserId") ? callAdapter(adapter, "listAccountsByUserId", user.id) : [],
    has("listOrganizationsByUserId") ? callAdapter(adapter, "listOrganizationsByUserId", user.id) : [],
  ])
  await recordAudit(ctx, admin.id, { action: "admin.view-user", targetType: "user", targetId: user.id })
  return {
    user: adminUser(user),
    status: adminStatus(status),
    sessions: sessions
      .filter((row) => new Date(row.expires).getTime() > now)
      .map((row) => ({ id: row.id, createdAt: iso(row.details?.createdAt), expiresAt: iso(row.expires)!, userAgent: row.details?.userAgent ?? null })),
    accounts: accounts.map((account) => ({ provider: account.provider, providerAccountId: account.providerAccountId, type: account.type })),
    memberships: memberships.map((membership) => ({
      organizationId: membership.organization.id,
      name: membership.organization.name,
      slug: membership.organization.slug,
      role: membership.role,
      joinedAt: iso(membership.joinedAt)!,
    })),
  }
}

/** `value` when it is a non-empty short string, `undefined` when absent or empty. */
function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined
  if (typeof value !== "string" || value.length > MAX_TEXT) throw new InvalidRequest(`${name} must be text of at most ${MAX_TEXT} characters`)
  return value
}
