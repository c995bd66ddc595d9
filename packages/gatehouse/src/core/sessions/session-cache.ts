/**
 * The read-through cache of database sessions (`session.cacheMaxAge` with a `sharedStore`): the
 * adapter is wrapped so `getSessionAndUser` answers from the store for at most `cacheMaxAge`
 * seconds (and never past the session's own expiry), and every write Gatehouse makes through it
 * ends the cached copies it affects on every instance at once:
 *
 * - `deleteSession` leaves a tombstone under the session's key. Entries are only ever added with
 *   `setIfAbsent`, so a reader that fetched the row just before the delete cannot put it back.
 * - `updateSession` drops the entry (the next read caches the new expiry).
 * - `updateSessionAuthentication` (a step-up to a second factor) leaves a tombstone too: the
 *   session is then read from the database, never from the store, until the tombstone expires, so
 *   a read from before the change cannot cache the old assurance level after it.
 * - `setSessionContext` (active organization, impersonation) leaves a tombstone for the same reason.
 * - `updateUser`, `deleteUser`, `deleteSessionsByUserId` (sign-out everywhere) and
 *   `deleteSessionsByIdpSid` (back-channel logout: each user whose rows went) mark the user as
 *   changed at that moment (session versions are JWT sessions' alone, which this cache never serves); an entry whose database read
 *   began before the mark (with `CLOCK_MARGIN_MS` for clocks that disagree) is not served.
 *
 * When the store fails, reads go to the adapter. An invalidation the store missed (it was down, or
 * unreachable from this instance only) is kept and written again as soon as this instance reaches
 * the store; until then another instance may still serve the cached copy, at most `cacheMaxAge`
 * seconds: that is the staleness bound. Keys hold SHA-256 hashes; values hold the row (whose token
 * is the stored one, a hash by default) and the user.
 * @module
 */
import type { Adapter, AdapterSessionAuthentication, AdapterSessionWithAuthentication, AdapterUser } from "../../adapters/index.js"
import type { SessionOptions } from "../../types.js"
import { storeCall, storeKey, type StoreConfig } from "../shared-store.js"

/** Instances' clocks may disagree by this much: an entry read this close to a user's change is not trusted. */
const CLOCK_MARGIN_MS = 5_000
/** How long markers outlive the entries they judge (s): a read may take this long to be cached. */
const MARKER_SLACK_SECONDS = 60
const TOMBSTONE = "ended"
/** Missed invalidations kept for writing again, at most; past it the oldest go (their bound still holds). */
const PENDING_LIMIT = 10_000
/** Sessions whose user this instance remembers, at most (a few MB): a forgotten one costs a round trip, not a wrong answer. */
const KNOWN_USERS_LIMIT = 10_000

/** A write that ends cached copies: `value` with a ttl, or a delete when `value` is undefined. */
interface Invalidation {
  key: string
  value: string | undefined
  /** When it was first tried (epoch ms); useless once every entry it judges has expired. */
  at: number
}

/** A session's authentication as JSON carries it: `secondFactorAt` as ISO text. */
type StoredAuthentication = Omit<AdapterSessionAuthentication, "secondFactorAt"> & { secondFactorAt: string | null }

interface Entry {
  /** The session row, `expires` as ISO text, with its authentication when the adapter returned one. */
  session: Omit<AdapterSessionWithAuthentication, "expires" | "authentication"> & {
    expires: string
    authentication?: StoredAuthentication | null
  }
  user: Omit<AdapterUser, "emailVerified"> & { emailVerified: string | null }
  /** When the database read began (epoch ms, this instance's clock). */
  readAt: number
}

/**
 * `adapter` with its session reads cached in the store, or `adapter` itself when the cache is off
 * (no store, no positive `cacheMaxAge`, not database sessions, or an adapter without `getSessionAndUser`).
 */
export function withSessionCache(adapter: Adapter | undefined, session: SessionOptions, config: StoreConfig): Adapter | undefined {
  const maxAge = session.cacheMaxAge
  if (!adapter || !config.sharedStore || session.strategy !== "database" || typeof adapter.getSessionAndUser !== "function") return adapter
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0) return adapter
  const markerTtl = maxAge + MARKER_SLACK_SECONDS
  const sessionKey = (token: string) => storeKey("session", token)
  const userKey = (userId: string) => storeKey("session-user", userId)

  // Invalidations the store missed, written again before anything else once it answers.
  let pending: Invalidation[] = []
  const write = ({ key, value }: Invalidation) =>
    storeCall(config, "session-cache", (store) => (value === undefined ? store.delete(key) : store.set(key, value, markerTtl)))
  const invalidate = async (invalidation: Invalidation) => {
    if (!(await write(invalidation)).ok) {
      pending.push(invalidation)
      if (pending.length > PENDING_LIMIT) pending = pending.slice(-PENDING_LIMIT)
    }
  }
  /** Writes the missed invalidations; `false` while the store still fails (then nothing is served from it). */
  const retryPending = async (): Promise<boolean> => {
    if (pending.length === 0) return true
    const due = pending.filter((invalidation) => invalidation.at > Date.now() - markerTtl * 1000)
    pending = []
    for (const [index, invalidation] of due.entries()) {
      if (!(await write(invalidation)).ok) {
        pending = [...due.slice(index), ...pending]
        return false
      }
    }
    return true
  }
  const markUser = async (userId: string) => invalidate({ key: await userKey(userId), value: String(Date.now()), at: Date.now() })
  const read = adapter.getSessionAndUser.bind(adapter)

  // Whose session each key held when this instance last read it. A hit needs the entry and its
  // user's mark; asked one after the other that is two round trips to the store, slower than the
  // one query the cache stands in for. With the user known from an earlier read, both go at once;
  // a guess the entry contradicts costs the second trip, as before. Bounded, oldest dropped first.
  const knownUsers = new Map<string, string>()
  const remember = (key: string, userId: string) => {
    if (knownUsers.get(key) === userId) return
    if (knownUsers.size >= KNOWN_USERS_LIMIT) knownUsers.delete(knownUsers.keys().next().value!)
    knownUsers.set(key, userId)
  }
  const markOf = async (userId: string) => storeCall(config, "session-cache", async (store) => store.get(await userKey(userId)))

  // A copy whose prototype is the adapter: methods not overridden stay the adapter's own, class or object.
  const cached: Adapter = Object.create(adapter) as Adapter

  cached.getSessionAndUser = async (sessionToken) => {
    // A store that just failed is not asked again in the same read: one timeout, not two.
    if (!(await retryPending())) return read(sessionToken)
    const key = await sessionKey(sessionToken)
    const guess = knownUsers.get(key)
    const [hit, guessedMark] = await Promise.all([storeCall(config, "session-cache", (store) => store.get(key)), guess === undefined ? undefined : markOf(guess)])
    if (hit.ok && hit.value !== null && hit.value !== TOMBSTONE) {
      const entry = parse(hit.value)
      if (entry) {
        remember(key, entry.user.id)
        const marker = guessedMark !== undefined && guess === entry.user.id ? guessedMark : await markOf(entry.user.id)
        if (marker.ok && !(marker.value !== null && Number(marker.value) >= entry.readAt - CLOCK_MARGIN_MS)) return revive(entry)
      }
      // Judged stale: dropped, so the read below may cache the row afresh.
      if (hit.ok) await storeCall(config, "session-cache", (store) => store.delete(key))
    }
    const readAt = Date.now()
    const found = await read(sessionToken)
    if (found) remember(key, found.user.id)
    if (found && hit.ok && hit.value !== TOMBSTONE) {
      const ttl = Math.min(maxAge, (new Date(found.session.expires).getTime() - Date.now()) / 1000)
      if (ttl > 0) await storeCall(config, "session-cache", (store) => store.setIfAbsent(key, serialize(found, readAt), ttl))
    }
    return found
  }

  if (adapter.deleteSession) {
    const remove = adapter.deleteSession.bind(adapter)
    cached.deleteSession = (async (sessionToken: string) => {
      const deleted = await remove(sessionToken)
      await invalidate({ key: await sessionKey(sessionToken), value: TOMBSTONE, at: Date.now() })
      return deleted
    }) as Adapter["deleteSession"]
  }
  if (adapter.updateSession) {
    const update = adapter.updateSession.bind(adapter)
    cached.updateSession = async (changes) => {
      const updated = await update(changes)
      await invalidate({ key: await sessionKey(changes.sessionToken), value: undefined, at: Date.now() })
      return updated
    }
  }
  if (adapter.updateSessionAuthentication) {
    const update = adapter.updateSessionAuthentication.bind(adapter)
    // A tombstone rather than a delete: a read that fetched the row before the change and reaches
    // the store after it must not cache the old authentication (a lowered one would then stand).
    cached.updateSessionAuthentication = async (sessionToken, authentication) => {
      const updated = await update(sessionToken, authentication)
      await invalidate({ key: await sessionKey(sessionToken), value: TOMBSTONE, at: Date.now() })
      return updated
    }
  }
  if (adapter.setSessionContext) {
    const set = adapter.setSessionContext.bind(adapter)
    // A tombstone, as for the authentication: a copy from before the change (another active
    // organization, an impersonation) must not be cached after it.
    cached.setSessionContext = async (sessionToken, patch) => {
      const updated = await set(sessionToken, patch)
      await invalidate({ key: await sessionKey(sessionToken), value: TOMBSTONE, at: Date.now() })
      return updated
    }
  }
  if (adapter.updateUser) {
    const update = adapter.updateUser.bind(adapter)
    cached.updateUser = async (user) => {
      const updated = await update(user)
      await markUser(user.id)
      return updated
    }
  }
  if (adapter.deleteSessionsByIdpSid) {
    const remove = adapter.deleteSessionsByIdpSid.bind(adapter)
    // Back-channel logout: the cache is keyed by token, not by provider session, so the users whose
    // rows went are marked, as a sign-out everywhere marks one.
    cached.deleteSessionsByIdpSid = async (provider, sid) => {
      const users = await remove(provider, sid)
      for (const userId of new Set(Array.isArray(users) ? users : [])) await markUser(userId)
      return users
    }
  }
  for (const method of ["deleteUser", "deleteSessionsByUserId"] as const) {
    const original = adapter[method]
    if (typeof original !== "function") continue
    const bound = original.bind(adapter) as (userId: string) => Promise<never>
    ;(cached as Record<typeof method, unknown>)[method] = async (userId: string) => {
      const result = await bound(userId)
      await markUser(userId)
      return result
    }
  }
  return cached
}

function serialize(found: { session: AdapterSessionWithAuthentication; user: AdapterUser }, readAt: number): string {
  return JSON.stringify({ session: found.session, user: found.user, readAt })
}

function parse(text: string): Entry | null {
  try {
    const entry = JSON.parse(text) as Entry
    return typeof entry.readAt === "number" && typeof entry.user?.id === "string" && typeof entry.session?.expires === "string" ? entry : null
  } catch {
    return null
  }
}

/** The entry with its dates as `Date`s again, as the adapter returned them. */
function revive(entry: Entry): { session: AdapterSessionWithAuthentication; user: AdapterUser } {
  const { emailVerified } = entry.user
  const { authentication, ...session } = entry.session
  return {
    session: {
      ...session,
      expires: new Date(session.expires),
      // Absent stays absent: an adapter that records no authentication gets back what it gave.
      ...(authentication !== undefined && {
        authentication: authentication && {
          ...authentication,
          secondFactorAt: authentication.secondFactorAt === null ? null : new Date(authentication.secondFactorAt),
        },
      }),
    },
    user: { ...entry.user, emailVerified: emailVerified === null || emailVerified === undefined ? null : new Date(emailVerified) },
  }
}
