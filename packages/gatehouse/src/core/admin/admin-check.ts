/**
 * Who is an admin: a user listed in `admin.userIds`, or one whose stored role is in `admin.roles`
 * (default `["admin"]`). Fails closed: without `admin` configured nobody is.
 * @module
 */
import type { AdapterUserStatus } from "../../adapters/index.js"
import type { RequestContext } from "../request-context.js"
import { callAdapter } from "../adapter-call.js"

/** Whether `userId` is an admin under `ctx`'s configuration (one indexed read when ids do not decide). */
export async function isAdmin(ctx: RequestContext, userId: string): Promise<boolean> {
  const admin = ctx.config.admin
  if (!admin) return false
  if (admin.userIds?.includes(userId)) return true
  if ((admin.roles ?? ["admin"]).length === 0) return false
  return hasAdminRole(ctx, await readStatus(ctx, userId))
}

/**
 * Whether `userId` is an admin, and their stored status (role and ban), from one read: what the
 * admin API asks of the admin acting, who must be both an admin and not banned.
 */
export async function adminStanding(ctx: RequestContext, userId: string): Promise<{ admin: boolean; status: AdapterUserStatus | null }> {
  if (!ctx.config.admin) return { admin: false, status: null }
  const status = await readStatus(ctx, userId)
  return { admin: ctx.config.admin.userIds?.includes(userId) === true || hasAdminRole(ctx, status), status }
}

async function readStatus(ctx: RequestContext, userId: string): Promise<AdapterUserStatus | null> {
  if (typeof ctx.config.adapter?.getUserStatus !== "function") return null
  return (await callAdapter(ctx.config.adapter, "getUserStatus", userId)) ?? null
}

function hasAdminRole(ctx: RequestContext, status: AdapterUserStatus | null): boolean {
  const roles = ctx.config.admin?.roles ?? ["admin"]
  return status?.role !== null && status?.role !== undefined && roles.includes(status.role)
}
