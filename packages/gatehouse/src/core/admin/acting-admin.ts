/**
 * Who may use the admin API: the signed-in user of the request, when they are an admin
 * (`admin-check.ts`). Every admin function and route asks this first, and fails closed.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { InvalidConfig, PermissionDenied, SessionRequired, UserNotFound } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { adminStanding } from "./admin-check.js"
import { isBanned } from "./ban-check.js"

/**
 * The request's signed-in admin.
 *
 * @throws {InvalidConfig} without `admin` configured; {@link SessionRequired} without a session;
 *   {@link PermissionDenied} for a user who is not an admin, or is banned.
 */
export async function actingAdmin(ctx: RequestContext): Promise<AdapterUser> {
  if (!ctx.config.admin) throw new InvalidConfig("The admin API is not configured (`admin`)")
  const user = await currentUser(ctx)
  if (!user) throw new SessionRequired("The admin API needs a signed-in admin")
  // Role and ban from one read: a banned admin loses the admin API at once, not at their JWT
  // session's next version check (and so cannot lift their own ban in between).
  const { admin, status } = await adminStanding(ctx, user.id)
  if (!admin) throw new PermissionDenied("Only admins may use the admin API")
  if (isBanned(status)) throw new PermissionDenied("A banned admin may not use the admin API")
  return user
}

/**
 * The stored user an admin action targets.
 *
 * @throws {UserNotFound} for an id that is no stored user's (or is no id at all).
 */
export async function targetUser(ctx: RequestContext, userId: unknown): Promise<AdapterUser> {
  if (typeof userId !== "string" || userId === "" || userId.length > MAX_ID_LENGTH) throw new UserNotFound("No such user")
  const user = await callAdapter(ctx.config.adapter, "getUser", userId)
  if (!user) throw new UserNotFound("No such user")
  return user
}

/** Longer than any id a store makes (a uuid is 36): what is longer names no user, and is not looked up. */
const MAX_ID_LENGTH = 255

/** Whether `userId` is an admin by `admin.userIds`: such admins are beyond the admin API's reach (ban, delete). */
export function isListedAdmin(ctx: RequestContext, userId: string): boolean {
  return ctx.config.admin?.userIds?.includes(userId) === true
}
