/**
 * Sessions kept in an encrypted JWT cookie: reading (and sliding) them on the session route,
 * issuing them at sign-in, and ending them at sign-out.
 * @module
 */
import type { AdapterSessionContext, AdapterUser } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { AuthError, JWTSessionError, SessionTokenError } from "../../errors.js"
import type { JWT, JWTEncodeParams } from "../../jwt/index.js"
import type { Account, Impersonator, Profile, Session, SessionAuthentication, SessionCallbackParams, User } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import { REFRESH_ERROR, refreshableTokenFields, refreshedToken } from "./access-token-refresh.js"
import { absoluteDeadline } from "./absolute-lifetime.js"
import { sessionStoreOf } from "./session-cookie.js"
import { checksVersions, currentSessionVersion, versionOfToken } from "./session-version.js"
import { idpSessionKey, type IdpSession } from "./idp-session.js"

/** What a session read produces: the body for the client, and the cookies to set. */
export interface SessionRead {
  session: Session | null
  cookies: Cookie[]
}

/**
 * The session the cookie holds, after the `jwt` and `session` callbacks (which run on every read).
 * An expiring access token of a provider with `refreshAccessToken` is refreshed before the `jwt`
 * callback sees the token. A cookie that does not decode, a session past `absoluteMaxAge` or
 * revoked (see ./session-version.ts), or a `jwt` callback that returns `null`, ends the session:
 * the cookie is cleared and the session is `null`. When the revocation check cannot reach the
 * adapter, there is no session for this request but the cookie stays, as under database sessions.
 *
 * The cookie is written again (sliding the expiry by another `maxAge`, never past the absolute
 * deadline) only when the token is older than the write interval (see {@link reissueAfterMs}),
 * after a revocation check, on an update, or when the `jwt` or `session` callback left claims
 * other than the ones decoded, so what they return or change is always saved (refresh-token
 * rotation inside the callback keeps working). Otherwise the response sets no cookie:
 * re-encrypting on every read is most of what a session check would cost.
 *
 * @param update - Present on `POST session`: the client's data, passed with `trigger: "update"`.
 */
export async function readJwtSession(ctx: RequestContext, update?: { data: unknown }): Promise<SessionRead> {
  const store = sessionStoreOf(ctx)
  if (!store.value) return { session: null, cookies: store.leftovers() }
  const { config } = ctx
  let payload: JWT
  try {
    const decoded = await config.jwt.decode(tokenParams(ctx, { token: store.value }))
    if (!decoded) throw new JWTSessionError("The session token decoded to nothing")
    payload = decoded
  } catch (error) {
    // The cookie is what the browser (or anyone) sent: a client-caused failure, logged as one line.
    logError(ctx.logger, error instanceof JWTSessionError ? error : new JWTSessionError("The session token could not be decoded", { cause: error }))
    return { session: null, cookies: store.clean() }
  }
  try {
    // Taken before any callback can change the decoded object in place; the default callbacks
    // change nothing, which spares serialising the claims twice on every read.
    const defaultCallbacks = config.defaultTokenCallbacks
    const decodedClaims = defaultCallbacks ? undefined : savedForm(payload)
    const now = Date.now()
    const issuedAt = typeof payload.iat === "number" ? payload.iat * 1000 : undefined
    let standing: Standing
    try {
      standing = await standingOf(ctx, payload, now, { force: false })
    } catch (error) {
      logError(ctx.logger, new SessionTokenError("The session's revocation could not be checked", { cause: error }))
      return { session: null, cookies: [] }
    }
    if (!standing) return { session: null, cookies: store.clean() }
    // An impersonation stands only while its admin does (not deleted, demoted or banned): checked
    // before any callback, and on impersonation sessions alone.
    let impersonatedBy: Impersonator | null = null
    const impersonation = config.admin ? impersonationOf(payload.imp) : undefined
    if (impersonation) {
      const contextPayload = await import("./context-payload.js")
      const checked = await contextPayload.checkImpersonator(ctx, impersonation.sub, new Date(impersonation.exp * 1000))
      // A failed check is this read's, not the session's: no session now, the cookie kept.
      if (checked === "unchecked") return { session: null, cookies: [] }
      if (checked === "ended") return { session: null, cookies: contextPayload.endedImpersonationCookies(ctx) }
      impersonatedBy = checked
    }

    const refreshed = await refreshedToken(ctx, payload)
    // The default `jwt` callback returns the token it is given: not called, as the session callback below.
    const returned = defaultCallbacks
      ? refreshed
      : await config.callbacks.jwt({
          token: refreshed,
          ...(update && { trigger: "update" as const, session: update.data }),
        } as Parameters<typeof config.callbacks.jwt>[0])
    if (returned === null) return { session: null, cookies: store.clean() }
    assertToken(returned)
    let token = await withSessionClaims(ctx, returned, standing.claims, payload.sub)
    const changed = (): boolean => (defaultCallbacks ? refreshed !== payload || !sameSessionClaims(payload, standing.claims) : changedClaims(token, decodedClaims))

    const due =
      update !== undefined ||
      issuedAt === undefined ||
      standing.checked ||
      now - issuedAt >= reissueAfterMs(config.session, config.jwt) ||
      changed()
    const slid = Math.min(now + config.session.maxAge * 1000, standing.deadline)
    const expires = due ? slid : Math.min(issuedAt! + config.session.maxAge * 1000, standing.deadline)
    const defaultSession: Session = {
      user: { name: token.name, email: token.email, image: token.picture },
      expires: isoTime(expires),
      ...(token.error === REFRESH_ERROR && { error: REFRESH_ERROR }),
    }
    // The default session callback would copy `defaultSession` field for field.
    let session: unknown = defaultSession
    if (!defaultCallbacks) {
      const own = ownClaimsOf(token)
      const subBefore = token.sub
      session = await config.callbacks.session({
        session: defaultSession,
        token,
        ...(update && { trigger: "update" as const, newSession: update.data }),
        // The declared type (Auth.js's) has both strategies' fields; under `jwt` there is no user.
      } as SessionCallbackParams)
      // As in Auth.js the callback gets the live token and what it changes of the application's
      // claims is saved; Gatehouse's own (aal, amr, secondFactorAt, sessionVersion, ...) go back
      // as they were: `Object.assign(token, newSession)` must not raise or re-date the session.
      // A callback that moved the token to another user (`sub`) does not take the first user's
      // second factor, active organization or sign-in provider along, as a moving `jwt` callback does not.
      token = withOwnClaims(token, token.sub === subBefore ? own : withoutUserClaims(own))
    }
    if (session === null || typeof session !== "object" || Array.isArray(session)) {
      throw new AuthError("The session callback must return the session object")
    }
    // Compared again: the session callback may change the token in place too. Every write slides
    // the cookie, so its expiry always matches the new token's `iat`; the client was told the
    // earlier one, which errs on the safe side.
    const cookies =
      due || changed()
        ? store.chunk(await config.jwt.encode(tokenParams(ctx, { token, maxAge: lifetimeUntil(ctx, standing.deadline, now) })), { expires: new Date(slid) })
        : []
    // Set after the session callback, which cannot change it; Auth.js configurations get no new field.
    if (config.twoFactor) (session as Session).authentication = sessionAuthenticationOf(token)
    if (config.organizations || config.admin) {
      const { context } = sessionContextOfToken(token)
      const userId = typeof token.sub === "string" ? token.sub : ""
      // Fails closed by itself (no active organization) and never throws: the catch below would sign the user out.
      await (await import("./context-payload.js")).addContextFields(ctx, session as Session, {
        userId,
        context,
        authentication: config.twoFactor ? (session as Session).authentication : undefined,
        impersonatedBy,
      })
    }
    await emitEvent(config, "session", { session: session as Session, token })
    return { session: session as Session, cookies }
  } catch (error) {
    // Past the decoding, a failure is the server's (a callback, the adapter, the encoding): a fault.
    logError(ctx.logger, new SessionTokenError("The session could not be read", { cause: error }))
    return { session: null, cookies: store.clean() }
  }
}

/** The last time {@link isoTime} wrote, and how. */
let lastIsoTime = { ms: Number.NaN, text: "" }

/**
 * `ms` as an ISO 8601 string. Between writes a session's expiry stays the same (the token's
 * `iat` plus `maxAge`), so every read of one session asks for the same instant: formatted once.
 */
function isoTime(ms: number): string {
  if (lastIsoTime.ms !== ms) lastIsoTime = { ms, text: new Date(ms).toISOString() }
  return lastIsoTime.text
}

/**
 * A live token's absolute deadline (ms), whether its version was just checked, and the claims
 * Gatehouse keeps for itself (see {@link SESSION_CLAIMS}) to write back; `null` when it ended.
 */
type Standing = { deadline: number; checked: boolean; claims: JWT } | null

/**
 * The claims that are Gatehouse's, never the application's: what a `jwt` callback (which may
 * spread the client's update data into the token) returns for them is replaced.
 */
const SESSION_CLAIMS = ["signedInAt", "sessionVersion", "versionCheckedAt", "idpSession", "logoutProvider", "aal", "amr", "secondFactorAt", "org", "imp", "prv"] as const

/** None of {@link SESSION_CLAIMS}: what most sessions (no absolute lifetime, no revocation) carry. */
const NO_CLAIMS: JWT = Object.freeze({})

/**
 * Whether a decoded token still stands: not past `absoluteMaxAge`, and issued under the user's
 * current session version when that is due to be checked (or `force`d: before a sign-in links an
 * account to the session's user). The check is due `revocationCheckAge` after the last one
 * (`versionCheckedAt`, else `iat`), whatever was written meanwhile. Adapter failures propagate.
 */
async function standingOf(ctx: RequestContext, payload: JWT, now: number, { force }: { force: boolean }): Promise<Standing> {
  const { session, adapter } = ctx.config
  const issuedAt = typeof payload.iat === "number" ? payload.iat * 1000 : undefined
  const expiry = typeof payload.exp === "number" ? payload.exp * 1000 : (issuedAt ?? now) + session.maxAge * 1000
  const started = typeof payload.signedInAt === "number" ? payload.signedInAt : undefined
  const deadline = sessionDeadline(session, payload, expiry)
  if (deadline <= now) return null
  const version = versionOfToken(payload)
  const idpSession = typeof payload.idpSession === "string" ? payload.idpSession : undefined
  const logoutProvider = typeof payload.logoutProvider === "string" ? payload.logoutProvider : undefined
  const authentication = authenticationClaims(payload)
  const context = contextClaims(payload)
  const claims: JWT =
    started === undefined && version === 0 && idpSession === undefined && logoutProvider === undefined && authentication === undefined && context === undefined
      ? NO_CLAIMS
      : {
          ...(started !== undefined && { signedInAt: started }),
          ...(version !== 0 && { sessionVersion: version }),
          ...(idpSession !== undefined && { idpSession }),
          ...(logoutProvider !== undefined && { logoutProvider }),
          ...authentication,
          ...context,
        }
  const sub = payload.sub
  if (!checksVersions(ctx.config) || typeof sub !== "string" || sub === "") return { deadline, checked: false, claims }
  const lastChecked = typeof payload.versionCheckedAt === "number" ? payload.versionCheckedAt * 1000 : issuedAt
  if (!force && lastChecked !== undefined && now - lastChecked < Number(session.revocationCheckAge) * 1000) {
    return { deadline, checked: false, claims: { ...claims, versionCheckedAt: lastChecked / 1000 } }
  }
  // Both at once; the identity provider's session (back-channel logout) ended when its key's version left 0.
  const [userVersion, idpVersion] = await Promise.all([
    currentSessionVersion(ctx.config, sub),
    idpSession === undefined ? 0 : currentSessionVersion(ctx.config, idpSession),
  ])
  if (userVersion !== version || idpVersion !== 0) return null
  return { deadline, checked: true, claims: { ...claims, versionCheckedAt: Math.floor(now / 1000) } }
}

/**
 * `token` with Gatehouse's own claims set to `claims` (whatever the `jwt` callback returned for
 * them), and, when the callback moved the session to another user (`sub`), with that user's
 * current version: the session must answer to the revocations of the user it now belongs to.
 */
function withSessionClaims(ctx: RequestContext, token: JWT, claims: JWT, previousSub: unknown): JWT | Promise<JWT> {
  // Every name of SESSION_CLAIMS, left out by a rest copy: spreading and then deleting them would
  // turn the copy into a slow dictionary object that each later spread of it pays for.
  const { signedInAt: _s, sessionVersion: _v, versionCheckedAt: _c, idpSession: _i, logoutProvider: _l, aal: _a, amr: _m, secondFactorAt: _f, org: _o, imp: _p, prv: _r, ...own } = token
  const sub = own.sub
  // At issue (no previous user) the claims are the new session's own, not another user's; a
  // session moved to another user takes none of the first user's along, version check or not.
  const kept = previousSub === undefined || sub === previousSub ? claims : withoutUserClaims(claims)
  if (sub === previousSub || !checksVersions(ctx.config) || typeof sub !== "string" || sub === "") return kept === NO_CLAIMS ? own : { ...own, ...kept }
  return withMovedUserVersion(ctx, own, kept, sub)
}

/** A copy of `token`'s {@link SESSION_CLAIMS} (arrays copied too: a callback may change them in place). */
function ownClaimsOf(token: JWT): JWT {
  const claims: Record<string, unknown> = {}
  for (const name of SESSION_CLAIMS) {
    const value: unknown = token[name]
    if (value !== undefined) claims[name] = Array.isArray(value) ? [...(value as unknown[])] : value !== null && typeof value === "object" ? { ...value } : value
  }
  return claims as JWT
}

/** `token` with its {@link SESSION_CLAIMS} exactly `claims`: any a callback added, changed or removed go back. */
function withOwnClaims(token: JWT, claims: JWT): JWT {
  const { signedInAt: _s, sessionVersion: _v, versionCheckedAt: _c, idpSession: _i, logoutProvider: _l, aal: _a, amr: _m, secondFactorAt: _f, org: _o, imp: _p, prv: _r, ...rest } = token
  return { ...rest, ...claims }
}

/**
 * `claims` without what was about the user the session belonged to: how they authenticated, the
 * organization they acted in (a membership of theirs), the provider they signed in with (which an
 * organization's sign-in-method policy trusts). An impersonation's mark (`imp`) stays: it ends the
 * session whoever it now names.
 */
function withoutUserClaims(claims: JWT): JWT {
  const { aal: _a, amr: _m, secondFactorAt: _f, org: _o, prv: _r, ...rest } = claims
  return rest
}

/** `own` with the session version of `sub`, the user a `jwt` callback moved the session to. */
async function withMovedUserVersion(ctx: RequestContext, own: JWT, claims: JWT, sub: string): Promise<JWT> {
  const version = await currentSessionVersion(ctx.config, sub)
  const { sessionVersion: _previous, ...rest } = claims
  return { ...own, ...rest, ...(version !== 0 && { sessionVersion: version }), versionCheckedAt: Math.floor(Date.now() / 1000) }
}

/** Seconds a token written now may live: `jwt.maxAge`, but never past the absolute deadline. */
function lifetimeUntil(ctx: RequestContext, deadline: number, now: number): number {
  return Math.min(ctx.config.jwt.maxAge, Math.max(1, Math.floor((deadline - now) / 1000)))
}

/**
 * How old a token may get before a read writes it again: `session.updateAge` (how often the
 * session is written), but never more than half the token's or the cookie's lifetime, so that an
 * active session cannot run out between writes. (Auth.js re-issued the cookie on every read, and
 * a short `maxAge` with the default one-day `updateAge` must keep sliding.)
 */
function reissueAfterMs(session: RequestContext["config"]["session"], jwt: RequestContext["config"]["jwt"]): number {
  return Math.min(session.updateAge, Math.min(session.maxAge, jwt.maxAge) / 2) * 1000
}

/** Whether the decoded token already holds Gatehouse's own claims as they are to be written. */
function sameSessionClaims(decoded: JWT, claims: JWT): boolean {
  return SESSION_CLAIMS.every((claim) =>
    claim === "amr" ? sameAmr(decoded.amr, claims.amr) : claim === "imp" ? sameImpersonation(decoded.imp, claims.imp) : decoded[claim] === claims[claim],
  )
}

/** Whether two `imp` claims name the same admin and end (objects are never `===`). */
function sameImpersonation(a: unknown, b: unknown): boolean {
  if (a === b) return true
  const first = impersonationOf(a)
  const second = impersonationOf(b)
  return first !== undefined && second !== undefined && first.sub === second.sub && first.exp === second.exp
}

/** Whether two `amr` claims hold the same values in the same order (arrays are never `===`). */
function sameAmr(a: unknown, b: unknown): boolean {
  if (a === b) return true
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((value, index) => value === b[index])
}

/**
 * The two-factor claims of a decoded token (`aal`, `amr`, `secondFactorAt`), kept only in their
 * own shape; `undefined` for a token without them (no `twoFactor`, or issued before it).
 */
function authenticationClaims(payload: JWT): JWT | undefined {
  const { aal, amr, secondFactorAt } = payload
  if (aal !== 1 && aal !== 2) return undefined
  return {
    aal,
    amr: Array.isArray(amr) ? amr.filter((value): value is string => typeof value === "string") : [],
    ...(typeof secondFactorAt === "number" && Number.isFinite(secondFactorAt) && { secondFactorAt }),
  }
}

/**
 * When a decoded token's session must end: its absolute deadline (see ./absolute-lifetime.ts),
 * and an impersonation's end (`imp.exp`), which no write of the cookie moves.
 */
function sessionDeadline(options: RequestContext["config"]["session"], payload: JWT, expiry: number): number {
  const deadline = absoluteDeadline(options, typeof payload.signedInAt === "number" ? payload.signedInAt : undefined, expiry)
  const impersonation = impersonationOf(payload.imp)
  return impersonation ? Math.min(deadline, impersonation.exp * 1000) : deadline
}

/** The `imp` claim in its own shape (the admin's id, the end in seconds); `undefined` for anything else. */
function impersonationOf(value: unknown): { sub: string; exp: number } | undefined {
  if (value === null || typeof value !== "object") return undefined
  const { sub, exp } = value as { sub?: unknown; exp?: unknown }
  return typeof sub === "string" && sub !== "" && typeof exp === "number" && Number.isFinite(exp) ? { sub, exp } : undefined
}

/** The context claims of a decoded token (`org`, `imp`, `prv`), kept only in their own shape; `undefined` without any. */
function contextClaims(payload: JWT): JWT | undefined {
  const org = typeof payload.org === "string" && payload.org !== "" ? payload.org : undefined
  const prv = typeof payload.prv === "string" && payload.prv !== "" ? payload.prv : undefined
  const imp = impersonationOf(payload.imp)
  if (org === undefined && prv === undefined && imp === undefined) return undefined
  return { ...(org !== undefined && { org }), ...(imp !== undefined && { imp }), ...(prv !== undefined && { prv }) }
}

/** The claims a new session's context is written as. */
function contextClaimsOf(start: SessionContextStart): JWT {
  return {
    ...(start.activeOrganizationId !== undefined && { org: start.activeOrganizationId }),
    ...(start.signInProvider !== undefined && { prv: start.signInProvider }),
    ...(start.impersonation && { imp: { sub: start.impersonation.by, exp: Math.floor(start.impersonation.expires / 1000) } }),
  }
}

/** The session context a decoded token carries, and when its impersonation ends. */
export function sessionContextOfToken(token: JWT): { context: AdapterSessionContext; impersonationExpires: Date | null } {
  const claims = contextClaims(token)
  const impersonation = impersonationOf(claims?.imp)
  return {
    context: {
      activeOrganizationId: typeof claims?.org === "string" ? claims.org : null,
      impersonatorId: impersonation?.sub ?? null,
      signInProvider: typeof claims?.prv === "string" ? claims.prv : null,
    },
    impersonationExpires: impersonation ? new Date(impersonation.exp * 1000) : null,
  }
}

/**
 * `session.authentication` from the token's claims; a token without them reads as one factor.
 */
export function sessionAuthenticationOf(token: JWT): SessionAuthentication {
  const claims = authenticationClaims(token)
  if (!claims) return { aal: 1, amr: [], secondFactorAt: null }
  return {
    aal: claims.aal as 1 | 2,
    amr: [...(claims.amr as string[])],
    secondFactorAt: typeof claims.secondFactorAt === "number" ? new Date(claims.secondFactorAt * 1000).toISOString() : null,
  }
}

/**
 * Whether saving `token` would store other claims than `decoded` (its {@link savedForm}); unknown
 * counts as changed. The claims in the same order is the usual case (the default callbacks return
 * the token as decoded), answered by one plain `JSON.stringify`; only a token whose JSON differs
 * is compared again with every object's keys sorted, so that the order a callback built the
 * claims in does not count as a change.
 */
function changedClaims(token: JWT, decoded: string | undefined): boolean {
  if (decoded === undefined) return true
  const saved = savedForm(token)
  if (saved === decoded) return false
  return saved === undefined || sortedJson(JSON.parse(saved)) !== sortedJson(JSON.parse(decoded))
}

/**
 * The claims as `encode` would save them (without the `iat`, `exp` and `jti` it sets), as JSON.
 * `undefined` when JSON cannot hold them (a custom decode's BigInt): such a token counts as
 * changed on every read.
 */
function savedForm(token: JWT): string | undefined {
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
  try {
    return JSON.stringify(claims)
  } catch {
    return undefined
  }
}

/** JSON data as JSON with every object's keys sorted. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  )
}

/** What a sign-in knows about the user, for the `jwt` callback. */
export interface SignInData {
  user: User
  account: Account | null
  profile?: Profile
  isNewUser: boolean
  /** The identity provider session the sign-in came from (OIDC `sid`), for back-channel logout. */
  idpSession?: IdpSession
  /** The OIDC provider whose end-session endpoint can end the provider's session too (RP-initiated logout). */
  logoutProvider?: string
  /** How the session was authenticated; present only with `twoFactor` configured (no claims otherwise). */
  authentication?: SessionAuthentication
  /** Gatehouse's context the session starts with; present only with `organizations` or `admin` configured. */
  context?: SessionContextStart
}

/** The context a new session starts with (see ./session-context.ts). */
export interface SessionContextStart {
  /** The organization the session acts in (carried over when a sign-in continues a session). */
  activeOrganizationId?: string
  /** The provider signed in with (recorded with `organizations`, for its sign-in-method policy). */
  signInProvider?: string
  /** An impersonation session: the admin acting, and when it ends (ms since the epoch; it is never extended past it). */
  impersonation?: { by: string; expires: number }
}

/**
 * The cookies of a new session for `data.user`: the default token (`name`, `email`, `picture`,
 * `sub`, and the account's tokens for a provider with `refreshAccessToken`) through the `jwt` callback, encrypted and chunked. A `jwt` callback returning `null`
 * refuses the session: the cookies then only clear any old one.
 */
export async function issueJwtSession(ctx: RequestContext, data: SignInData): Promise<Cookie[]> {
  const { config } = ctx
  const store = sessionStoreOf(ctx)
  const { user, account, profile, isNewUser } = data
  const defaultToken: JWT = {
    name: user.name,
    email: user.email,
    picture: user.image,
    sub: user.id?.toString(),
    ...refreshableTokenFields(ctx, account),
  }
  const returned = await config.callbacks.jwt({
    token: defaultToken,
    user,
    account,
    ...(profile && { profile }),
    isNewUser,
    trigger: isNewUser ? "signUp" : "signIn",
  })
  if (returned === null) return store.clean()
  assertToken(returned)
  const now = Date.now()
  const startedAt = Math.floor(now / 1000)
  const deadline = Math.min(absoluteDeadline(config.session, startedAt, now), data.context?.impersonation?.expires ?? Number.POSITIVE_INFINITY)
  // Keyed by the final `sub` (withSessionClaims reads it): the version a later check compares.
  const claims: JWT = {
    ...(config.session.absoluteMaxAge !== undefined && { signedInAt: startedAt }),
    // Only where back-channel logout can end it: every later check of the token reads its version.
    ...(config.backchannelLogout && data.idpSession && checksVersions(config) && { idpSession: await idpSessionKey(data.idpSession) }),
    // Which provider the session came from, when it can be signed out of there too; never a token.
    ...(data.logoutProvider !== undefined && { logoutProvider: data.logoutProvider }),
    // Set here, after the `jwt` callback, which therefore cannot change them.
    ...(data.authentication && {
      aal: data.authentication.aal,
      amr: [...data.authentication.amr],
      ...(data.authentication.secondFactorAt !== null && { secondFactorAt: Math.floor(Date.parse(data.authentication.secondFactorAt) / 1000) }),
    }),
    // Gatehouse's context (organizations, impersonation), equally out of the callback's reach.
    ...(data.context && contextClaimsOf(data.context)),
  }
  const token = await withSessionClaims(ctx, returned, claims, undefined)
  const expires = new Date(Math.min(now + config.session.maxAge * 1000, deadline))
  return store.chunk(await config.jwt.encode(tokenParams(ctx, { token, maxAge: lifetimeUntil(ctx, deadline, now) })), { expires })
}

/**
 * Ends the session: the `signOut` event gets the decoded token (no event when the cookie does not
 * decode), and every session cookie chunk is cleared.
 */
export async function endJwtSession(ctx: RequestContext): Promise<Cookie[]> {
  const store = sessionStoreOf(ctx)
  if (!store.value) return store.clean()
  try {
    const token = await ctx.config.jwt.decode(tokenParams(ctx, { token: store.value }))
    // Only a real session ends with an event; a garbage cookie must not fill the audit log.
    if (token) await emitEvent(ctx.config, "signOut", { token })
  } catch (error) {
    // Only the decoding can fail here (events never throw): the cookie is the client's.
    logError(ctx.logger, error instanceof JWTSessionError ? error : new JWTSessionError("The session token could not be decoded at sign-out", { cause: error }))
  }
  return store.clean()
}

/**
 * Parameters for `jwt.encode` / `jwt.decode`: the session cookie's name as salt, the secret as
 * the application gave it (a single secret as a string, for custom functions that expect one).
 */
function tokenParams<T extends { token: unknown }>(ctx: RequestContext, extra: T): JWTEncodeParams & { token: T["token"] } {
  const { secret, jwt } = ctx.config
  return {
    secret: secret.length === 1 ? secret[0]! : [...secret],
    salt: ctx.cookies.sessionToken.name,
    maxAge: jwt.maxAge,
    ...extra,
  } as JWTEncodeParams & { token: T["token"] }
}

function assertToken(token: unknown): asserts token is JWT {
  if (token === null || typeof token !== "object" || Array.isArray(token)) {
    throw new AuthError("The jwt callback must return the token object, or null to end the session")
  }
}

/**
 * The stored user the session cookie belongs to (its `sub`), so a sign-in can link a new account
 * to them. A cookie that does not decode, or a session that ended (absolutely or by revocation,
 * checked now whatever its age), is no session; an adapter failure propagates. Nor is an
 * impersonation: the admin sees as the user, but adds no way into their account (a linked
 * account, a passkey, a second factor) and changes nothing of it.
 */
export async function jwtSessionUser(ctx: RequestContext): Promise<AdapterUser | null> {
  if (!ctx.config.adapter) return null
  const token = await standingJwtSession(ctx)
  if (token && impersonationOf(token.imp)) return null
  const sub = token?.sub
  if (typeof sub !== "string" || sub === "") return null
  return callAdapter(ctx.config.adapter, "getUser", sub)
}

/**
 * The decoded token of the request's JWT session when it still stands, checked now whatever its
 * age (absolute lifetime, session version, identity provider logout): what the account routes act
 * for. `null` for no session or one that does not decode; an adapter failure propagates.
 */
export async function standingJwtSession(ctx: RequestContext): Promise<JWT | null> {
  const store = sessionStoreOf(ctx)
  if (!store.value) return null
  let payload: JWT | null
  try {
    payload = await ctx.config.jwt.decode(tokenParams(ctx, { token: store.value }))
  } catch {
    return null
  }
  if (!payload) return null
  // A revoked or worn-out session must not act for its user (link an account, revoke others).
  return (await standingOf(ctx, payload, Date.now(), { force: true })) ? payload : null
}

/** Where a session came from: the provider, the user, and the ID token where the session itself holds it. */
export interface SessionOrigin {
  /** The provider's id. */
  provider: string
  /** The user's id (the JWT's `sub`), `undefined` when the token has none. */
  userId: string | undefined
  /** An `id_token` the application's `jwt` callback kept in the token; Gatehouse never puts it there. */
  idToken: string | undefined
}

/**
 * The provider the request's JWT session came from (its `logoutProvider` claim, set at an OIDC
 * sign-in whose provider offers RP-initiated logout), when the session still stands.
 */
export async function jwtSessionOrigin(ctx: RequestContext): Promise<SessionOrigin | null> {
  const token = await standingJwtSession(ctx)
  if (typeof token?.logoutProvider !== "string") return null
  return {
    provider: token.logoutProvider,
    userId: typeof token.sub === "string" && token.sub !== "" ? token.sub : undefined,
    idToken: typeof token.id_token === "string" && token.id_token !== "" ? token.id_token : undefined,
  }
}

/**
 * The cookies of the request's session `token` (standing, see {@link standingJwtSession}) written
 * again under `sessionVersion`, just raised to end the user's other sessions: this one goes on.
 * Its claims stay as they are; no callback runs.
 */
export function reissueJwtSession(ctx: RequestContext, token: JWT, sessionVersion: number): Promise<Cookie[]> {
  return rewriteJwtSession(ctx, token, { sessionVersion, versionCheckedAt: Math.floor(Date.now() / 1000) })
}

/**
 * The cookies of the request's session `token` (standing, see {@link standingJwtSession}) written
 * again with the user's second factor just checked (step-up, enrolment while signed in): the
 * authentication claims replaced by `authentication`, every other claim as decoded. No callback
 * runs, and the claims are Gatehouse's own (see {@link SESSION_CLAIMS}): no later `jwt` callback
 * can change them. The expiry follows the same rules as any other write of the cookie.
 */
export function raiseJwtSession(ctx: RequestContext, token: JWT, authentication: SessionAuthentication): Promise<Cookie[]> {
  return rewriteJwtSession(ctx, token, {
    aal: authentication.aal,
    amr: [...authentication.amr],
    ...(authentication.secondFactorAt !== null && { secondFactorAt: Math.floor(Date.parse(authentication.secondFactorAt) / 1000) }),
  })
}

/** `token` written again with `changes` over its claims, sliding like any write, never past its absolute deadline. */
async function rewriteJwtSession(ctx: RequestContext, token: JWT, changes: JWT): Promise<Cookie[]> {
  const { config } = ctx
  const now = Date.now()
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
  const issuedAt = typeof token.iat === "number" ? token.iat * 1000 : now
  const expiry = typeof token.exp === "number" ? token.exp * 1000 : issuedAt + config.session.maxAge * 1000
  const deadline = sessionDeadline(config.session, token, expiry)
  const written: JWT = { ...claims, ...changes }
  const expires = new Date(Math.min(now + config.session.maxAge * 1000, deadline))
  return sessionStoreOf(ctx).chunk(await config.jwt.encode(tokenParams(ctx, { token: written, maxAge: lifetimeUntil(ctx, deadline, now) })), { expires })
}

/**
 * The cookies of the request's session `token` (standing, see {@link standingJwtSession}) written
 * again with its active organization or sign-in provider changed as `patch` says (`null` removes
 * one). No callback runs; the claims are Gatehouse's own. An impersonation is never changed here:
 * it starts and ends with a session of its own (./../admin/impersonation.ts).
 */
export function rewriteJwtSessionContext(ctx: RequestContext, token: JWT, patch: Partial<Pick<AdapterSessionContext, "activeOrganizationId" | "signInProvider">>): Promise<Cookie[]> {
  const { org: _org, prv: _prv, ...rest } = token
  const org = patch.activeOrganizationId === undefined ? token.org : patch.activeOrganizationId
  const prv = patch.signInProvider === undefined ? token.prv : patch.signInProvider
  return rewriteJwtSession(ctx, { ...rest, ...(typeof org === "string" && org !== "" && { org }), ...(typeof prv === "string" && prv !== "" && { prv }) }, {})
}

/** How the request's standing JWT session was authenticated; `null` without one. */
export async function jwtSessionAuthentication(ctx: RequestContext): Promise<SessionAuthentication | null> {
  const token = await standingJwtSession(ctx)
  return token ? sessionAuthenticationOf(token) : null
}
