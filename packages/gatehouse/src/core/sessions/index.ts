/**
 * The session strategy in force, behind one interface, so actions never branch on it.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import type { SessionStrategy, User } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import {
  databaseSessionOrigin,
  databaseSessionUser,
  endDatabaseSession,
  issueDatabaseSession,
  readDatabaseSession,
  storedUserOf,
} from "./database-strategy.js"
import {
  endJwtSession,
  issueJwtSession,
  jwtSessionOrigin,
  jwtSessionUser,
  readJwtSession,
  type SessionRead,
  type SessionOrigin,
  type SignInData,
} from "./jwt-strategy.js"

export type { SessionOrigin, SessionRead, SignInData }

interface Strategy {
  read(ctx: RequestContext, update?: { data: unknown }): Promise<SessionRead>
  issue(ctx: RequestContext, data: SignInData): Promise<Cookie[]>
  end(ctx: RequestContext): Promise<Cookie[]>
  currentUser(ctx: RequestContext): Promise<AdapterUser | null>
  sessionUser(ctx: RequestContext, user: User): Promise<User | null>
  origin(ctx: RequestContext): Promise<SessionOrigin | null>
}

const strategies: Record<SessionStrategy, Strategy> = {
  jwt: {
    read: readJwtSession,
    issue: issueJwtSession,
    end: endJwtSession,
    currentUser: jwtSessionUser,
    // The token carries the user itself; nothing needs to be stored.
    sessionUser: async (_ctx, user) => user,
    origin: jwtSessionOrigin,
  },
  database: {
    read: readDatabaseSession,
    issue: issueDatabaseSession,
    end: endDatabaseSession,
    currentUser: databaseSessionUser,
    sessionUser: storedUserOf,
    origin: databaseSessionOrigin,
  },
}

function strategyOf(ctx: RequestContext): Strategy {
  return strategies[ctx.config.session.strategy]
}

/** The current session (and cookies to set); `update` carries a client's session update. */
export function readSession(ctx: RequestContext, update?: { data: unknown }): Promise<SessionRead> {
  return strategyOf(ctx).read(ctx, update)
}

/** The cookies of a new session for a signed-in user. */
export function issueSession(ctx: RequestContext, data: SignInData): Promise<Cookie[]> {
  return strategyOf(ctx).issue(ctx, data)
}

/** Ends the current session, firing `signOut`; returns the cookies that clear it. */
export function endSession(ctx: RequestContext): Promise<Cookie[]> {
  return strategyOf(ctx).end(ctx)
}

/**
 * The provider the request's session came from, when the session remembers it (an OIDC sign-in
 * whose provider offers RP-initiated logout or named its session `sid`); `null` otherwise.
 */
export function sessionOrigin(ctx: RequestContext): Promise<SessionOrigin | null> {
  return strategyOf(ctx).origin(ctx)
}

/** The stored user whose session this request carries, if any (needs an adapter). */
export function currentUser(ctx: RequestContext): Promise<AdapterUser | null> {
  return strategyOf(ctx).currentUser(ctx)
}

/**
 * The user a session can be issued for: `user` itself under JWT sessions, the adapter's row for
 * `user.id` under database sessions (`null` when the adapter does not know them).
 */
export function sessionUserFor(ctx: RequestContext, user: User): Promise<User | null> {
  return strategyOf(ctx).sessionUser(ctx, user)
}
