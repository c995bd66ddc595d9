/**
 * `session.activeOrganization`: the organization a session acts in, read again on every session
 * read by one indexed query (the member joined with its organization), with the role's
 * permissions and the policy requirements the session does not meet.
 * @module
 */
import type { AdapterMembership } from "../../adapters/index.js"
import type { ActiveOrganization } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { DEFAULT_ACCESS } from "./access.js"
import { unmetRequirements, type SessionFacts } from "./policy.js"

export type { SessionFacts }

/**
 * The active organization of a session, or `null` (none set, no longer a member, organization
 * gone): one `getMembership` query, then the role's permissions (none while a policy requirement
 * is unmet).
 */
export async function activeOrganizationOf(ctx: RequestContext, facts: SessionFacts): Promise<ActiveOrganization | null> {
  const organizationId = facts.context.activeOrganizationId
  if (!ctx.config.organizations || organizationId === null || organizationId === undefined || organizationId === "") return null
  const membership = await callAdapter(ctx.config.adapter, "getMembership", organizationId, facts.userId)
  if (!membership) return null
  return describeMembership(ctx, membership, facts)
}

/** `membership` as the session shows it, for the session described by `facts`. */
export async function describeMembership(ctx: RequestContext, membership: AdapterMembership, facts: SessionFacts): Promise<ActiveOrganization> {
  const { organization, role } = membership
  const unmet = unmetRequirements(ctx, organization, facts)
  // Fails closed: a session that does not meet the policy acts with no permission at all.
  const permissions = unmet.length > 0 ? [] : [...(await rolePermissions(ctx, organization.id, role))]
  return { id: organization.id, slug: organization.slug, name: organization.name, role, permissions, unmet }
}

/**
 * What `role` may do in the organization: the built-in and `access` roles first, else what
 * `organizations.loadRole` answers, else nothing (an unknown role is a role without permissions).
 */
export async function rolePermissions(ctx: RequestContext, organizationId: string, role: string): Promise<readonly string[]> {
  return (await definedRole(ctx, organizationId, role)) ?? []
}

/** Whether `role` is one the app knows: built-in, declared in `access`, or answered by `loadRole`. */
export async function isKnownRole(ctx: RequestContext, organizationId: string, role: string): Promise<boolean> {
  return (await definedRole(ctx, organizationId, role)) !== null
}

/**
 * The permissions of `role` when it is defined (built-in, `access`, or `loadRole` answering a list
 * of strings), else `null`. Anything else `loadRole` answers means "no such role": an app's
 * loader returning an object or a list of numbers must not grant, nor crash the request.
 */
export async function definedRole(ctx: RequestContext, organizationId: string, role: string): Promise<readonly string[] | null> {
  const options = ctx.config.organizations
  const declared = (options?.access ?? DEFAULT_ACCESS).roles
  if (Object.hasOwn(declared, role)) return declared[role] ?? []
  if (typeof options?.loadRole !== "function") return null
  const loaded: unknown = await options.loadRole(organizationId, role)
  return Array.isArray(loaded) && loaded.every((permission) => typeof permission === "string") ? (loaded as string[]) : null
}
