/**
 * Whether a sign-in whose first factor passed needs a second one before any session exists: the
 * decision table of issue 37. Loaded only when `twoFactor` is configured.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { AccessDenied, TwoFactorUnavailable } from "../../errors.js"
import type { SessionAuthentication } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import type { ResolvedTwoFactor } from "../config.js"
import type { RequestContext } from "../request-context.js"
import { readTrustedDevice } from "./trust-device.js"

/** What the first factor proved, as RFC 8176 `amr` values, and whether a passkey verified the user. */
export interface FirstFactor {
  amr: string[]
  /** Present for passkeys only: whether the authenticator verified the user (PIN, biometrics). */
  passkeyUv?: boolean
  /**
   * The first factor was the mailbox (an email link or an email code): a code sent to the same
   * mailbox proves nothing more, so it is never the second factor.
   */
  byEmail?: boolean
}

/**
 * `none`: a session may be issued now, at `authentication`. `challenge`: the user has a factor
 * to check (`email` when that is the one to use). `enrol`: the user must set one up first.
 */
export type TwoFactorDecision =
  | { kind: "none"; authentication: SessionAuthentication }
  | { kind: "challenge"; method: "totp" | "email" }
  | { kind: "enrol" }

/**
 * The decision for `user` (a stored user) after `firstFactor`. A `require` function that throws
 * is a fault, and the sign-in is refused (fail closed) rather than let through on one factor.
 * A user who must have a second factor and has none is asked for the email code when that is a
 * second factor here (on, a verified address, a first factor other than the mailbox), else to
 * enrol an authenticator app.
 *
 * @throws {AccessDenied} when the `require` function throws.
 * @throws {TwoFactorUnavailable} when a second factor is required and neither is possible
 *   (authenticator apps off, the email code unusable): refused, not sent to an enrolment that cannot be done.
 */
export async function twoFactorDecision(ctx: RequestContext, twoFactor: ResolvedTwoFactor, user: AdapterUser, firstFactor: FirstFactor): Promise<TwoFactorDecision> {
  if (firstFactor.passkeyUv === true && twoFactor.passkey !== "one-factor") {
    return { kind: "none", authentication: twoFactorAuthentication(firstFactor.amr, []) }
  }
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", user.id)
  if (stored?.enabledAt) {
    if (twoFactor.trustDevice) {
      const trusted = await readTrustedDevice(ctx, { userId: user.id, enabledAt: stored.enabledAt, trustVersion: stored.trustVersion })
      if (trusted) {
        return { kind: "none", authentication: twoFactorAuthentication(firstFactor.amr, ["otp"], new Date(trusted.at * 1000)) }
      }
    }
    return { kind: "challenge", method: "totp" }
  }
  if (await required(twoFactor, user)) {
    if (twoFactor.email && user.email && user.emailVerified && firstFactor.byEmail !== true) return { kind: "challenge", method: "email" }
    if (twoFactor.totp) return { kind: "enrol" }
    throw new TwoFactorUnavailable(
      firstFactor.byEmail === true
        ? "Two-factor is required, the first factor was the mailbox (so the email code cannot be the second) and authenticator apps (twoFactor.totp) are off"
        : "Two-factor is required, the email code cannot be used (off, or the address is not verified) and authenticator apps (twoFactor.totp) are off",
    )
  }
  return { kind: "none", authentication: { aal: 1, amr: [...firstFactor.amr], secondFactorAt: null } }
}

async function required(twoFactor: ResolvedTwoFactor, user: AdapterUser): Promise<boolean> {
  // Not named `require`: a call of that name in the build reads as CommonJS (test/package/published-build).
  const rule = twoFactor.require
  if (rule === "always") return true
  if (rule === "enrolled") return false
  try {
    return (await rule(user)) === true
  } catch (error) {
    throw new AccessDenied("twoFactor.require threw; the sign-in is refused rather than let through on one factor", { cause: error })
  }
}

/**
 * How a session that passed a second factor reads, the one place it is built (sign-in, step-up,
 * passkey, trusted browser): aal 2, the first factor's `amr` with the second's (`otp` for an
 * authenticator, email or recovery code; none for a passkey that was both) and `mfa`, checked `at`.
 * `amr` is a set (RFC 8176): an email link (`otp`) and then an authenticator code read
 * `["otp", "mfa"]`, `mfa` saying that two distinct factors were counted, which Gatehouse
 * allows only when the second is not the mailbox again.
 */
export function twoFactorAuthentication(firstAmr: readonly string[], secondAmr: readonly string[], at: Date = new Date()): SessionAuthentication {
  return { aal: 2, amr: withMfa([...firstAmr, ...secondAmr]), secondFactorAt: at.toISOString() }
}

/** `amr` with `mfa` once, at the end: two factors were used. */
export function withMfa(amr: readonly string[]): string[] {
  const unique = [...new Set(amr.filter((value) => value !== "mfa"))]
  return [...unique, "mfa"]
}
