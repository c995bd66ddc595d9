/**
 * `GET|POST {basePath}/two-factor`: the second-factor page, and the code posted to it (finishing a
 * pending sign-in, or a step-up of the current session). Served only with `twoFactor`
 * configured. Not built yet (issue 37, sign-in core): both answer {@link UnknownAction}, so a
 * configuration with `twoFactor` gets a clear refusal rather than a half-made sign-in.
 * @module
 */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"

/** `GET two-factor`: the challenge or enrolment page of the pending sign-in, or a step-up. */
export async function twoFactorPage(_ctx: RequestContext): Promise<ResponseInternal> {
  throw notBuilt()
}

/** `POST two-factor`: `code`, `method` (`totp`, `email`, `recovery`), `trustDevice`, `csrfToken`. */
export async function twoFactorChallenge(_ctx: RequestContext): Promise<ResponseInternal> {
  throw notBuilt()
}

function notBuilt(): UnknownAction {
  return new UnknownAction("The two-factor challenge is not available yet in this version of Gatehouse")
}
