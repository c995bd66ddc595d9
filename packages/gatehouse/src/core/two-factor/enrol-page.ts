/**
 * The enrolment page (`GET two-factor` for a pending sign-in in `enrol` mode, or a signed-in user
 * setting a factor up): QR code, the secret as text, the confirm form. Not built yet (issue 37,
 * enrolment part).
 * @module
 */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import type { PendingSignIn } from "./pending.js"

/** Who is enrolling: the user of a pending sign-in, or a signed-in user. */
export type Enrolling = { pending: PendingSignIn } | { userId: string }

/** `GET two-factor` when the answer is to set a factor up. */
export async function twoFactorEnrolPage(_ctx: RequestContext, _who: Enrolling): Promise<ResponseInternal> {
  throw new UnknownAction("Enrolment pages are not available yet in this version of Gatehouse")
}
