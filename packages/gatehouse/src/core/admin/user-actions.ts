/**
 * What an admin changes about a user: bans (their sessions end at once, and sign-in is refused
 * until the ban ends or is lifted), roles, passwords (through the app's own hashing), and their
 * sessions. Each acts for the request's signed-in admin only and writes one audit row.
 * @module
 */
import { InvalidConfig, InvalidRequest, PermissionDenied } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
import type { RequestContext } from "../request-context.js"
import { sessionRevoker } from "../sign-out-everywhere.js"
import { actingAdmin, isListedAdmin, targetUser } from "./acting-admin.js"
import { isAdmin } from "./admin-check.js"
import { adminStatus, type AdminUserStatus } from "./users.js"

/** What `banUser` takes. */
export interface BanOptions {
  /** Why (shown to admins only, at most 500 characters). */
  reason?: string | null
  /** When the ban ends by itself (a Date or ISO text, in the future); without one it lasts until lifted. */
  expiresAt?: Date | string | null
}

const MAX_REASON = 500
/** A role's name: a short word, as it goes into the session's checks and the audit log. */
const ROLE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/
/** Longer than any passphrase a person types; more only costs the app's hashing. */
const MAX_PASSWORD = 1024

/**
 * Bans `userId`: stored with its reason, end and who banned, then every session of theirs ends
 * (rows deleted, session version raised, shared-store copies dropped), so no instance serves one
 * again; sign-in is refused until the ban ends or is lifted.
 *
 * @throws {PermissionDenied} for a non-admin, the admin themselves, or an admin listed in
 *   `admin.userIds`; `UserNotFound`; {@link InvalidRequest} for a bad reason or an end not in the future.
 */
export async function banUserAs(ctx: RequestContext, userId: unknown, options: BanOptions): Promise<AdminUserStatus> {
  const admin = await actingAdmin(ctx)
  const user = await targetUser(ctx, userId)
  if (user.id === admin.id) throw new PermissionDenied("An admin cannot ban themselves")
  if (isListedAdmin(ctx, user.id)) throw new PermissionDenied("An admin listed in admin.userIds cannot be banned")
  const reason = banReason(options?.reason)
  const expiresAt = banEnd(options?.expiresAt)
  // Checked before anything is stored: a ban whose sessions could not end would be half a ban.
  const revoke = sessionRevoker(ctx.config)
  await callAdapter(ctx.config.adapter, "banUser", user.id, { banReason: reason, banExpiresAt: expiresAt, bannedBy: admin.id })
  await revoke(user.id)
  await recordAudit(ctx, admin.id, { action: "admin.ban", targetType: "user", targetId: user.id, details: { reason, expiresAt: expiresAt?.toISOString() ?? null } })
  return adminStatus(await callAdapter(ctx.config.adapter, "getUserStatus", user.id))
}

/** Lifts `userId`'s ban (whether there was one is in the audit row). @throws {PermissionDenied} for a non-admin or oneself; `UserNotFound`. */
export async function unbanUserAs(ctx: RequestContext, userId: unknown): Promise<AdminUserStatus> {
  const admin = await actingAdmin(ctx)
  const user = await targetUser(ctx, userId)
  if (user.id === admin.id) throw new PermissionDenied("An admin cannot lift their own ban")
  const lifted = await callAdapter(ctx.config.adapter, "unbanUser", user.id)
  await recordAudit(ctx, admin.id, { action: "admin.unban", targetType: "user", targetId: user.id, details: { lifted } })
  return adminStatus(await callAdapter(ctx.config.adapter, "getUserStatus", user.id))
}

/**
 * Sets (or, with `null`, clears) `userId`'s role. An admin cannot take their own admin role away
 * (one listed in `admin.userIds` stays an admin whatever their role).
 * @throws {PermissionDenied}; `UserNotFound`; {@link InvalidRequest} for a role that is no short word.
 */
export async function setUserRoleAs(ctx: RequestContext, userId: unknown, role: unknown): Promise<AdminUserStatus> {
  const admin = await actingAdmin(ctx)
  const user = await targetUser(ctx, userId)
  if (role !== null && (typeof role !== "string" || !ROLE.test(role))) {
    throw new InvalidRequest("role must be null or a word of at most 64 letters, digits and _ . : -")
  }
  const adminRoles = ctx.config.admin?.roles ?? ["admin"]
  if (user.id === admin.id && !isListedAdmin(ctx, admin.id) && !(role !== null && adminRoles.includes(role))) {
    throw new PermissionDenied("An admin cannot demote themselves")
  }
  const previous = (await callAdapter(ctx.config.adapter, "getUserStatus", user.id))?.role ?? null
  await callAdapter(ctx.config.adapter, "setUserRole", user.id, role)
  await recordAudit(ctx, admin.id, { action: "admin.set-role", targetType: "user", targetId: user.id, details: { role, previous } })
  return adminStatus(await callAdapter(ctx.config.adapter, "getUserStatus", user.id))
}

/**
 * Stores a new password for `userId` through `admin.setPassword` (the app's own hashing). The
 * password is never logged nor recorded.
 * @throws {InvalidConfig} without `admin.setPassword`; {@link PermissionDenied} for a non-admin or
 *   an admin target (see `refuseAdminTarget`); `UserNotFound`; {@link InvalidRequest} for an empty
 *   or over-long password.
 */
export async function setUserPasswordAs(ctx: RequestContext, userId: unknown, password: unknown): Promise<void> {
  const admin = await actingAdmin(ctx)
  const setPassword = ctx.config.admin?.setPassword
  if (typeof setPassword !== "function") throw new InvalidConfig("Setting a user's password needs `admin.setPassword` (the app's own hashing)")
  const user = await targetUser(ctx, userId)
  await refuseAdminTarget(ctx, admin.id, user.id, "set the password of")
  if (typeof password !== "string" || password === "" || password.length > MAX_PASSWORD) {
    throw new InvalidRequest(`password must be text of 1 to ${MAX_PASSWORD} characters`)
  }
  await setPassword(user, password)
  await recordAudit(ctx, admin.id, { action: "admin.set-password", targetType: "user", targetId: user.id })
}

/**
 * Ends every session of `userId` on every instance, as `signOutEverywhere` does.
 * @throws {PermissionDenied} for a non-admin or an admin target (see `refuseAdminTarget`); `UserNotFound`.
 */
export async function revokeUserSessionsAs(ctx: RequestContext, userId: unknown): Promise<void> {
  const admin = await actingAdmin(ctx)
  const user = await targetUser(ctx, userId)
  await refuseAdminTarget(ctx, admin.id, user.id, "end the sessions of")
  await sessionRevoker(ctx.config)(user.id)
  await recordAudit(ctx, admin.id, { action: "admin.revoke-sessions", targetType: "user", targetId: user.id })
}

/**
 * Refuses an action on another admin's sign-in (their password, their sessions): with it a role
 * admin could take over an admin's account, which impersonation never allows. Only an admin
 * listed in `admin.userIds` may, and never on another listed admin (nor on themselves, who manage
 * their own sign-in as any user does).
 */
async function refuseAdminTarget(ctx: RequestContext, adminId: string, targetId: string, what: string): Promise<void> {
  if (isListedAdmin(ctx, targetId)) throw new PermissionDenied(`An admin cannot ${what} an admin listed in admin.userIds`)
  if (!isListedAdmin(ctx, adminId) && (await isAdmin(ctx, targetId))) {
    throw new PermissionDenied(`Only an admin listed in admin.userIds may ${what} another admin`)
  }
}

function banReason(reason: unknown): string | null {
  if (reason === undefined || reason === null || reason === "") return null
  if (typeof reason !== "string" || reason.length > MAX_REASON) throw new InvalidRequest(`reason must be text of at most ${MAX_REASON} characters`)
  return reason
}

function banEnd(expiresAt: unknown): Date | null {
  if (expiresAt === undefined || expiresAt === null || expiresAt === "") return null
  const date = expiresAt instanceof Date ? new Date(expiresAt) : typeof expiresAt === "string" ? new Date(expiresAt) : undefined
  if (!date || Number.isNaN(date.getTime())) throw new InvalidRequest("expiresAt must be a date (ISO 8601)")
  if (date.getTime() <= Date.now()) throw new InvalidRequest("expiresAt must be in the future")
  return date
}
