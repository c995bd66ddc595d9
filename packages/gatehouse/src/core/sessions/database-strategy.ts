/**
 * Sessions kept as adapter rows; the cookie holds only the row's random `sessionToken`, and the row
 * only its hash (see ./stored-token.ts). Reading a session extends it by `maxAge` (never past
 * `absoluteMaxAge`), written at most once per `updateAge`; signing in replaces any session the
 * browser already had; signing out deletes the row.
 * @module
 */
import type { Adapter, AdapterSession, AdapterSessionAuthentication, AdapterSessionContext, AdapterSessionWithAuthentication, AdapterUser } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { AdapterError, AuthError, SessionTokenError, SignOutError } from "../../errors.js"
import type { EventCallbacks, Impersonator, Session, SessionAuthentication, SessionCallbackParams, User } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import type { SessionOrigin, SessionRead, SignInData } from "./jwt-strategy.js"
import { REFRESH_ERROR, refreshStoredTokens } from "./access-token-refresh.js"
import { sessionStoreOf } from "./session-cookie.js"
import { absoluteDeadline, startOfToken, withStart } from "./absolute-lifetime.js"
import { sessionKeys, storedSessionToken } from "./stored-token.js"
import { userAgentOf } from "./idp-session.js"

/**
 * The session and user the cookie's token finds. An expired row is deleted and a cookie that
 * finds nothing is cleared. The row is extended when `updateAge` has passed since its last
 * write, and only then is the cookie re-sent (with the row's new expiry), so most reads write
 * nothing. Expiring access tokens of the user's accounts with `refreshAccessToken` providers are
 * refreshed in their rows. An adapter failure is logged and reads as no session, leaving the cookie alone: a
 * database outage must not sign everyone out.
 *
 * @param update - Present on `POST session`: the client's data, given to the `session` callback
 *   as `newSession` with `trigger: "update"`; nothing is stored by itself.
 */
export async function readDatabaseSession(ctx: RequestContext, update?: { data: unknown }): Promise<SessionRead> {
  const store = sessionStoreOf(ctx)
  const sessionToken = store.value
  if (!sessionToken) return { session: null, cookies: store.leftovers() }
  const { adapter, session: options, callbacks } = ctx.config
  try {
    const found = await liveSession(ctx, sessionToken)
    if (!found) return { session: null, cookies: store.clean() }
    const { user, deadline } = found
    let { session } = found
    // An impersonation stands only while its admin does (not deleted, demoted or banned): checked
    // before any callback, and on impersonation sessions alone.
    let impersonatedBy: Impersonator | null = null
    const impersonatorId = (session as AdapterSessionWithAuthentication).context?.impersonatorId
    if (ctx.config.admin && typeof impersonatorId === "string") {
      const contextPayload = await import("./context-payload.js")
      const checked = await contextPayload.checkImpersonator(ctx, impersonatorId, session.expires)
      if (checked === "unchecked") return { session: null, cookies: [] }
      if (checked === "ended") {
        await callAdapter(adapter, "deleteSession", found.key)
        return { session: null, cookies: contextPayload.endedImpersonationCookies(ctx) }
      }
      impersonatedBy = checked
    }

    const now = Date.now()
    let cookies: Cookie[] = []
    const lastWritten = session.expires.getTime() - options.maxAge * 1000
    const expires = new Date(Math.min(now + options.maxAge * 1000, deadline))
    // A session at its absolute deadline is not extended, however long since the last write.
    if (lastWritten + options.updateAge * 1000 <= now && expires > session.expires) {
      // `null` means the row went away meanwhile (a sign-out elsewhere): the session is over.
      // Adapters may also answer nothing at all, which says nothing about the row.
      const updated = await callAdapter(adapter, "updateSession", { sessionToken: found.key, expires })
      if (updated === null) return { session: null, cookies: store.clean() }
      session = { ...session, expires }
      cookies = store.chunk(sessionToken, { expires })
    }

    // The token stays out of the callback: whatever the callback returns reaches the browser's
    // JavaScript, and the cookie holding the token is HttpOnly for a reason.
    // Nor how the session was authenticated: that is set after the callback, which cannot change it.
    // Nor its context (organizations, impersonation): Gatehouse's own, set after the callback too.
    const { sessionToken: _token, authentication: storedAuthentication, context: storedContext, ...row } = session as AdapterSessionWithAuthentication
    const refused = await refreshStoredTokens(ctx, user.id)
    // The declared type (Auth.js's) has `expires` as string and Date at once; it is the Date.
    const params = {
      session: { ...row, user, ...(refused && { error: REFRESH_ERROR }) },
      user,
      ...(update && { trigger: "update" as const, newSession: update.data }),
    } as SessionCallbackParams
    const payload: unknown = await callbacks.session(params)
    if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
      throw new AuthError("The session callback must return the session object")
    }
    // No token under `database`; the declared type (Auth.js's) has one always.
    if (ctx.config.twoFactor) (payload as Session).authentication = sessionAuthenticationOfRow(storedAuthentication)
    if (ctx.config.organizations || ctx.config.admin) {
      const context = contextOfRow(storedContext)
      await (await import("./context-payload.js")).addContextFields(ctx, payload as Session, {
        userId: user.id,
        context,
        authentication: ctx.config.twoFactor ? (payload as Session).authentication : undefined,
        impersonatedBy,
      })
    }
    await emitEvent(ctx.config, "session", { session: payload as Session } as Parameters<EventCallbacks["session"]>[0])
    return { session: payload as Session, cookies }
  } catch (error) {
    logError(ctx.logger, new SessionTokenError("The database session could not be read", { cause: error }))
    return { session: null, cookies: [] }
  }
}

/**
 * The row and user for `sessionToken`, the key the row is stored under, and the absolute deadline;
 * `null` when there is no row or it has expired, idle or absolutely (then it is deleted).
 */
async function liveSession(
  ctx: RequestContext,
  sessionToken: string,
): Promise<{ session: AdapterSession; user: AdapterUser; key: string; deadline: number } | null> {
  const { adapter } = ctx.config
  let key = ""
  let found: { session: AdapterSession; user: AdapterUser } | null = null
  for (const candidate of await sessionKeys(ctx, sessionToken)) {
    found = await callAdapter(adapter, "getSessionAndUser", candidate)
    key = candidate
    if (found) break
  }
  if (!found) return null
  // A store that hands back strings or numbers for dates still gets its expiry compared correctly.
  const expires = new Date(found.session.expires)
  if (Number.isNaN(expires.getTime())) {
    // Deleting would sign everyone out over a storage-format mismatch; say so and keep the row.
    throw new AdapterError(`getSessionAndUser returned an expires that is not a date: ${JSON.stringify(found.session.expires)}`)
  }
  // An impersonation's row is never extended: its expiry is the impersonation's end.
  const impersonation = typeof (found.session as AdapterSessionWithAuthentication).context?.impersonatorId === "string"
  const deadline = Math.min(absoluteDeadline(ctx.config.session, startOfToken(sessionToken), expires.getTime()), impersonation ? expires.getTime() : Number.POSITIVE_INFINITY)
  if (Math.min(expires.getTime(), deadline) <= Date.now()) {
    await callAdapter(adapter, "deleteSession", key)
    return null
  }
  return { session: { ...found.session, expires }, user: found.user, key, deadline }
}

/**
 * A new session row for `data.user` (who must be a stored user) and the cookie that holds its
 * token. Any session the browser already had is deleted first: a sign-in never continues a
 * session someone else may have planted (session fixation).
 */
export async function issueDatabaseSession(ctx: RequestContext, data: SignInData): Promise<Cookie[]> {
  const { adapter, session: options } = ctx.config
  const userId = data.user.id
  if (!userId) throw new AuthError("A database session needs a stored user with an id")
  const generated: unknown = await options.generateSessionToken()
  if (typeof generated !== "string" || generated === "") {
    throw new AuthError("session.generateSessionToken must return a non-empty string")
  }
  const store = sessionStoreOf(ctx)
  const now = Date.now()
  const sessionToken = withStart(options, generated, now)
  const impersonation = data.context?.impersonation
  const expires = new Date(Math.min(now + options.maxAge * 1000, absoluteDeadline(options, Math.floor(now / 1000), now), impersonation?.expires ?? Number.POSITIVE_INFINITY))
  const key = await storedSessionToken(ctx, sessionToken)
  await callAdapter(adapter, "createSession", { sessionToken: key, userId, expires })
  await storeDetails(ctx, key, data, now)
  await storeContext(ctx, key, data)
  // Only once the new session exists: a failed sign-in must not also end the one the user had.
  // An impersonation keeps the admin's own session, to go back to (see ../admin/impersonation.ts).
  if (store.value && !impersonation) {
    try {
      await deleteRow(ctx, store.value)
    } catch (error) {
      // The new session matters more than the old row, which still expires on its own.
      logError(ctx.logger, error)
    }
  }
  return store.chunk(sessionToken, { expires })
}

/**
 * The new row's details (created, user agent, identity provider session) where the adapter keeps
 * them. A failure takes the row back and fails the sign-in: a session whose provider `sid` was
 * lost could not be ended by back-channel logout.
 */
async function storeDetails(ctx: RequestContext, key: string, data: SignInData, now: number): Promise<void> {
  const { adapter } = ctx.config
  if (typeof adapter?.createSessionDetails !== "function") return
  try {
    await callAdapter(adapter, "createSessionDetails", key, {
      createdAt: new Date(now),
      userAgent: userAgentOf(ctx.request.headers),
      idpProvider: data.idpSession?.provider ?? data.logoutProvider ?? null,
      idpSid: data.idpSession?.sid ?? null,
      ...(data.authentication && {
        aal: data.authentication.aal,
        amr: [...data.authentication.amr],
        secondFactorAt: data.authentication.secondFactorAt === null ? null : new Date(data.authentication.secondFactorAt),
      }),
    })
  } catch (error) {
    await callAdapter(adapter, "deleteSession", key).catch((cleanup: unknown) => logError(ctx.logger, cleanup))
    throw error
  }
}

/**
 * The new row's context (the provider signed in with, an impersonating admin), in one write. A
 * failure takes the row back and fails the sign-in: an impersonation without its mark would be a
 * plain session of the user.
 */
async function storeContext(ctx: RequestContext, key: string, data: SignInData): Promise<void> {
  const start = data.context
  if (!start || (start.signInProvider === undefined && start.activeOrganizationId === undefined && !start.impersonation)) return
  const { adapter } = ctx.config
  try {
    const stored = await callAdapter(adapter, "setSessionContext", key, {
      ...(start.signInProvider !== undefined && { signInProvider: start.signInProvider }),
      ...(start.activeOrganizationId !== undefined && { activeOrganizationId: start.activeOrganizationId }),
      ...(start.impersonation && { impersonatorId: start.impersonation.by }),
    })
    if (stored === false) throw new AdapterError("setSessionContext found no session just created")
  } catch (error) {
    await callAdapter(adapter, "deleteSession", key).catch((cleanup: unknown) => logError(ctx.logger, cleanup))
    throw error
  }
}

/** A row's stored context, every field `null` when nothing is stored. */
export function contextOfRow(stored: AdapterSessionContext | null | undefined): AdapterSessionContext {
  return {
    activeOrganizationId: stored?.activeOrganizationId ?? null,
    impersonatorId: stored?.impersonatorId ?? null,
    signInProvider: stored?.signInProvider ?? null,
  }
}

/**
 * The request's live session row (its `id`, the key it is stored under) and user; `null` for none.
 * Adapter failures propagate.
 */
export async function currentDatabaseSession(ctx: RequestContext): Promise<{ session: AdapterSession; user: AdapterUser; key: string } | null> {
  const sessionToken = sessionStoreOf(ctx).value
  if (!sessionToken) return null
  const found = await liveSession(ctx, sessionToken)
  return found && { session: found.session, user: found.user, key: found.key }
}

/**
 * The provider the request's database session came from, as its details keep it (`idpProvider`);
 * `null` for no session, a session without details, or an adapter that keeps none.
 */
export async function databaseSessionOrigin(ctx: RequestContext): Promise<SessionOrigin | null> {
  const { adapter } = ctx.config
  if (typeof adapter?.listSessionsByUserId !== "function") return null
  const current = await currentDatabaseSession(ctx)
  const id = current?.session.id
  if (!current || id === undefined) return null
  const rows = await callAdapter(adapter, "listSessionsByUserId", current.user.id)
  const provider = rows.find((row) => String(row.id) === String(id))?.details?.idpProvider
  return typeof provider === "string" && provider !== "" ? { provider, userId: current.user.id, idToken: undefined } : null
}

/**
 * Deletes the session row and clears the cookie. `signOut` gets what `deleteSession` returned
 * (the row, or `null`/nothing from adapters that do not return it, as in Auth.js). Failures are
 * logged and the cookie is cleared all the same: the user asked to leave.
 */
export async function endDatabaseSession(ctx: RequestContext): Promise<Cookie[]> {
  const store = sessionStoreOf(ctx)
  if (!store.value) return store.clean()
  try {
    const session = await deleteRow(ctx, store.value)
    await emitEvent(ctx.config, "signOut", { session })
  } catch (error) {
    logError(ctx.logger, new SignOutError("The database session could not be deleted at sign-out", { cause: error }))
  }
  return store.clean()
}

/** Deletes the row of `sessionToken` under whichever key it is stored; what `deleteSession` returned. */
async function deleteRow(ctx: RequestContext, sessionToken: string): Promise<Awaited<ReturnType<NonNullable<Adapter["deleteSession"]>>>> {
  let deleted: Awaited<ReturnType<NonNullable<Adapter["deleteSession"]>>> = null
  for (const key of await sessionKeys(ctx, sessionToken)) {
    deleted = await callAdapter(ctx.config.adapter, "deleteSession", key)
    // Nothing returned says nothing: the row may still be under the other key.
    if (deleted) break
  }
  return deleted
}

/**
 * The stored user the session cookie belongs to, so a sign-in can link a new account to them.
 * Not for an impersonation: the admin sees as the user, but adds no way into their account and
 * changes nothing of it.
 */
export async function databaseSessionUser(ctx: RequestContext): Promise<AdapterUser | null> {
  const sessionToken = sessionStoreOf(ctx).value
  if (!sessionToken) return null
  const found = await liveSession(ctx, sessionToken)
  if (!found || typeof (found.session as AdapterSessionWithAuthentication).context?.impersonatorId === "string") return null
  return found.user
}

/**
 * The stored user a database session can be issued for: the adapter's row for `user.id`. A
 * credentials `authorize` must return a user the adapter knows; otherwise there is no row a
 * session could point to.
 */
export async function storedUserOf(ctx: RequestContext, user: User): Promise<AdapterUser | null> {
  if (!user.id) return null
  return callAdapter(ctx.config.adapter, "getUser", user.id)
}

/** `session.authentication` from what the adapter stored beside the row; nothing recorded reads as one factor. */
export function sessionAuthenticationOfRow(stored: AdapterSessionAuthentication | null | undefined): SessionAuthentication {
  const secondFactorAt = stored?.secondFactorAt ? new Date(stored.secondFactorAt) : null
  return {
    aal: stored?.aal === 2 ? 2 : 1,
    amr: stored?.amr ? [...stored.amr] : [],
    secondFactorAt: secondFactorAt && !Number.isNaN(secondFactorAt.getTime()) ? secondFactorAt.toISOString() : null,
  }
}

/** How the request's live database session was authenticated; `null` without one. */
export async function databaseSessionAuthentication(ctx: RequestContext): Promise<SessionAuthentication | null> {
  const found = await currentDatabaseSession(ctx)
  return found ? sessionAuthenticationOfRow((found.session as AdapterSessionWithAuthentication).authentication) : null
}
