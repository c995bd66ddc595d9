/**
 * Whether the request's session passed a second factor recently enough for a sensitive change
 * (enrolling again, new recovery codes, disabling, the account routes): `freshAge` seconds.
 * @module
 */
import { RecentAuthRequired } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { currentAuthentication } from "../sessions/index.js"

/** What a sensitive change needs of the session. */
export interface RecentAuthOptions {
  /** Seconds since the last second-factor check; default `twoFactor.freshAge`. */
  maxAge?: number
  /** `2`: a second factor is needed even from users who have none enabled. */
  aal?: 1 | 2
}

/**
 * Passes when `userId` has no second factor enabled (unless `aal: 2` is asked), or when the
 * request's session checked one within `maxAge` seconds. Without `twoFactor` configured nothing is
 * asked, except `aal: 2`, which then can never pass.
 *
 * @throws {RecentAuthRequired} otherwise.
 */
export async function assertRecentSecondFactor(ctx: RequestContext, userId: string, options: RecentAuthOptions = {}): Promise<void> {
  const twoFactor = ctx.config.twoFactor
  if (!twoFactor) {
    // No session records a second factor without twoFactor: aal 2 can never be shown (fail closed).
    if (options.aal === 2) throw new RecentAuthRequired("A second factor was asked for, but twoFactor is not configured")
    return
  }
  if (options.aal !== 2) {
    const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", userId)
    if (!stored?.enabledAt) return
  }
  const authentication = await currentAuthentication(ctx)
  const at = authentication?.aal === 2 && authentication.secondFactorAt ? Date.parse(authentication.secondFactorAt) : Number.NaN
  const maxAge = options.maxAge ?? twoFactor.freshAge
  if (!(Date.now() - at <= maxAge * 1000)) throw new RecentAuthRequired(`This needs a second-factor check within the last ${maxAge} seconds`)
}
