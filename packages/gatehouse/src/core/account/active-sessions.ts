/**
 * The signed-in user's sessions: listing them, revoking one, revoking all but the current one.
 * Database sessions are rows and can each be listed and deleted; a JWT session has no record
 * beyond its cookie, so only the current one is listed, and the others end together through the
 * user's session version (the current cookie is written again under the new version).
 * @module
 */
import type { AdapterSessionListing, AdapterSessionWithAuthentication } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { AdapterError, ImpersonationRefused, InvalidConfig, SessionRequired, UnknownSession } from "../../errors.js"
import type { JWT } from "../../jwt/index.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import type { RequestContext } from "../request-context.js"
import { contextOfRow, currentDatabaseSession } from "../sessions/database-strategy.js"
import { userAgentOf } from "../sessions/idp-session.js"
import { reissueJwtSession, sessionContextOfToken, standingJwtSession } from "../sessions/jwt-strategy.js"
import { checksVersions, raiseSessionVersion } from "../sessions/session-version.js"
import { assertRecentForAccountChange } from "./recent-second-factor.js"

/**
 * One of the signed-in user's sessions, as the account routes and functions show it: no token, no
 * hash of one, nothing that would let anyone use the session.
 */
export interface ActiveSession {
  /** The session's public id (the database row's id; `"current"` for a JWT session). */
  id: string
  /** Whether it is the session of the request asking. */
  current: boolean
  /** When it was signed in (ISO), `null` when unknown (a session from before Gatehouse stored it). */
  createdAt: string | null
  /**
   * When it was last used (ISO), to the precision of `session.updateAge`: the session's last write,
   * which costs no extra write. `null` when unknown.
   */
  lastSeenAt: string | null
  /** When it ends unless used again (ISO). */
  expiresAt: string
  /** The browser's `User-Agent` at sign-in (the request's own, for the current JWT session). */
  userAgent: string | null
}

/** The JWT session id: a JWT session has no record of its own to name it by. */
const CURRENT_JWT_SESSION = "current"

/**
 * Every live session of the request's user, the current one first, then the most recently used.
 * @throws {SessionRequired} without a session.
 */
export async function listActiveSessions(ctx: RequestContext): Promise<ActiveSession[]> {
  if (ctx.config.session.strategy === "jwt") return [currentJwtListing(ctx, await requireJwtSession(ctx))]
  const { currentId, rows } = await databaseRows(ctx)
  const maxAgeMs = ctx.config.session.maxAge * 1000
  const now = Date.now()
  return rows
    .filter((row) => new Date(row.expires).getTime() > now)
    .map((row): ActiveSession => {
      const expires = new Date(row.expires)
      const createdAt = row.details ? new Date(row.details.createdAt) : null
      // The row was last written maxAge before its expiry (never before it was created).
      const lastSeen = Math.max(expires.getTime() - maxAgeMs, createdAt?.getTime() ?? Number.NEGATIVE_INFINITY)
      return {
        id: row.id,
        current: row.id === currentId,
        createdAt: createdAt?.toISOString() ?? null,
        lastSeenAt: Number.isFinite(lastSeen) && lastSeen > 0 ? new Date(Math.min(lastSeen, now)).toISOString() : null,
        expiresAt: expires.toISOString(),
        userAgent: row.details?.userAgent ?? null,
      }
    })
    .sort((a, b) => Number(b.current) - Number(a.current) || (b.lastSeenAt ?? "").localeCompare(a.lastSeenAt ?? ""))
}

/**
 * Ends one of the request user's other sessions, by its public id.
 * @throws {SessionRequired} without a session; {@link ImpersonationRefused} inside an impersonation;
 *   `RecentAuthRequired` when the user has a second factor and the session did not check it
 *   within `twoFactor.freshAge`; {@link UnknownSession}
 *   for an id that is not one of the user's other live sessions (the current one included:
 *   signing out ends that).
 */
export async function revokeActiveSession(ctx: RequestContext, id: string): Promise<void> {
  if (ctx.config.session.strategy === "jwt") {
    refuseInsideImpersonation(sessionContextOfToken(await requireJwtSession(ctx)).context.impersonatorId)
    throw new UnknownSession("A JWT session can end only the others all at once, or itself by signing out")
  }
  const { currentId, userId, impersonatorId, rows } = await databaseRows(ctx)
  refuseInsideImpersonation(impersonatorId)
  await assertRecentForAccountChange(ctx, userId)
  const row = rows.find((candidate) => candidate.id === id)
  if (!row) throw new UnknownSession("No session of the signed-in user has that id")
  if (row.id === currentId) throw new UnknownSession("The current session ends by signing out")
  const deleted = await callAdapter(ctx.config.adapter, "deleteSession", row.sessionToken)
  await emitEvent(ctx.config, "signOut", { session: deleted ?? null })
}

/**
 * Ends every session of the request's user but the current one: their rows under database
 * sessions (how many were ended is returned); under JWT sessions, the user's session version goes
 * up (every other session ends within `session.revocationCheckAge`) and the current cookie is
 * written again under the new version (`revoked` is then `null`: nobody knows how many there were).
 *
 * @throws {SessionRequired} without a session; {@link ImpersonationRefused} inside an impersonation;
 *   `MissingAdapterMethods` or {@link InvalidConfig}
 *   when JWT sessions are not checked against session versions; `RecentAuthRequired` when the
 *   user has a second factor and the session did not check it within `twoFactor.freshAge`.
 */
export async function revokeOtherSessions(ctx: RequestContext): Promise<{ revoked: number | null; cookies: Cookie[] }> {
  const { config } = ctx
  if (config.session.strategy === "jwt") {
    if (!checksVersions(config)) {
      throw new InvalidConfig("Ending other JWT sessions needs an adapter with session versions and a revocationCheckAge other than false")
    }
    const token = await requireJwtSession(ctx)
    refuseInsideImpersonation(sessionContextOfToken(token).context.impersonatorId)
    await assertRecentForAccountChange(ctx, String(token.sub))
    const version = await raiseSessionVersion(config, String(token.sub))
    return { revoked: null, cookies: await reissueJwtSession(ctx, token, version) }
  }
  const { currentId, userId, impersonatorId, rows } = await databaseRows(ctx)
  refuseInsideImpersonation(impersonatorId)
  await assertRecentForAccountChange(ctx, userId)
  let revoked = 0
  for (const row of rows) {
    if (row.id === currentId) continue
    const deleted = await callAdapter(config.adapter, "deleteSession", row.sessionToken)
    if (new Date(row.expires).getTime() > Date.now()) revoked++
    await emitEvent(config, "signOut", { session: deleted ?? null })
  }
  return { revoked, cookies: [] }
}

/**
 * Ending the user's sessions is the user's to do: an admin impersonating them acts as them but
 * changes nothing of their account (as no account route sees a signed-in user then).
 */
function refuseInsideImpersonation(impersonatorId: string | null): void {
  if (impersonatorId !== null) throw new ImpersonationRefused("Sessions cannot be ended from inside an impersonation")
}

async function requireJwtSession(ctx: RequestContext): Promise<JWT> {
  const token = await standingJwtSession(ctx)
  if (!token || typeof token.sub !== "string" || token.sub === "") throw new SessionRequired("No session")
  return token
}

function currentJwtListing(ctx: RequestContext, token: JWT): ActiveSession {
  const seconds = (value: unknown): string | null => (typeof value === "number" && Number.isFinite(value) ? new Date(value * 1000).toISOString() : null)
  const expiresAt = seconds(token.exp) ?? new Date(Date.now() + ctx.config.session.maxAge * 1000).toISOString()
  return {
    id: CURRENT_JWT_SESSION,
    current: true,
    // The start is in the token only with absoluteMaxAge; its last write (`iat`) is always there.
    createdAt: seconds(token.signedInAt),
    lastSeenAt: seconds(token.iat),
    expiresAt,
    userAgent: userAgentOf(ctx.request.headers),
  }
}

/** The current row's id, its user's id, the admin impersonating them in it, and every row of that user, with their details. */
async function databaseRows(ctx: RequestContext): Promise<{ currentId: string; userId: string; impersonatorId: string | null; rows: AdapterSessionListing[] }> {
  const current = await currentDatabaseSession(ctx)
  if (!current) throw new SessionRequired("No session")
  // Without it the current session could not be told from the others, and would be ended with them.
  if (typeof current.session.id !== "string") throw new AdapterError("getSessionAndUser must return the session's id for the account routes")
  const rows = await callAdapter(ctx.config.adapter, "listSessionsByUserId", current.user.id)
  const { impersonatorId } = contextOfRow((current.session as AdapterSessionWithAuthentication).context)
  return { currentId: current.session.id, userId: current.user.id, impersonatorId, rows: rows.filter((row) => typeof row.id === "string") }
}
