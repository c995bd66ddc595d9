/**
 * An adapter that keeps users, accounts, sessions, verification tokens, authenticators, second factors and
 * rate-limit counts in memory, for tests (yours and Gatehouse's). It behaves like a small
 * database: every call returns copies, unique keys and references to users are enforced, deleting
 * a user removes what the user owns, and nothing is shared between two `MemoryAdapter()` calls.
 * Data is gone when the process ends, so do not use it in production.
 *
 * @example
 * ```ts
 * import { Auth } from "gatehouse-auth"
 * import { MemoryAdapter } from "gatehouse-auth/adapters/memory"
 *
 * const adapter = MemoryAdapter()
 * const user = await adapter.createUser({ email: "ada@example.com", emailVerified: null })
 * const response = await Auth(request, { adapter, providers, secret })
 * ```
 * @module gatehouse-auth/adapters/memory
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionAuthentication,
  AdapterSessionDetails,
  AdapterTwoFactor,
  AdapterUser,
  NewAdapterUser,
  StoredAdapter,
  VerificationToken,
} from "./index.js"
import { checkAuthentication, checkHashes, checkText, checkTotpStep, recordsAuthentication } from "./two-factor-fields.js"

const NAME = "MemoryAdapter"

/** A user's two-factor row: what `getTwoFactor` answers, less the count of recovery codes. */
type TwoFactorRow = Omit<AdapterTwoFactor, "userId" | "recoveryCodesLeft">

/** What `createUser` takes: a user whose `id` may be left out. */
export type NewMemoryUser = NewAdapterUser

/** Rate-limit windows are swept of expired entries on one call in this many. */
const RATE_LIMIT_PRUNE_EVERY = 100

/** A provider and the account id there: the key of an account. */
type AccountKey = Pick<AdapterAccount, "provider" | "providerAccountId">

/** The adapter `MemoryAdapter()` returns (every method, async). */
export type MemoryAdapter = StoredAdapter

/**
 * A new, empty in-memory store implementing every adapter method. Each call has its own data.
 *
 * @example
 * ```ts
 * import { MemoryAdapter } from "gatehouse-auth/adapters/memory"
 *
 * // Spread it and override what a test needs to observe or break.
 * const memory = MemoryAdapter()
 * const seen: string[] = []
 * const adapter = {
 *   ...memory,
 *   getUser: (id: string) => {
 *     seen.push(id)
 *     return memory.getUser(id)
 *   },
 * }
 * ```
 */
export function MemoryAdapter(): MemoryAdapter {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const verificationTokens = new Map<string, VerificationToken>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const rateLimits = new Map<string, { count: number; resetAt: number }>()
  const sessionVersions = new Map<string, number>()
  // Keyed by sessionToken like the rows; an entry without its row is stale and never read.
  const sessionDetails = new Map<string, AdapterSessionDetails>()
  // Beside the details as SQL keeps it in a table of its own; keyed and made stale like them.
  const sessionAuthentication = new Map<string, AdapterSessionAuthentication>()
  const twoFactors = new Map<string, TwoFactorRow>()
  const recoveryCodes = new Map<string, Set<string>>()
  let rateLimitCalls = 0

  const requireUser = (userId: string, what: string): void => {
    // A database's foreign key would refuse the row; so do we, so that tests catch the bug.
    if (!users.has(userId)) throw new Error(`MemoryAdapter: cannot store ${what} for unknown user ${userId}`)
  }

  const getUser = async (id: string): Promise<AdapterUser | null> => {
    const user = users.get(id)
    return user ? copy(user) : null
  }

  return {
    createUser: async (user) => {
      const id = user.id || globalThis.crypto.randomUUID()
      if (users.has(id)) throw new Error(`MemoryAdapter: a user with id ${id} already exists`)
      checkDate(user.emailVerified, "user.emailVerified", { nullable: true })
      const stored: AdapterUser = { ...copy(user), id, name: user.name ?? null, image: user.image ?? null }
      users.set(id, stored)
      return copy(stored)
    },

    getUser,

    getUserByEmail: async (email) => {
      for (const user of users.values()) if (user.email === email) return copy(user)
      return null
    },

    getUserByAccount: async (key) => {
      const account = accounts.get(accountKey(key))
      return account ? getUser(account.userId) : null
    },

    updateUser: async ({ id, ...patch }) => {
      const stored = users.get(id)
      if (!stored) throw new Error(`MemoryAdapter: no user with id ${id}`)
      const changes = definedFields(patch)
      if ("emailVerified" in changes) checkDate(changes.emailVerified, "user.emailVerified", { nullable: true })
      const updated: AdapterUser = { ...stored, ...copy(changes), id }
      users.set(id, updated)
      return copy(updated)
    },

    deleteUser: async (userId) => {
      const user = users.get(userId)
      if (!user) return null
      users.delete(userId)
      // The cascade a database's ON DELETE CASCADE gives.
      for (const table of [sessions, accounts, authenticators]) {
        for (const [key, row] of table) if (row.userId === userId) table.delete(key)
      }
      twoFactors.delete(userId)
      recoveryCodes.delete(userId)
      return copy(user)
    },

    linkAccount: async (account) => {
      const key = accountKey(account)
      if (accounts.has(key)) {
        throw new Error(`MemoryAdapter: account ${account.providerAccountId} of ${account.provider} is already linked`)
      }
      requireUser(account.userId, "an account")
      accounts.set(key, copy(account))
      return copy(account)
    },

    unlinkAccount: async (key) => {
      const account = accounts.get(accountKey(key))
      if (!account) return undefined
      accounts.delete(accountKey(key))
      return copy(account)
    },

    getAccount: async (providerAccountId, provider) => {
      const account = accounts.get(accountKey({ provider, providerAccountId }))
      return account ? copy(account) : null
    },

    listAccountsByUserId: async (userId) =>
      [...accounts.values()].filter((account) => account.userId === userId).map(copy),

    updateAccount: async ({ provider, providerAccountId, ...patch }) => {
      const key = accountKey({ provider, providerAccountId })
      const stored = accounts.get(key)
      if (!stored) return null
      // The owner and the kind of an account never change, whatever the caller passes.
      const { userId: _userId, type: _type, ...changes } = definedFields(patch)
      const updated: AdapterAccount = { ...stored, ...copy(changes), userId: stored.userId, type: stored.type, provider, providerAccountId }
      accounts.set(key, updated)
      return copy(updated)
    },

    createSession: async (session) => {
      if (sessions.has(session.sessionToken)) throw new Error("MemoryAdapter: that sessionToken is already in use")
      requireUser(session.userId, "a session")
      checkDate(session.expires, "session.expires")
      // A row id, as the SQL tables give each session: the public name of a session.
      const stored: AdapterSession = { id: globalThis.crypto.randomUUID(), ...copy(session) }
      sessions.set(session.sessionToken, stored)
      sessionDetails.delete(session.sessionToken)
      sessionAuthentication.delete(session.sessionToken)
      return copy(stored)
    },

    createSessionDetails: async (sessionToken, details) => {
      if (!sessions.has(sessionToken)) throw new Error("MemoryAdapter: no session to store details for")
      checkDate(details.createdAt, "details.createdAt")
      const authentication = checkAuthentication(details, NAME)
      sessionDetails.set(sessionToken, copy(details))
      if (recordsAuthentication(details)) sessionAuthentication.set(sessionToken, authentication)
      else sessionAuthentication.delete(sessionToken)
    },

    updateSessionAuthentication: async (sessionToken, authentication) => {
      const checked = checkAuthentication(authentication, NAME)
      if (!sessions.has(sessionToken)) return false
      sessionAuthentication.set(sessionToken, checked)
      return true
    },

    listSessionsByUserId: async (userId) =>
      [...sessions.values()]
        .filter((row) => row.userId === userId)
        .map((row) => ({ ...copy(row), id: row.id!, details: detailsOf(row.sessionToken) })),

    deleteSessionsByIdpSid: async (provider, sid) => {
      const users: string[] = []
      for (const [key, details] of sessionDetails) {
        if (details.idpProvider !== provider || details.idpSid !== sid) continue
        sessionDetails.delete(key)
        sessionAuthentication.delete(key)
        const row = sessions.get(key)
        if (row && sessions.delete(key)) users.push(row.userId)
      }
      return users
    },

    getSessionAndUser: async (sessionToken) => {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      if (!session || !user) return null
      return { session: { ...copy(session), authentication: copyOrNull(sessionAuthentication.get(sessionToken)) }, user: copy(user) }
    },

    updateSession: async ({ sessionToken, ...patch }) => {
      const stored = sessions.get(sessionToken)
      if (!stored) return null
      const changes = definedFields(patch)
      if (changes.userId !== undefined) requireUser(changes.userId, "a session")
      if (changes.expires !== undefined) checkDate(changes.expires, "session.expires")
      const updated: AdapterSession = { ...stored, ...copy(changes), sessionToken }
      sessions.set(sessionToken, updated)
      return copy(updated)
    },

    deleteSession: async (sessionToken) => {
      const session = sessions.get(sessionToken)
      if (!session) return null
      sessions.delete(sessionToken)
      sessionDetails.delete(sessionToken)
      sessionAuthentication.delete(sessionToken)
      return copy(session)
    },

    deleteSessionsByUserId: async (userId) => {
      for (const [key, row] of sessions) if (row.userId === userId) sessions.delete(key)
    },

    getSessionVersion: async (userId) => sessionVersions.get(userId) ?? 0,

    incrementSessionVersion: async (userId) => {
      const version = (sessionVersions.get(userId) ?? 0) + 1
      sessionVersions.set(userId, version)
      return version
    },

    createVerificationToken: async (verificationToken) => {
      const key = tokenKey(verificationToken)
      if (verificationTokens.has(key)) throw new Error("MemoryAdapter: that verification token already exists")
      checkDate(verificationToken.expires, "verificationToken.expires")
      verificationTokens.set(key, copy(verificationToken))
      return copy(verificationToken)
    },

    hitRateLimit: async (key, windowSeconds) => {
      const windowMs = windowMilliseconds(windowSeconds)
      const now = Date.now()
      // No await anywhere here: concurrent calls run one after another and each gets its own count.
      // Expired windows are dropped now and then, so keys seen once do not pile up forever.
      if (++rateLimitCalls % RATE_LIMIT_PRUNE_EVERY === 0) {
        for (const [stale, window] of rateLimits) if (window.resetAt <= now) rateLimits.delete(stale)
      }
      const window = rateLimits.get(key)
      if (!window || window.resetAt <= now) {
        rateLimits.set(key, { count: 1, resetAt: now + windowMs })
        return 1
      }
      window.count += 1
      return window.count
    },

    useVerificationToken: async (params) => {
      // Read and delete with no await in between, so concurrent uses cannot both get the token.
      const key = tokenKey(params)
      const stored = verificationTokens.get(key)
      if (!stored) return null
      verificationTokens.delete(key)
      return copy(stored)
    },

    deleteVerificationTokens: async (identifier) => {
      let deleted = 0
      for (const [key, token] of verificationTokens) {
        if (token.identifier === identifier && verificationTokens.delete(key)) deleted++
      }
      return deleted
    },

    createAuthenticator: async (authenticator) => {
      if (authenticators.has(authenticator.credentialID)) {
        throw new Error(`MemoryAdapter: credential ${authenticator.credentialID} is already registered`)
      }
      requireUser(authenticator.userId, "an authenticator")
      const stored: AdapterAuthenticator = { ...copy(authenticator), transports: authenticator.transports ?? null }
      authenticators.set(stored.credentialID, stored)
      return copy(stored)
    },

    getAuthenticator: async (credentialID) => {
      const authenticator = authenticators.get(credentialID)
      return authenticator ? copy(authenticator) : null
    },

    listAuthenticatorsByUserId: async (userId) =>
      [...authenticators.values()].filter((authenticator) => authenticator.userId === userId).map(copy),

    updateAuthenticatorCounter: async (credentialID, newCounter) => {
      const stored = authenticators.get(credentialID)
      if (!stored) throw new Error(`MemoryAdapter: no authenticator with credentialID ${credentialID}`)
      const updated: AdapterAuthenticator = { ...stored, counter: newCounter }
      authenticators.set(credentialID, updated)
      return copy(updated)
    },

    deleteAuthenticator: async (credentialID) => {
      const stored = authenticators.get(credentialID)
      if (!stored) return null
      authenticators.delete(credentialID)
      return copy(stored)
    },

    getTwoFactor: async (userId) => {
      const row = twoFactors.get(userId)
      return row ? { userId, ...copy(row), recoveryCodesLeft: recoveryCodes.get(userId)?.size ?? 0 } : null
    },

    setTotpPendingSecret: async (userId, sealed) => {
      checkText(sealed, "the sealed secret", NAME)
      requireUser(userId, "a second factor")
      twoFactorRow(userId).totpPendingSecret = sealed
    },

    // No await from the compare to the last write: concurrent calls cannot both enable, and the
    // codes change together with the secret.
    enableTotp: async (userId, { sealed, step, recoveryCodeHashes }) => {
      checkText(sealed, "the sealed secret", NAME)
      checkTotpStep(step, NAME)
      const hashes = checkHashes(recoveryCodeHashes, NAME)
      const row = twoFactors.get(userId)
      if (!row || row.totpPendingSecret !== sealed) return false
      Object.assign(row, { totpSecret: sealed, totpPendingSecret: null, totpLastStep: step, enabledAt: new Date(), trustVersion: row.trustVersion + 1 })
      recoveryCodes.set(userId, new Set(hashes))
      return true
    },

    useTotpStep: async (userId, step) => {
      checkTotpStep(step, NAME)
      const row = twoFactors.get(userId)
      if (!row || row.totpSecret === null || (row.totpLastStep !== null && row.totpLastStep >= step)) return false
      row.totpLastStep = step
      return true
    },

    updateTotpSecret: async (userId, sealed, previousSealed) => {
      checkText(sealed, "the sealed secret", NAME)
      const row = twoFactors.get(userId)
      if (!row || row.totpSecret === null || row.totpSecret !== previousSealed) return false
      row.totpSecret = sealed
      return true
    },

    replaceRecoveryCodes: async (userId, hashes) => {
      const unique = checkHashes(hashes, NAME)
      requireUser(userId, "recovery codes")
      twoFactorRow(userId).trustVersion += 1
      recoveryCodes.set(userId, new Set(unique))
    },

    useRecoveryCode: async (userId, hash) => recoveryCodes.get(userId)?.delete(hash) ?? false,

    incrementTwoFactorTrustVersion: async (userId) => {
      const row = twoFactors.get(userId)
      if (!row) return 0
      return ++row.trustVersion
    },

    deleteTwoFactor: async (userId) => {
      const hadRow = twoFactors.delete(userId)
      const hadCodes = (recoveryCodes.get(userId)?.size ?? 0) > 0
      recoveryCodes.delete(userId)
      return hadRow || hadCodes
    },
  }

  function detailsOf(sessionToken: string): AdapterSessionDetails | null {
    const details = sessionDetails.get(sessionToken)
    if (!details) return null
    const authentication = sessionAuthentication.get(sessionToken)
    return { ...copy(details), aal: authentication?.aal ?? null, amr: copyOrNull(authentication?.amr ?? undefined), secondFactorAt: copyOrNull(authentication?.secondFactorAt ?? undefined) }
  }

  function twoFactorRow(userId: string): TwoFactorRow {
    let row = twoFactors.get(userId)
    if (!row) {
      row = { totpSecret: null, totpPendingSecret: null, totpLastStep: null, enabledAt: null, trustVersion: 0 }
      twoFactors.set(userId, row)
    }
    return row
  }
}

export default MemoryAdapter

// Stored rows never leave the closure, and callers' objects never enter it: a caller mutating
// what it passed in or got back must not change the data, as with a real database.
function copy<T>(value: T): T {
  return structuredClone(value)
}

function copyOrNull<T>(value: T | undefined): T | null {
  return value === undefined ? null : copy(value)
}

// JSON of an array keeps the two parts apart whatever characters they contain.
function accountKey({ provider, providerAccountId }: AccountKey): string {
  return JSON.stringify([provider, providerAccountId])
}

function tokenKey({ identifier, token }: { identifier: string; token: string }): string {
  return JSON.stringify([identifier, token])
}

// A partial update written by JavaScript callers often carries `key: undefined`; that means
// "not given", never "erase".
function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>
}

// A window that is NaN or negative would count forever or never; refuse it rather than throttle wrongly.
function windowMilliseconds(windowSeconds: number): number {
  if (typeof windowSeconds !== "number" || !Number.isFinite(windowSeconds) || windowSeconds <= 0) {
    throw new RangeError(`MemoryAdapter: windowSeconds must be a positive number, got ${String(windowSeconds)}`)
  }
  return Math.ceil(windowSeconds * 1000)
}

// A string or a number where a Date belongs would round-trip unnoticed here but not in SQL.
function checkDate(value: unknown, field: string, { nullable = false } = {}): void {
  if (nullable && value === null) return
  const isDate = Object.prototype.toString.call(value) === "[object Date]"
  if (!isDate || Number.isNaN((value as Date).getTime())) {
    throw new TypeError(`MemoryAdapter: ${field} must be a valid Date${nullable ? " or null" : ""}`)
  }
}
