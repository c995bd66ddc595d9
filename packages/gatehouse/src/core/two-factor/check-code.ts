/**
 * Checking a code against a user's stored second factor (authenticator app or recovery code), for
 * a pending sign-in and for step-up alike.
 * @module
 */
import { TwoFactorFailed } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { recoveryCodeHash } from "./recovery-codes.js"
import { openTotpSecret } from "./secret-seal.js"
import { verifyTotp } from "./totp.js"

/**
 * Whether `code` is right for `uid`'s enabled factor, spending it (a TOTP step, a recovery code)
 * when it is: the same code never passes twice.
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
  return step !== undefined && (await callAdapter(adapter, "useTotpStep", uid, step)) === true
}
