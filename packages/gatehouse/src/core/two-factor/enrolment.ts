/**
 * Enrolling an authenticator app: a new secret is made and kept aside (sealed, as the adapter's
 * pending secret; a factor already enabled stays in force meanwhile), shown as text, as an
 * `otpauth://` URI and as a QR code, and enabled only once a code made from it is right. Enabling
 * makes the recovery codes (shown once, stored as hashes) in the same adapter call, which refuses
 * when the pending secret changed after the code was checked (an enrolment started again).
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { encodeBase32 } from "../../encoding/base32.js"
import { sha256Hex } from "../../encoding/hex.js"
import { InvalidConfig, InvalidRequest, InvalidTwoFactorCode, TwoFactorFailed } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import { logError, reportConfigWarnings } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import { notifyFactorChange } from "./notify.js"
import { newRecoveryCodes, recoveryCodeHashes } from "./recovery-codes.js"
import { openTotpSecret, sealTotpSecret } from "./secret-seal.js"
import { newTotpSecret, otpauthUri, verifyTotp } from "./totp.js"

/** The `error` of `GET two-factor` after a confirm whose enrolment is no longer the one under way. */
export const ENROLMENT_RESTARTED = "TwoFactorEnrolmentRestarted"

/** What an enrolment shows the user. */
export interface TotpEnrolment {
  /** The secret in base32, in groups of four for reading and typing (`JBSW Y3DP …`). */
  secret: string
  /** The `otpauth://` URI an authenticator app scans. */
  uri: string
  /** The URI as a QR code (SVG), or `null` without `twoFactor.totp.qrCode`. */
  qr: string | null
}

/** An enrolment with the reference of its pending secret, which the enrolment page posts back. */
export interface StartedEnrolment extends TotpEnrolment {
  /** Names the pending secret without revealing it: a confirm for another secret is told apart. */
  ref: string
}

/**
 * Starts an enrolment for `user`: a new 20-byte secret, sealed and stored as their pending secret
 * (replacing any earlier pending one; an enabled factor stays until the new one is confirmed).
 *
 * @throws {InvalidRequest} when authenticator apps are not configured (`twoFactor.totp`).
 */
export async function beginTotpEnrolment(ctx: RequestContext, user: AdapterUser): Promise<StartedEnrolment> {
  const issuer = totpIssuer(ctx)
  const secret = newTotpSecret()
  const sealed = await sealTotpSecret(ctx.config, user.id, secret)
  await callAdapter(ctx.config.adapter, "setTotpPendingSecret", user.id, sealed)
  return enrolmentView(ctx, issuer, user, secret, sealed)
}

/**
 * The user's enrolment under way, as it was shown, when its reference is still `ref`: an
 * enrolment page asked again after a wrong code shows the same secret, never one started since
 * (by someone else holding the first factor, say).
 */
export async function currentTotpEnrolment(ctx: RequestContext, user: AdapterUser, ref: string): Promise<StartedEnrolment | undefined> {
  const issuer = totpIssuer(ctx)
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", user.id)
  const sealed = stored?.totpPendingSecret
  if (!sealed || (await enrolmentRef(sealed)) !== ref) return undefined
  const opened = await openTotpSecret(ctx.config, user.id, sealed)
  return opened && enrolmentView(ctx, issuer, user, opened.secret, sealed)
}

/**
 * Enables the pending secret of `user` when `code` is right for it: records the code's time step
 * (it cannot be used again), replaces the recovery codes with new ones, fires `twoFactorEnabled`
 * and tells the user. With `ref`, only the enrolment of that reference is confirmed.
 *
 * @returns The new recovery codes, to show once; only their hashes are stored.
 * @throws {InvalidTwoFactorCode} for a wrong code, no enrolment under way, or one started again
 *   since (`ref`, or the adapter's compare-and-set): nothing was enabled.
 * @throws {TwoFactorFailed} when the stored pending secret cannot be opened (stored data gone wrong).
 */
export async function confirmTotpEnrolment(ctx: RequestContext, user: AdapterUser, code: string, options: { ref?: string } = {}): Promise<{ recoveryCodes: string[] }> {
  totpIssuer(ctx)
  const { adapter } = ctx.config
  const stored = await callAdapter(adapter, "getTwoFactor", user.id)
  const sealed = stored?.totpPendingSecret
  if (!sealed) throw new InvalidTwoFactorCode("No authenticator enrolment is under way; start one first")
  if (options.ref !== undefined && options.ref !== (await enrolmentRef(sealed))) {
    throw new InvalidTwoFactorCode("The enrolment was started again; use the code of the new secret")
  }
  const opened = await openTotpSecret(ctx.config, user.id, sealed)
  if (!opened) throw new TwoFactorFailed("The pending authenticator secret could not be opened")
  const step = await verifyTotp(opened.secret, typeof code === "string" ? code : "")
  if (step === undefined) throw new InvalidTwoFactorCode("The code does not match the authenticator being enrolled")
  const recoveryCodes = newRecoveryCodes(ctx.config.twoFactor?.recoveryCodes ?? 0)
  const enabled = await callAdapter(adapter, "enableTotp", user.id, { sealed, step, recoveryCodeHashes: await recoveryCodeHashes(user.id, recoveryCodes) })
  if (!enabled) throw new InvalidTwoFactorCode("The enrolment was started again or already confirmed; nothing was enabled")
  await emitEvent(ctx.config, "twoFactorEnabled", { user, method: "totp" })
  await notifyFactorChange(ctx, user, "enabled")
  return { recoveryCodes }
}

/** The reference of a sealed pending secret (a digest: the sealed value itself stays server-side). */
export async function enrolmentRef(sealed: string): Promise<string> {
  return (await sha256Hex(`gatehouse.two-factor.enrolment\u0000${sealed}`)).slice(0, 32)
}

/** The configured issuer, or the refusal when authenticator apps are off. */
function totpIssuer(ctx: RequestContext): string {
  const totp = ctx.config.twoFactor?.totp
  if (!totp) throw new InvalidRequest("Authenticator apps are not enabled (`twoFactor.totp`)")
  return totp.issuer
}

async function enrolmentView(ctx: RequestContext, issuer: string, user: AdapterUser, secret: Uint8Array, sealed: string): Promise<StartedEnrolment> {
  const uri = otpauthUri({ issuer, account: user.email || user.name || user.id, secret })
  return { secret: spaced(encodeBase32(secret)), uri, qr: await qrCode(ctx, uri), ref: await enrolmentRef(sealed) }
}

/** Groups of four, as authenticator apps show a key typed in by hand. */
function spaced(base32: string): string {
  return base32.replace(/(.{4})(?=.)/g, "$1 ")
}

/**
 * `uri` as an SVG QR code drawn by the app's `totp.qrCode`; `null` (and a warning, once) without
 * one, or when it fails (logged): the page shows the secret as text instead.
 */
async function qrCode(ctx: RequestContext, uri: string): Promise<string | null> {
  const draw = ctx.config.twoFactor?.totp?.qrCode
  if (!draw) {
    reportConfigWarnings(ctx.logger, ctx.config, ["two-factor-qr-missing"])
    return null
  }
  try {
    const svg = await draw(uri)
    if (typeof svg === "string" && svg.trimStart().startsWith("<svg")) return svg
    throw new TypeError(`twoFactor.totp.qrCode answered ${typeof svg === "string" ? "text that is not SVG markup" : typeof svg}`)
  } catch (error) {
    logError(ctx.logger, new InvalidConfig("twoFactor.totp.qrCode failed; the enrolment shows the secret as text", { cause: error }))
    return null
  }
}
