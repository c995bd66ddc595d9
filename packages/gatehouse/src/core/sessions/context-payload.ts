/**
 * The session fields Gatehouse sets from a session's context after the `session` callback (which
 * therefore cannot set or change them): `activeOrganization` with `organizations` configured,
 * `impersonatedBy` with `admin` configured. Loaded only by configurations that have either.
 * @module
 */
import type { AdapterSessionContext } from "../../adapters/index.js"
import type { Impersonator, Session, SessionAuthentication } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { activeOrganizationOf } from "../organizations/active.js"
import type { RequestContext } from "../request-context.js"

/** What a session read knows of the session's context. */
export interface ContextFacts {
  userId: string
  context: AdapterSessionContext
  /** How the session was authenticated, when `twoFactor` is configured. */
  authentication: SessionAuthentication | undefined
  /** When the impersonation ends, while `context.impersonatorId` is set. */
  impersonationExpires: Date | null
}

/** Sets `session.activeOrganization` and `session.impersonatedBy` as the configuration asks. */
export async function addContextFields(ctx: RequestContext, session: Session, facts: ContextFacts): Promise<void> {
  const { organizations, admin } = ctx.config
  const [activeOrganization, impersonatedBy] = await Promise.all([
    organizations && facts.context.activeOrganizationId !== null
      ? activeOrganizationOf(ctx, { userId: facts.userId, context: facts.context, authentication: facts.authentication })
      : null,
    admin && facts.context.impersonatorId !== null ? impersonatorOf(ctx, facts.context.impersonatorId, facts.impersonationExpires) : null,
  ])
  if (organizations) session.activeOrganization = activeOrganization
  if (admin) session.impersonatedBy = impersonatedBy
}

/** The admin acting as the session's user, as the app shows them (their name and address read now). */
async function impersonatorOf(ctx: RequestContext, adminId: string, expires: Date | null): Promise<Impersonator> {
  const admin = ctx.config.adapter ? await callAdapter(ctx.config.adapter, "getUser", adminId) : null
  return {
    id: adminId,
    name: admin?.name ?? null,
    email: admin?.email ?? null,
    // A context naming an admin always has an end (the JWT's `imp.exp`, the row's expiry).
    expires: (expires ?? new Date()).toISOString(),
  }
}
