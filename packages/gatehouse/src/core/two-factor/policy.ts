/**
 * Whether a sign-in whose first factor passed needs a second one before any session exists: the
 * decision table of issue 37. Loaded only when `twoFactor` is configured.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { AccessDenied } from "../../errors.js"
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
 *
 * @throws {AccessDenied} when the `require` function throws.
 */
export async function twoFactorDecision(ctx: RequestContext, twoFactor: ResolvedTwoFactor, user: AdapterUser, firstFactor: FirstFactor): Promise<TwoFactorDecision> {
  if (firstFactor.passkeyUv === true && twoFactor.passkey !== "one-factor") {
    return { kind: "none", authentication: { aal: 2, amr: withMfa(firstFactor.amr), secondFactor: "passkey", secondFactorAt: new Date().toISOString() } }
  }
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", user.id)
  if (stored?.enabledAt) {
    if (twoFactor.trustDevice) {
      const trusted = await readTrustedDevice(ctx, { userId: user.id, enabledAt: stored.enabledAt, trustVersion: stored.trustVersion })
      if (trusted) {
        return { kind: "none", authentication: { aal: 2, amr: withMfa([...firstFactor.amr, "otp"]), secondFactorAt: new Date(trusted.at * 1000).toISOString() } }
      }
    }
    return { kind: "challenge", method: "totp" }
  }
  if (await required(twoFactor, user)) {
    return twoFactor.email && user.email && user.emailVerified ? { kind: "challenge", method: "email" } : { kind: "enrol" }
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

/** `amr` with `mfa` once, at the end: two factors were used. */
export function withMfa(amr: readonly string[]): string[] {
  const unique = [...new Set(amr.filter((value) => value !== "mfa"))]
  return [...unique, "mfa"]
}
