/**
 * The second factor's management routes below `two-factor` (JSON, CSRF-checked on POST):
 * `POST totp` (start an enrolment: `{ uri, qr }`), `POST totp/confirm` (enable; the recovery codes
 * once), `POST recovery-codes` (regenerate), `POST disable`, `GET status`. Served only with
 * `twoFactor` configured. Not built yet (issue 37, management): each answers {@link UnknownAction}.
 * @module
 */
import type { TwoFactorSubPath } from "../../auth-routes.js"
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"

/** `GET two-factor/status`: what the signed-in user has enabled, and how many recovery codes are left. */
export async function twoFactorStatusRoute(_ctx: RequestContext): Promise<ResponseInternal> {
  throw notBuilt("status")
}

/** `POST two-factor/<subPath>`: enrol, confirm, regenerate, disable. */
export async function twoFactorManagement(ctx: RequestContext): Promise<ResponseInternal> {
  throw notBuilt(ctx.request.subPath)
}

function notBuilt(subPath: TwoFactorSubPath | undefined): UnknownAction {
  return new UnknownAction(`The two-factor route ${subPath ?? ""} is not available yet in this version of Gatehouse`)
}
