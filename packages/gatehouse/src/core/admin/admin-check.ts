/**
 * Who is an admin: a user listed in `admin.userIds`, or one whose stored role is in `admin.roles`
 * (default `["admin"]`). Fails closed: without `admin` configured nobody is.
 * @module
 */
import type { RequestContext } from "../request-context.js"
import { callAdapter } from "../adapter-call.js"

/** Whether `userId` is an admin under `ctx`'s configuration (one indexed read when ids do not decide). */
export async function isAdmin(ctx: RequestContext, userId: string): Promise<boolean> {
  const admin = ctx.config.admin
  if (!admin) return false
  if (admin.userIds?.includes(userId)) return true
  const roles = admin.roles ?? ["admin"]
  if (roles.length === 0 || typeof ctx.config.adapter?.getUserStatus !== "function") return false
  const status = await callAdapter(ctx.config.adapter, "getUserStatus", userId)
  return status?.role !== null && status?.role !== undefined && roles.includes(status.role)
}
