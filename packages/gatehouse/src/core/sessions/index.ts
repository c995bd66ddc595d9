/**
 * The session strategy in force, behind one interface, so actions never branch on it.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import type { SessionAuthentication, SessionStrategy, User } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import type { SessionOrigin, SessionRead, SignInData } from "./jwt-strategy.js"

export type { SessionOrigin, SessionRead, SignInData }

interface Strategy {
  read(ctx: RequestContext, update?: { data: unknown }): Promise<SessionRead>
  issue(ctx: RequestContext, data: SignInData): Promise<Cookie[]>
  end(ctx: RequestContext): Promise<Cookie[]>
  currentUser(ctx: RequestContext): Promise<AdapterUser | null>
  sessionUser(ctx: RequestContext, user: User): Promise<User | null>
  origin(ctx: RequestContext): Promise<SessionOrigin | null>
  authentication(ctx: RequestContext): Promise<SessionAuthentication | null>
}

/**
 * Each strategy's module, imported the first time a request needs it: an app uses one strategy,
 * and need not load (or bundle into its first chunk) the other.
 */
const loaders: Record<SessionStrategy, () => Promise<Strategy>> = {
  jwt: async () => {
    const jwt = await import("./jwt-strategy.js")
    return {
      read: jwt.readJwtSession,
      issue: jwt.issueJwtSession,
      end: jwt.endJwtSession,
      currentUser: jwt.jwtSessionUser,
      // The token carries the user itself; nothing needs to be stored.
      sessionUser: async (_ctx, user) => user,
      origin: jwt.jwtSessionOrigin,
      authentication: jwt.jwtSessionAuthentication,
    }
  },
  database: async () => {
    const database = await import("./database-strategy.js")
    return {
      read: database.readDatabaseSession,
      issue: database.issueDatabaseSession,
      end: database.endDatabaseSession,
      currentUser: database.databaseSessionUser,
      sessionUser: database.storedUserOf,
      origin: database.databaseSessionOrigin,
      authentication: database.databaseSessionAuthentication,
    }
  },
}

/** The strategies loaded so far: once loaded, a session read calls its strategy without an extra await. */
const loaded: Partial<Record<SessionStrategy, Strategy>> = {}
const loading: Partial<Record<SessionStrategy, Promise<Strategy>>> = {}

function withStrategy<T>(ctx: RequestContext, use: (strategy: Strategy) => Promise<T>): Promise<T> {
  const name = ctx.config.session.strategy
  const strategy = loaded[name]
  if (strategy) return use(strategy)
  const pending = (loading[name] ??= loaders[name]().then(
    (ready) => (loaded[name] = ready),
    (error: unknown) => {
      // Not kept: the next request tries the import again.
      delete loading[name]
      throw error
    },
  ))
  return pending.then(use)
}

export function readSession(ctx: RequestContext, update?: { data: unknown }): Promise<SessionRead> {
  return withStrategy(ctx, (strategy) => strategy.read(ctx, update))
}

/** The cookies of a new session for a signed-in user. */
export function issueSession(ctx: RequestContext, data: SignInData): Promise<Cookie[]> {
  return withStrategy(ctx, (strategy) => strategy.issue(ctx, data))
}

/** Ends the current session, firing `signOut`; returns the cookies that clear it. */
export function endSession(ctx: RequestContext): Promise<Cookie[]> {
  return withStrategy(ctx, (strategy) => strategy.end(ctx))
}

/**
 * The provider the request's session came from, when the session remembers it (an OIDC sign-in
 * whose provider offers RP-initiated logout or named its session `sid`); `null` otherwise.
 */
export function sessionOrigin(ctx: RequestContext): Promise<SessionOrigin | null> {
  return withStrategy(ctx, (strategy) => strategy.origin(ctx))
}

/** How the request's standing session was authenticated; `null` without one. */
export function currentAuthentication(ctx: RequestContext): Promise<SessionAuthentication | null> {
  return withStrategy(ctx, (strategy) => strategy.authentication(ctx))
}

/** The stored user whose session this request carries, if any (needs an adapter). */
export function currentUser(ctx: RequestContext): Promise<AdapterUser | null> {
  return withStrategy(ctx, (strategy) => strategy.currentUser(ctx))
}

/**
 * The user a session can be issued for: `user` itself under JWT sessions, the adapter's row for
 * `user.id` under database sessions (`null` when the adapter does not know them).
 */
export function sessionUserFor(ctx: RequestContext, user: User): Promise<User | null> {
  return withStrategy(ctx, (strategy) => strategy.sessionUser(ctx, user))
}
