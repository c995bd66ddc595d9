/**
 * The session fields Gatehouse sets from a session's context after the `session` callback (which
 * therefore cannot set or change them): `activeOrganization` with `organizations` configured,
 * `impersonatedBy` with `admin` configured. Loaded only by configurations that have either.
 * @module
 */
import type { AdapterSessionContext } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { sessionStore } from "../../cookies/session-store.js"
import { SessionTokenError } from "../../errors.js"
import type { Impersonator, Session, SessionAuthentication } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { isAdmin } from "../admin/admin-check.js"
import { isBanned } from "../admin/ban-check.js"
import { logError } from "../logger.js"
import { activeOrganizationOf } from "../organizations/active.js"
import type { RequestContext } from "../request-context.js"
import { sessionStoreOf } from "./session-cookie.js"

/** What a session read knows of the session's context. */
export interface ContextFacts {
  userId: string
  context: AdapterSessionContext
  /** How the session was authenticated, when `twoFactor` is configured. */
  authentication: SessionAuthentication | undefined
  /** The admin impersonating the session's user, as {@link checkImpersonator} found them; `null` for none. */
  impersonatedBy: Impersonator | null
}

/**
 * Sets `session.activeOrganization` and `session.impersonatedBy` as the configuration asks. The
 * active organization fails closed: when it cannot be read (the adapter, a `loadRole`), the
 * failure is logged and the session reads with none, and stays signed in.
 */
export async function addContextFields(ctx: RequestContext, session: Session, facts: ContextFacts): Promise<void> {
  const { organizations, admin } = ctx.config
  if (organizations) {
    let activeOrganization: Session["activeOrganization"] = null
    if (facts.context.activeOrganizationId !== null) {
      try {
        activeOrganization = await activeOrganizationOf(ctx, { userId: facts.userId, context: facts.context, authentication: facts.authentication })
      } catch (error) {
        logError(ctx.logger, new SessionTokenError("The session's active organization could not be read", { cause: error }))
      }
    }
    session.activeOrganization = activeOrganization
  }
  if (admin) session.impersonatedBy = facts.impersonatedBy
}

/**
 * Whether the admin impersonating a session's user still may, read on every read of an
 * impersonation session (other sessions read nothing here): the admin as the app shows them
 * (their name and address read now); `"ended"` when the admin was deleted, is no admin any more or
 * is banned, so the impersonation must end now; `"unchecked"` when the adapter failed (logged):
 * there is no session for this read, but nothing ends.
 */
export async function checkImpersonator(ctx: RequestContext, adminId: string, expires: Date): Promise<Impersonator | "ended" | "unchecked"> {
  try {
    return (await impersonatorStanding(ctx, adminId, expires)) ?? "ended"
  } catch (error) {
    logError(ctx.logger, new SessionTokenError("The impersonating admin could not be checked", { cause: error }))
    return "unchecked"
  }
}

/**
 * The admin impersonating a session's user as the app shows them, or `null` when they were
 * deleted, are no admin any more or are banned (three reads by primary key, at once). Adapter
 * failures propagate.
 */
export async function impersonatorStanding(ctx: RequestContext, adminId: string, expires: Date): Promise<Impersonator | null> {
  const { adapter } = ctx.config
  const [admin, stillAdmin, status] = await Promise.all([
    callAdapter(adapter, "getUser", adminId),
    isAdmin(ctx, adminId),
    typeof adapter?.getUserStatus === "function" ? callAdapter(adapter, "getUserStatus", adminId) : null,
  ])
  if (!admin || !stillAdmin || isBanned(status)) return null
  return { id: adminId, name: admin.name ?? null, email: admin.email ?? null, expires: expires.toISOString() }
}

/** The cookies that end an impersonation in the browser: its session, and the admin's session waiting beside it. */
export function endedImpersonationCookies(ctx: RequestContext): Cookie[] {
  return [...sessionStoreOf(ctx).clean(), ...sessionStore(ctx.cookies.impersonator, ctx.request.cookies).clean()]
}
