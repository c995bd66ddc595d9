/**
 * The account routes' and functions' gate: a user with a second factor enabled must have checked
 * it recently (`twoFactor.freshAge`) before ending sessions, unlinking or linking accounts, or
 * adding a passkey. Someone holding only a stolen or unattended session cannot then lock the owner
 * out or add a way in of their own.
 * @module
 */
import type { RequestContext } from "../request-context.js"

/**
 * Passes without `twoFactor` (nothing is loaded then), for users with no factor enabled, and for
 * sessions whose last second-factor check is recent enough.
 *
 * @throws {RecentAuthRequired} otherwise (answered with 403).
 */
export async function assertRecentForAccountChange(ctx: RequestContext, userId: string): Promise<void> {
  if (!ctx.config.twoFactor) return
  await (await import("../two-factor/recent-auth.js")).assertRecentSecondFactor(ctx, userId)
}
