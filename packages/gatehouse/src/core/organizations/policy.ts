/**
 * An organization's policy (require two-factor sign-in, allowed sign-in methods, joining by
 * verified email domain) as it applies to one session.
 * @module
 */
import type { AdapterOrganization } from "../../adapters/index.js"
import type { OrganizationRequirement } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import type { SessionFacts } from "./active.js"

/**
 * The requirements of `organization`'s policy that the session described by `facts` does not meet.
 * (Seam: implemented by the invitations-and-policy part.)
 */
export function unmetRequirements(_ctx: RequestContext, _organization: AdapterOrganization, _facts: SessionFacts): OrganizationRequirement[] {
  return []
}

/**
 * `value` as an organization policy, checked (known fields, lists of strings, domains in lower
 * case), for `updateOrganization`. (Seam: implemented by the invitations-and-policy part.)
 *
 * @throws {InvalidRequest} naming what is wrong.
 */
export function checkedPolicy(value: unknown): import("../../adapters/index.js").OrganizationPolicy | null {
  return value === null || value === undefined ? null : (value as import("../../adapters/index.js").OrganizationPolicy)
}
