/**
 * Impersonation: an admin acts as another user, in a session of that user marked with the admin
 * (`session.impersonatedBy`), for `admin.impersonationMaxAge` seconds at most (one hour). The mark
 * and the end are Gatehouse's own (the JWT's `imp` claim, the database session's context and
 * row expiry), so neither a callback, a session update nor sliding can extend or clear them. The
 * admin's own session waits meanwhile in the encrypted impersonator cookie and is put back by
 * {@link stopImpersonation}; once the impersonation ran out, the browser has no session.
 *
 * Refused (`ImpersonationRefused`): of an admin, of oneself, of a banned user, and from inside an
 * impersonation. Only admins may (`PermissionDenied`). Each start and stop writes one audit row.
 * @module
 */
import type { Cookie } from "../../cookies/defaults.js"
import { sessionStore } from "../../cookies/session-store.js"
import { ImpersonationRefused, InvalidConfig, InvalidRequest, PermissionDenied, SessionRequired, UserNotFound } from "../../errors.js"
import { decode, encode } from "../../jwt/index.js"
import type { Impersonator } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
import type { RequestContext } from "../request-context.js"
import { impersonationSessionCookies } from "../sign-in-session.js"
import { currentSessionContext } from "../sessions/session-context.js"
import { sessionStoreOf } from "../sessions/session-cookie.js"
import { isAdmin } from "./admin-check.js"
import { isBanned } from "./ban-check.js"

/** The longest an impersonation may last, and its default (seconds). */
export const MAX_IMPERSONATION_SECONDS = 3600

/** What the impersonator cookie holds: the admin's own session, and whose impersonation it waits for. */
interface WaitingSession {
  v: 1
  /** The admin's session cookie value (chunks joined). */
  session: string
  /** The admin's id. */
  admin: string
  /** The impersonated user's id. */
  user: string
}

/** An impersonation just started: the cookies to send, and how the session will show it. */
export interface StartedImpersonation {
  cookies: Cookie[]
  impersonatedBy: Impersonator
}

/** Seconds an impersonation lasts under `ctx`'s configuration: `admin.impersonationMaxAge`, never over an hour. */
export function impersonationSeconds(ctx: RequestContext): number {
  const configured = ctx.config.admin?.impersonationMaxAge
  if (typeof configured !== "number" || !Number.isFinite(configured) || configured <= 0) return MAX_IMPERSONATION_SECONDS
  return Math.min(Math.floor(configured), MAX_IMPERSONATION_SECONDS)
}

/**
 * Starts the signed-in admin's impersonation of `userId`: a new session of that user, marked with
 * the admin and ending at the latest `admin.impersonationMaxAge` from now; the admin's session
 * kept in the impersonator cookie. Audited (`admin.impersonate`).
 *
 * @throws {SessionRequired} without a session.
 * @throws {ImpersonationRefused} from inside an impersonation, of oneself, of an admin, of a banned user.
 * @throws {PermissionDenied} when the signed-in user is no admin.
 * @throws {UserNotFound} when there is no such user.
 */
export async function startImpersonation(ctx: RequestContext, userId: unknown): Promise<StartedImpersonation> {
  if (!ctx.config.admin) throw new InvalidConfig("Impersonation needs the admin API configured (`admin`)")
  if (typeof userId !== "string" || userId === "") throw new InvalidRequest("Impersonating needs the user's id (`userId`)")
  const current = await currentSessionContext(ctx)
  if (!current) throw new SessionRequired("Impersonating needs a signed-in admin")
  // Checked before anything else: an impersonated user who is an admin must not start another.
  if (current.context.impersonatorId !== null) throw new ImpersonationRefused("An impersonation cannot start from inside another one")
  const adminId = current.userId
  if (!(await isAdmin(ctx, adminId))) throw new PermissionDenied("Only admins may impersonate")
  if (userId === adminId) throw new ImpersonationRefused("An admin cannot impersonate themselves")
  const target = await callAdapter(ctx.config.adapter, "getUser", userId)
  if (!target) throw new UserNotFound("No such user")
  if (await isAdmin(ctx, target.id)) throw new ImpersonationRefused("Admins cannot be impersonated")
  // An adapter that keeps no status bans nobody.
  const status = typeof ctx.config.adapter?.getUserStatus === "function" ? await callAdapter(ctx.config.adapter, "getUserStatus", target.id) : null
  if (isBanned(status)) throw new ImpersonationRefused("A banned user cannot be impersonated")

  const waiting = sessionStoreOf(ctx).value
  if (!waiting) throw new SessionRequired("Impersonating needs a signed-in admin")
  // Whole seconds, as the JWT's `imp.exp` keeps it: both strategies then name the same end.
  const expires = Math.floor(Date.now() / 1000) * 1000 + impersonationSeconds(ctx) * 1000
  const sessionCookies = await impersonationSessionCookies(ctx, target, { by: adminId, expires })
  const kept = await sealWaiting(ctx, { v: 1, session: waiting, admin: adminId, user: target.id }, expires)
  const admin = await callAdapter(ctx.config.adapter, "getUser", adminId)
  const impersonatedBy: Impersonator = { id: adminId, name: admin?.name ?? null, email: admin?.email ?? null, expires: new Date(expires).toISOString() }
  await recordAudit(ctx, adminId, { action: "admin.impersonate", targetType: "user", targetId: target.id, details: { expires: impersonatedBy.expires } })
  return { cookies: [...sessionCookies, ...kept], impersonatedBy }
}

/**
 * Ends the request's impersonation: its session ended (the row deleted under database sessions)
 * and the admin's own session put back from the impersonator cookie (when that cookie is missing
 * or not this impersonation's, the browser is left signed out). Audited (`admin.stop-impersonating`).
 *
 * @throws {SessionRequired} without a session (an impersonation that ran out ended by itself).
 * @throws {ImpersonationRefused} when the session is no impersonation.
 */
export async function stopImpersonation(ctx: RequestContext): Promise<Cookie[]> {
  if (!ctx.config.admin) throw new InvalidConfig("Impersonation needs the admin API configured (`admin`)")
  const current = await currentSessionContext(ctx)
  if (!current) throw new SessionRequired("No impersonation to stop")
  const adminId = current.context.impersonatorId
  if (adminId === null) throw new ImpersonationRefused("This session is no impersonation")

  if (ctx.config.session.strategy === "database") {
    const { currentDatabaseSession } = await import("../sessions/database-strategy.js")
    const found = await currentDatabaseSession(ctx)
    if (found) await callAdapter(ctx.config.adapter, "deleteSession", found.key)
  }
  const waiting = await readWaiting(ctx)
  const store = sessionStoreOf(ctx)
  const restored =
    waiting && waiting.admin === adminId && waiting.user === current.userId
      ? store.chunk(waiting.session, { expires: new Date(Date.now() + ctx.config.session.maxAge * 1000) })
      : store.clean()
  await recordAudit(ctx, adminId, { action: "admin.stop-impersonating", targetType: "user", targetId: current.userId })
  return [...restored, ...impersonatorStore(ctx).clean()]
}

function impersonatorStore(ctx: RequestContext) {
  return sessionStore(ctx.cookies.impersonator, ctx.request.cookies)
}

/** The impersonator cookie holding `waiting` (encrypted under the cookie's name), ending with the impersonation. */
async function sealWaiting(ctx: RequestContext, waiting: WaitingSession, expires: number): Promise<Cookie[]> {
  const seconds = Math.max(1, Math.floor((expires - Date.now()) / 1000))
  const value = await encode({ token: { ...waiting }, secret: [...ctx.config.secret], salt: ctx.cookies.impersonator.name, maxAge: seconds })
  return impersonatorStore(ctx).chunk(value, { expires: new Date(expires) })
}

/** The admin's session the impersonator cookie holds; `undefined` for none, or one that does not decode or is not of this shape. */
async function readWaiting(ctx: RequestContext): Promise<WaitingSession | undefined> {
  const { value } = impersonatorStore(ctx)
  if (!value) return undefined
  let claims: Record<string, unknown> | null
  try {
    claims = await decode<Record<string, unknown>>({ token: value, secret: [...ctx.config.secret], salt: ctx.cookies.impersonator.name })
  } catch {
    return undefined
  }
  if (!claims || claims.v !== 1) return undefined
  const { session, admin, user } = claims
  if (typeof session !== "string" || session === "" || typeof admin !== "string" || typeof user !== "string") return undefined
  return { v: 1, session, admin, user }
}
