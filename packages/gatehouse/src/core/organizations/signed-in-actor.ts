/**
 * Who acts in an organization function or route: the signed-in user of the request's session,
 * and the admin impersonating them, if any. During an impersonation the admin sees what the user
 * sees (their organizations, members, invitations) and may switch the active organization, but
 * changes nothing in the user's name.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { ImpersonationRefused, InvalidConfig, SessionRequired } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { currentSessionContext } from "../sessions/session-context.js"

/** The user a request acts as, and who is impersonating them. */
export interface SignedInActor {
  /** The session's user (the impersonated one during an impersonation). */
  user: AdapterUser
  /** The admin impersonating `user`, or `null` for the user's own session. */
  impersonatorId: string | null
}

/**
 * The signed-in user of `ctx`'s request (an impersonated one included), when organizations are on.
 *
 * @throws {InvalidConfig} without `organizations`.
 * @throws {SessionRequired} without a standing session, or when its user is gone.
 */
export async function signedInActor(ctx: RequestContext): Promise<SignedInActor> {
  if (!ctx.config.organizations) throw new InvalidConfig("Organizations are not configured (`organizations`)")
  const current = await currentSessionContext(ctx)
  const user = current ? await callAdapter(ctx.config.adapter, "getUser", current.userId) : null
  if (!current || !user) throw new SessionRequired("This organization action needs a signed-in user")
  return { user, impersonatorId: current.context.impersonatorId }
}

/**
 * The signed-in user of `ctx`'s request when the session is their own: what every organization
 * change (other than the active organization) needs.
 *
 * @throws {ImpersonationRefused} during an impersonation; as {@link signedInActor} otherwise.
 */
export async function changingActor(ctx: RequestContext): Promise<AdapterUser> {
  const actor = await signedInActor(ctx)
  if (actor.impersonatorId !== null) throw new ImpersonationRefused("An impersonating admin cannot change organizations, members or invitations in the user's name")
  return actor.user
}
