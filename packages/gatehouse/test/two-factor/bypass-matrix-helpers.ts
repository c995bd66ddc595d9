/**
 * Shared by the bypass-matrix files: RFC 6238 codes computed here with node:crypto (never with the
 * library), enrolling a stored user as a confirmed enrolment leaves them, and what "no session"
 * and "one session" mean for a response and a store.
 */
import { randomBytes } from "node:crypto"
import { expect } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import type { TwoFactorRequire } from "../../src/types.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { secret } from "../flow/flow-helpers.js"
import { currentStep } from "../support/totp-reference.js"
export { totpAt, currentStep, totpNow } from "../support/totp-reference.js"

export const ORIGIN = "https://app.test"
export const SESSION = "__Secure-authjs.session-token"
export const PENDING = "__Secure-authjs.two-factor"
export const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`
export const DASHBOARD = `${ORIGIN}/dashboard`
export const RECOVERY_CODE = "ABCDE-FGHJK-MNPQR-STVWX-YZ012"

export type Adapted = Adapter &
  Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "listSessionsByUserId" | "getUserByAccount" | "createUser" | "getUserByEmail" | "linkAccount">>

/** Session authentication as `session.authentication` shows it. */
export type Authentication = { aal: number; amr: string[]; secondFactorAt: string | null }

/** Enrols `uid` in TOTP (as a confirmed enrolment leaves it) with one recovery code; returns the key. */
export async function enrol(adapter: Adapter, uid: string): Promise<Uint8Array> {
  const key = new Uint8Array(randomBytes(20))
  const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
  await adapter.setTotpPendingSecret!(uid, sealed)
  const enabled = await adapter.enableTotp!(uid, { sealed, step: currentStep() - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, [RECOVERY_CODE]) })
  expect(enabled).toBe(true)
  return key
}

/** Whether a response sets (not deletes) a cookie named `name` or one of its chunks. */
export function sets(response: { headers: Headers }, name: string): boolean {
  return response.headers.getSetCookie().some((line) => {
    const [pair = ""] = line.split(";")
    const at = pair.indexOf("=")
    const cookie = pair.slice(0, at)
    return (cookie === name || cookie.startsWith(`${name}.`)) && pair.slice(at + 1) !== ""
  })
}

/**
 * The `require` policies of the matrix, each with what it means for a user who is not enrolled:
 * signed in at aal 1 at once, or sent to enrolment with no session. A function is made anew per cell.
 */
export const POLICIES: ReadonlyArray<readonly [name: string, policy: () => TwoFactorRequire, notEnrolled: "aal 1" | "enrolment"]> = [
  ['"enrolled"', () => "enrolled", "aal 1"],
  ['"always"', () => "always", "enrolment"],
  ["a function answering true", () => () => true, "enrolment"],
  ["a function answering false", () => async () => false, "aal 1"],
]
/** The policies under which a user who is not enrolled must enrol before any session. */
export const ENROLMENT_FIRST = POLICIES.filter(([, , notEnrolled]) => notEnrolled === "enrolment")
/** The policies under which a user who is not enrolled is signed in at once, at aal 1. */
export const AT_ONCE = POLICIES.filter(([, , notEnrolled]) => notEnrolled === "aal 1")
