/**
 * Checking a code against a user's stored second factor (authenticator app or recovery code), for
 * a pending sign-in and for step-up alike.
 * @module
 */
import { TwoFactorFailed } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import { recoveryCodeHash } from "./recovery-codes.js"
import { openTotpSecret, sealTotpSecret } from "./secret-seal.js"
import { verifyTotp } from "./totp.js"

/**
 * Whether `code` is right for `uid`'s enabled factor, spending it (a TOTP step, a recovery code)
 * when it is: the same code never passes twice. A right TOTP code whose secret was sealed under an
 * older auth secret reseals it under the newest (auth secret rotation).
 *
 * @throws {TwoFactorFailed} when the stored secret cannot be opened (stored data gone wrong, not a wrong code).
 */
export async function checkSecondFactorCode(ctx: RequestContext, uid: string, method: "totp" | "recovery", code: string): Promise<boolean> {
  const { adapter } = ctx.config
  if (method === "recovery") {
    const hash = await recoveryCodeHash(uid, code)
    return hash !== undefined && (await callAdapter(adapter, "useRecoveryCode", uid, hash)) === true
  }
  const stored = await callAdapter(adapter, "getTwoFactor", uid)
  if (!stored?.enabledAt || !stored.totpSecret) return false
  const opened = await openTotpSecret(ctx.config, uid, stored.totpSecret)
  // A secret that does not open is stored data gone wrong, not a wrong code: a fault.
  if (!opened) throw new TwoFactorFailed("The stored authenticator secret could not be opened")
  const step = await verifyTotp(opened.secret, code, { afterStep: stored.totpLastStep })
  const right = step !== undefined && (await callAdapter(adapter, "useTotpStep", uid, step)) === true
  if (right && opened.stale) await resealTotpSecret(ctx, uid, opened.secret, stored.totpSecret)
  return right
}

/**
 * Seals `secret` again under the newest auth secret, replacing `previous` (sealed under an older
 * one), so that the older secret can be dropped from the configuration without locking the user
 * out. A compare-and-set: a concurrent rotation or re-enrolment wins and `false` is fine. A failure
 * is logged and the check stands: the code was right, and the next one tries again.
 */
async function resealTotpSecret(ctx: RequestContext, uid: string, secret: Uint8Array, previous: string): Promise<void> {
  try {
    const resealed = await sealTotpSecret(ctx.config, uid, secret)
    await callAdapter(ctx.config.adapter, "updateTotpSecret", uid, resealed, previous)
  } catch (error) {
    logError(ctx.logger, error)
  }
}
