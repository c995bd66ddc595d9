/**
 * `session.activeOrganization`: the organization a session acts in, read again on every session
 * read by one indexed query (the member joined with its organization), with the role's
 * permissions and the policy requirements the session does not meet.
 * @module
 */
import type { AdapterSessionContext } from "../../adapters/index.js"
import type { ActiveOrganization, SessionAuthentication } from "../../types.js"
import type { RequestContext } from "../request-context.js"

/** What the session read knows that the organization's policy asks about. */
export interface SessionFacts {
  userId: string
  context: AdapterSessionContext
  /** How the session was authenticated, when `twoFactor` is configured. */
  authentication: SessionAuthentication | undefined
}

/**
 * The active organization of a session, or `null` (none set, no longer a member, organization
 * gone). (Seam: implemented by the organizations part.)
 */
export async function activeOrganizationOf(_ctx: RequestContext, _facts: SessionFacts): Promise<ActiveOrganization | null> {
  return null
}
