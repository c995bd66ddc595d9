/**
 * Joining an organization without an invitation: a user whose proven address is at one of the
 * domains of its policy (`emailDomains`) may join as `member`. Exact domains only: `corp.test`
 * admits `ada@corp.test`, not `ada@eng.corp.test` nor `ada@evilcorp.test`.
 * @module
 */
import type { AdapterMember } from "../../adapters/index.js"
import { InvalidEmail, InvalidRequest, OrganizationNotFound } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
import { plainEmailAddress } from "../email/identifier.js"
import type { RequestContext } from "../request-context.js"
import { domainOf } from "./policy.js"
import { changingActor } from "./signed-in-actor.js"

/** The domain of `email` as policies list domains, or `undefined` when it is no plain address. */
function addressDomain(email: string): string | undefined {
  try {
    return domainOf(plainEmailAddress(email))
  } catch (error) {
    if (error instanceof InvalidEmail) return undefined
    throw error
  }
}

/**
 * Makes the signed-in user a `member` of the organization when its policy admits their proven
 * address's domain.
 *
 * @throws {SessionRequired} without a session; {@link OrganizationNotFound} for an unknown
 *   organization and for one that does not admit the user (the two are not told apart: nobody
 *   learns which organizations exist); {@link InvalidRequest} when they are a member already.
 */
export async function joinByDomain(ctx: RequestContext, organizationId: string): Promise<AdapterMember> {
  const user = await changingActor(ctx)
  const adapter = ctx.config.adapter
  const organization = typeof organizationId === "string" && organizationId !== "" ? await callAdapter(adapter, "getOrganization", { id: organizationId }) : null
  const domains = (organization?.policy?.emailDomains ?? []).map((entry) => entry.toLowerCase())
  // Proven: an address typed in at sign-up is anyone's to claim.
  const domain = user.emailVerified && typeof user.email === "string" ? addressDomain(user.email) : undefined
  if (!organization || domain === undefined || !domains.includes(domain)) {
    throw new OrganizationNotFound(`No organization ${String(organizationId).slice(0, 100)} that admits this user's proven address`)
  }
  const added = await callAdapter(adapter, "addMember", { organizationId: organization.id, userId: user.id, role: "member" })
  if (added === "already-member") throw new InvalidRequest("The signed-in user is already a member of this organization")
  await recordAudit(ctx, user.id, { action: "member.add", organizationId: organization.id, targetType: "member", targetId: user.id, details: { role: "member", via: "email-domain" } })
  return added
}
