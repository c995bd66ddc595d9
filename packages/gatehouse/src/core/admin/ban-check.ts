/**
 * The ban's refusal at sign-in: while `admin` is configured, every session a sign-in starts is
 * first checked against the user's status (one read by primary key). A ban whose end has passed
 * refuses nothing.
 * @module
 */
import type { AdapterUserStatus } from "../../adapters/index.js"
import { UserBanned } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"

/** Whether `status` holds a ban in force at `now` (milliseconds). */
export function isBanned(status: AdapterUserStatus | null | undefined, now: number = Date.now()): boolean {
  if (!status || status.bannedAt === null || status.bannedAt === undefined) return false
  return status.banExpiresAt === null || status.banExpiresAt === undefined || new Date(status.banExpiresAt).getTime() > now
}

/**
 * Throws {@link UserBanned} when `userId` is banned under `ctx`'s configuration. Nothing is read
 * without `admin` configured, nor for a sign-in without a user id.
 */
export async function refuseBannedUser(ctx: RequestContext, userId: string | null | undefined): Promise<void> {
  if (!ctx.config.admin || typeof userId !== "string" || userId === "") return
  const status = await callAdapter(ctx.config.adapter, "getUserStatus", userId)
  // The reason is for admins: the person signing in learns only that they are banned.
  if (isBanned(status)) throw new UserBanned("This user is banned")
}
