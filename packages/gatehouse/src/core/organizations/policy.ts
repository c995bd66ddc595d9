/**
 * An organization's policy (require two-factor sign-in, allowed sign-in methods, joining by
 * verified email domain) as it applies to one session, and the check of a policy an owner sets.
 * @module
 */
import type { AdapterOrganization, AdapterSessionContext, OrganizationPolicy } from "../../adapters/index.js"
import { InvalidEmail, InvalidRequest } from "../../errors.js"
import type { OrganizationRequirement, SessionAuthentication } from "../../types.js"
import { plainEmailAddress } from "../email/identifier.js"
import type { ResolvedConfig } from "../config.js"
import type { RequestContext } from "../request-context.js"

/** What the session read knows that the organization's policy asks about. */
export interface SessionFacts {
  userId: string
  context: AdapterSessionContext
  /** How the session was authenticated, when `twoFactor` is configured. */
  authentication: SessionAuthentication | undefined
}

/**
 * The requirements of `organization`'s policy that the session described by `facts` does not
 * meet. Fails closed: two-factor sign-in required where `twoFactor` is not configured (no session
 * can show a second factor), or a session whose sign-in method was never recorded, is unmet.
 */
export function unmetRequirements(ctx: RequestContext, organization: AdapterOrganization, facts: SessionFacts): OrganizationRequirement[] {
  const policy = organization.policy
  if (!policy) return []
  const unmet: OrganizationRequirement[] = []
  if (policy.requireTwoFactor === true && !(ctx.config.twoFactor !== undefined && facts.authentication?.aal === 2)) unmet.push("two-factor")
  if (Array.isArray(policy.signInMethods)) {
    const provider = facts.context.signInProvider
    if (provider === null || !policy.signInMethods.includes(provider)) unmet.push("sign-in-method")
  }
  return unmet
}

const FIELDS: ReadonlySet<string> = new Set(["requireTwoFactor", "signInMethods", "emailDomains"])

/** More entries than any organization needs; a bound on what one update stores. */
const MAX_ENTRIES = 100
/** A provider id longer than this is not one. */
const MAX_PROVIDER_ID = 100

/**
 * `value` as an organization policy, checked: only the known fields, `requireTwoFactor` a
 * boolean, `signInMethods` a non-empty list of provider ids, `emailDomains` a list of domains
 * (written in lower case, without a leading `@`; duplicates dropped). `null` or `undefined`
 * clears the policy. A policy no session could meet is refused: `signInMethods` naming a provider
 * `config` does not have, `requireTwoFactor` without `twoFactor` configured (every member would
 * be locked out, the one who could undo it too).
 *
 * @throws {InvalidRequest} naming what is wrong.
 */
export function checkedPolicy(value: unknown, config: Pick<ResolvedConfig, "providers" | "twoFactor">): OrganizationPolicy | null {
  if (value === null || value === undefined) return null
  if (typeof value !== "object" || Array.isArray(value)) throw new InvalidRequest("The organization policy must be an object or null")
  const fields = value as Record<string, unknown>
  for (const key of Object.keys(fields)) {
    if (!FIELDS.has(key)) throw new InvalidRequest(`Unknown organization policy field ${JSON.stringify(key)}; known fields are requireTwoFactor, signInMethods and emailDomains`)
  }
  const policy: OrganizationPolicy = {}
  const { requireTwoFactor, signInMethods, emailDomains } = fields
  if (requireTwoFactor !== undefined) {
    if (typeof requireTwoFactor !== "boolean") throw new InvalidRequest("The policy's requireTwoFactor must be true or false")
    if (requireTwoFactor && config.twoFactor === undefined) throw new InvalidRequest("The policy cannot require two-factor sign-in: two-factor sign-in is not configured (`twoFactor`)")
    policy.requireTwoFactor = requireTwoFactor
  }
  if (signInMethods !== undefined) {
    const methods = stringList(signInMethods, "signInMethods")
    // An empty list would lock every member out; "every method" is the field left out.
    if (methods.length === 0) throw new InvalidRequest("The policy's signInMethods must name at least one provider id; leave it out to allow every sign-in method")
    for (const method of methods) {
      if (method === "" || method.length > MAX_PROVIDER_ID || method.trim() !== method) throw new InvalidRequest(`The policy's signInMethods has an entry that is not a provider id: ${JSON.stringify(method.slice(0, MAX_PROVIDER_ID))}`)
      if (!config.providers.some((provider) => provider.id === method)) {
        throw new InvalidRequest(`The policy's signInMethods names ${JSON.stringify(method)}, which is not a configured provider; known ids are ${config.providers.map((provider) => provider.id).join(", ")}`)
      }
    }
    policy.signInMethods = [...new Set(methods)]
  }
  if (emailDomains !== undefined) policy.emailDomains = [...new Set(stringList(emailDomains, "emailDomains").map(emailDomain))]
  return policy
}

/** `value` when it is a list of at most {@link MAX_ENTRIES} strings. */
function stringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.every((entry): entry is string => typeof entry === "string")) {
    throw new InvalidRequest(`The policy's ${field} must be a list of strings`)
  }
  if (value.length > MAX_ENTRIES) throw new InvalidRequest(`The policy's ${field} has more than ${MAX_ENTRIES} entries`)
  return value
}

/**
 * `input` as a domain addresses are compared by: lower case, NFKC, no leading `@`, checked as
 * the domain of a plain address (the same rule sign-in addresses go through).
 *
 * @throws {InvalidRequest} when it is not a domain.
 */
export function emailDomain(input: string): string {
  const trimmed = input.trim().replace(/^@/, "")
  try {
    return domainOf(plainEmailAddress(`domain-check@${trimmed}`))
  } catch (error) {
    if (error instanceof InvalidEmail) throw new InvalidRequest(`The policy's emailDomains has an entry that is not a domain: ${JSON.stringify(input.slice(0, 255))}`)
    throw error
  }
}

/** The domain of a plain `local@domain` address (what follows its one `@`). */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1)
}
