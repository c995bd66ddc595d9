/**
 * Step-up: `POST two-factor` with no pending sign-in but a session, whose user proves their second
 * factor again to raise or refresh the session's authentication. Not built yet (issue 37, step-up
 * part): answers as without a pending sign-in.
 * @module
 */
import { TwoFactorExpired } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"

/** `POST two-factor` without a pending sign-in. */
export async function stepUpChallenge(_ctx: RequestContext): Promise<ResponseInternal> {
  throw new TwoFactorExpired("There is no sign-in waiting for a second factor")
}
