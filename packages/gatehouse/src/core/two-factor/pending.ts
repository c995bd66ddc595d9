/**
 * A sign-in waiting for its second factor: the first factor passed, no session exists yet (no
 * session cookie, no row, no `signIn` event). What the sign-in needs to finish lives in the
 * `authjs.two-factor` cookie, an encrypted JWT (the JWE helpers of `jwt/`, salted with the
 * cookie's name, as the session cookie is), written and read through the session cookie store so
 * a large `account`/`profile` chunks as a session does. It lives 5 minutes at most, and a rewrite
 * (to add an email code) keeps its end.
 *
 * What a copied or replayed cookie must not do is kept server-side, by its pending id `pid` (fixed
 * for the pending sign-in's life, unlike the token's `jti`, which every write renews): wrong codes
 * tried are counted (a replayed cookie cannot reset them), and success spends the id first, so a replay
 * or a double submit finishes nothing twice.
 * @module
 */
import type { Cookie } from "../../cookies/defaults.js"
import { TWO_FACTOR_COOKIE_MAX_AGE } from "../../cookies/defaults.js"
import { sessionStore } from "../../cookies/session-store.js"
import { CLOCK_TOLERANCE, decode, encode } from "../../jwt/index.js"
import type { Account, Profile, User } from "../../resources.js"
import { randomHex } from "../crypto.js"
import { countEvent } from "../event-counter.js"
import type { RequestContext } from "../request-context.js"
import type { IdpSession } from "../sessions/idp-session.js"
import type { RemovedSignInMethods } from "../unproven-account.js"
import type { EmailCodeState } from "./email-code.js"

/** Codes a pending sign-in may try; the next try is refused unchecked. */
export const PENDING_MAX_ATTEMPTS = 5
/**
 * How long the server remembers a pending id's attempts and whether it was spent: as long as any
 * cookie holding it can still decode (its life, plus the clock tolerance `decode` allows).
 */
export const PENDING_MEMORY = TWO_FACTOR_COOKIE_MAX_AGE + CLOCK_TOLERANCE

/** What the first factor established, to finish the sign-in with once the second passes. */
export interface PendingSignInInput {
  /** The user signing in (stored id). */
  uid: string
  /** `challenge`: the user has a factor to check. `enrol`: the user must set one up first. */
  mode: "challenge" | "enrol"
  isNewUser: boolean
  /** RFC 8176 values of the first factor (`pwd`, `otp`, `fed`, `hwk`, …). */
  firstAmr: string[]
  /**
   * The user as the first factor gave it (what `authorize` returned, the provider's profile mapped,
   * the stored user), for the `jwt` callback and the `signIn` event: fields the stored user lacks
   * (`role` from `authorize`) are kept. Carried as JSON: `emailVerified` is a `Date` again when read,
   * a BigInt arrives as its decimal text.
   */
  user?: User
  /**
   * The `signIn` event's user when it is not {@link user}: under database sessions a Credentials
   * sign-in's session is the stored user's, its event names what `authorize` returned.
   */
  eventUser?: User
  /** The account of the first factor (`null` for credentials), for the `jwt` callback and event. */
  account: Account | null
  profile?: Profile
  idpSession?: IdpSession
  logoutProvider?: string
  /** Where the sign-in goes once finished (already checked by the redirect callback). */
  next: string
  /** What claiming an unproven account removed, for the page shown after the second factor. */
  removed?: RemovedSignInMethods
  /**
   * An account to link only once the second factor passed (linking by email to an enrolled user),
   * with the provider's user for the `linkAccount` event.
   */
  deferredLink?: { account: Account; user: User }
  /** The email code sent for this sign-in, if one was. */
  emailCode?: EmailCodeState
}

/** A pending sign-in as read from its cookie. */
export interface PendingSignIn extends PendingSignInInput {
  v: 1
  /** The pending id: random, fixed for the sign-in's life; what attempts and spending are counted by. */
  pid: string
  /** Seconds since the epoch when it ends. */
  exp: number
}

/** A new pending sign-in and the cookies that hold it. A sign-in cookie of the request is not touched. */
export async function startPending(ctx: RequestContext, input: PendingSignInInput): Promise<{ pending: PendingSignIn; cookies: Cookie[] }> {
  const now = Math.floor(Date.now() / 1000)
  const pending: PendingSignIn = { ...withUsers(input, portableUser), v: 1, pid: randomHex(16), exp: now + TWO_FACTOR_COOKIE_MAX_AGE }
  // Answered as it will read back, not as it was given.
  return { pending: withUsers(pending, withDates), cookies: await writePending(ctx, pending) }
}

/**
 * The cookies holding `pending` again (changed: an email code added), ending when it did. None
 * but its deletion once it has ended.
 */
export async function writePending(ctx: RequestContext, pending: PendingSignIn): Promise<Cookie[]> {
  const now = Math.floor(Date.now() / 1000)
  const left = Math.min(pending.exp - now, TWO_FACTOR_COOKIE_MAX_AGE)
  if (left <= 0) return clearPending(ctx)
  const { exp: _exp, ...rest } = pending
  const value = await encode({ token: { ...rest }, secret: [...ctx.config.secret], salt: ctx.cookies.twoFactor.name, maxAge: left })
  return sessionStore(ctx.cookies.twoFactor, ctx.request.cookies).chunk(value, { expires: new Date((now + left) * 1000) })
}

/**
 * The request's pending sign-in, or `undefined` when it has none, or one that is expired, changed,
 * made under another secret or cookie name, or not of this shape.
 */
export async function readPending(ctx: RequestContext): Promise<PendingSignIn | undefined> {
  const { value } = sessionStore(ctx.cookies.twoFactor, ctx.request.cookies)
  if (!value) return undefined
  let claims: Record<string, unknown> | null
  try {
    claims = await decode<Record<string, unknown>>({ token: value, secret: [...ctx.config.secret], salt: ctx.cookies.twoFactor.name })
  } catch {
    return undefined
  }
  if (!claims || !isPending(claims)) return undefined
  // decode allows some clock skew; the pending sign-in does not outlive its own end.
  if (claims.exp <= Math.floor(Date.now() / 1000)) return undefined
  const { iat: _iat, jti: _jti, ...pending } = claims as PendingSignIn & { iat?: unknown; jti?: unknown }
  return withUsers(pending, withDates)
}

/** `pending` with each user it carries (its own, the event's, the deferred link's) passed through `map`. */
function withUsers<T extends PendingSignInInput>(pending: T, map: (user: User) => User): T {
  return {
    ...pending,
    ...(pending.user && { user: map(pending.user) }),
    ...(pending.eventUser && { eventUser: map(pending.eventUser) }),
    ...(pending.deferredLink && { deferredLink: { ...pending.deferredLink, user: map(pending.deferredLink.user) } }),
  }
}

/**
 * `user` as the cookie can carry it (JSON): a BigInt (a Prisma row's) becomes its decimal text
 * instead of failing the sign-in; dates become ISO text, made dates again by {@link withDates}.
 */
function portableUser(user: User): User {
  return JSON.parse(JSON.stringify(user, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value))) as User
}

/** A user read from the cookie, with its `emailVerified` a `Date` again, as it was. */
function withDates(user: User): User {
  const verified: unknown = (user as { emailVerified?: unknown }).emailVerified
  return typeof verified === "string" ? ({ ...user, emailVerified: new Date(verified) } as User) : user
}

/** The cookies deleting the request's pending sign-in (every chunk it sent). */
export function clearPending(ctx: RequestContext): Cookie[] {
  return sessionStore(ctx.cookies.twoFactor, ctx.request.cookies).clean()
}

/**
 * Counts one code tried for pending sign-in `pid`, before it is checked: `allowed` for the first
 * {@link PENDING_MAX_ATTEMPTS} tries only. Counted whatever the outcome, so no replay of the cookie
 * and no parallel submits get more tries; a right code ends the pending sign-in anyway.
 */
export async function countAttempt(ctx: RequestContext, pid: string): Promise<{ count: number; allowed: boolean }> {
  const { count } = await countEvent(ctx, `two-factor:attempts:${pid}`, PENDING_MEMORY, { durable: true })
  return { count, allowed: count <= PENDING_MAX_ATTEMPTS }
}

/**
 * Spends pending sign-in `pid`, before its session is issued: `true` the first time only, so a
 * replayed cookie or a second submit of the right code finishes nothing.
 */
export async function spendPending(ctx: RequestContext, pid: string): Promise<boolean> {
  const { count } = await countEvent(ctx, `two-factor:done:${pid}`, PENDING_MEMORY, { durable: true })
  return count === 1
}

function isPending(claims: Record<string, unknown>): claims is PendingSignIn & Record<string, unknown> {
  const { v, pid, uid, mode, isNewUser, firstAmr, next, exp, account, user, eventUser } = claims
  return (
    v === 1 &&
    typeof pid === "string" && /^[0-9a-f]{32}$/.test(pid) &&
    typeof uid === "string" && uid !== "" &&
    (mode === "challenge" || mode === "enrol") &&
    typeof isNewUser === "boolean" &&
    Array.isArray(firstAmr) && firstAmr.every((value) => typeof value === "string") &&
    typeof next === "string" &&
    typeof exp === "number" &&
    (account === null || (typeof account === "object" && !Array.isArray(account))) &&
    (user === undefined || (typeof user === "object" && user !== null && !Array.isArray(user) && (user as { id?: unknown }).id === uid)) &&
    (eventUser === undefined || (typeof eventUser === "object" && eventUser !== null && !Array.isArray(eventUser)))
  )
}
