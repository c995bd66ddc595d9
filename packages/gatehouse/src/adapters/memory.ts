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
  AdapterAuditEntry,
  AdapterInvitation,
  AdapterMember,
  AdapterMemberListing,
  AdapterOrganization,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionAuthentication,
  AdapterSessionContext,
  AdapterSessionDetails,
  AdapterTwoFactor,
  AdapterUser,
  AdapterUserStatus,
  NewAdapterUser,
  OrganizationStore,
  StoredAdapter,
  UserStatusStore,
  VerificationToken,
} from "./index.js"
import { checkLimit, OWNER_ROLE, startsWithIgnoringCase } from "./organization-fields.js"
import { checkSessionContextPatch, EMPTY_SESSION_CONTEXT } from "./session-context-fields.js"
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
export type MemoryAdapter = StoredAdapter & OrganizationStore & UserStatusStore

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
  // The session's context (organizations, impersonation), kept and made stale the same way.
  const sessionContext = new Map<string, AdapterSessionContext>()
  const twoFactors = new Map<string, TwoFactorRow>()
  const recoveryCodes = new Map<string, Set<string>>()
  const organizations = new Map<string, AdapterOrganization>()
  // Keyed by memberKey(organizationId, userId), the pair SQL keeps unique.
  const members = new Map<string, AdapterMember>()
  const invitations = new Map<string, AdapterInvitation>()
  const auditLog: AdapterAuditEntry[] = []
  // The admin API's table: keyed by user id, gone with the user.
  const userStatuses = new Map<string, AdapterUserStatus>()
  let rateLimitCalls = 0

  const slugTaken = (slug: string, except?: string): boolean => {
    for (const organization of organizations.values()) if (organization.slug === slug && organization.id !== except) return true
    return false
  }

  /**
   * Why changing or removing this member would be refused, checked and acted on in one
   * synchronous stretch (nothing can run in between in JavaScript): the memory form of SQL's transaction.
   */
  const refusal = (organizationId: string, userId: string, newRole: string | null): "not-found" | "last-owner" | null => {
    const member = members.get(memberKey(organizationId, userId))
    if (!member) return "not-found"
    if (member.role !== OWNER_ROLE || newRole === OWNER_ROLE) return null
    for (const other of members.values()) {
      if (other.organizationId === organizationId && other.role === OWNER_ROLE && other.userId !== userId) return null
    }
    return "last-owner"
  }

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
      for (const [key, member] of members) if (member.userId === userId) members.delete(key)
      userStatuses.delete(userId)
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
      sessionContext.delete(session.sessionToken)
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

    setSessionContext: async (sessionToken, patch) => {
      const checked = checkSessionContextPatch(patch, NAME)
      if (!sessions.has(sessionToken)) return false
      sessionContext.set(sessionToken, { ...(sessionContext.get(sessionToken) ?? EMPTY_SESSION_CONTEXT), ...checked })
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
        sessionContext.delete(key)
        const row = sessions.get(key)
        if (row && sessions.delete(key)) users.push(row.userId)
      }
      return users
    },

    getSessionAndUser: async (sessionToken) => {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      if (!session || !user) return null
      return {
        session: { ...copy(session), authentication: copyOrNull(sessionAuthentication.get(sessionToken)), context: copyOrNull(sessionContext.get(sessionToken)) },
        user: copy(user),
      }
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
      sessionContext.delete(sessionToken)
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

    createOrganization: async (organization, ownerId) => {
      requireUser(ownerId, "an organization owner")
      checkText(organization.name, "organization.name", NAME)
      checkText(organization.slug, "organization.slug", NAME)
      const createdAt = organization.createdAt ?? new Date()
      checkDate(createdAt, "organization.createdAt")
      const id = organization.id || globalThis.crypto.randomUUID()
      if (organizations.has(id)) throw new Error(`MemoryAdapter: an organization with id ${id} already exists`)
      if (slugTaken(organization.slug)) return "slug-taken"
      const stored: AdapterOrganization = { id, name: organization.name, slug: organization.slug, createdAt, policy: copy(organization.policy ?? null) }
      organizations.set(id, copy(stored))
      members.set(memberKey(id, ownerId), { organizationId: id, userId: ownerId, role: OWNER_ROLE, createdAt: new Date(createdAt) })
      return stored
    },

    getOrganization: async (key) => {
      if ("id" in key) return copyOrNull(organizations.get(key.id))
      for (const organization of organizations.values()) if (organization.slug === key.slug) return copy(organization)
      return null
    },

    updateOrganization: async (id, patch) => {
      const stored = organizations.get(id)
      if (!stored) return null
      const changes = definedFields(patch)
      if (changes.name !== undefined) checkText(changes.name, "organization.name", NAME)
      if (changes.slug !== undefined) {
        checkText(changes.slug, "organization.slug", NAME)
        if (slugTaken(changes.slug, id)) return "slug-taken"
      }
      const updated = { ...stored, ...copy(changes) }
      organizations.set(id, updated)
      return copy(updated)
    },

    deleteOrganization: async (id) => {
      if (!organizations.delete(id)) return false
      for (const [key, member] of members) if (member.organizationId === id) members.delete(key)
      for (const [key, invitation] of invitations) if (invitation.organizationId === id) invitations.delete(key)
      return true
    },

    listOrganizationsByUserId: async (userId) => {
      const found = [...members.values()].filter((member) => member.userId === userId).sort(byJoined)
      return found.map((member) => ({ organization: copy(organizations.get(member.organizationId)!), role: member.role, joinedAt: new Date(member.createdAt) }))
    },

    addMember: async (member) => {
      requireUser(member.userId, "a membership")
      if (!organizations.has(member.organizationId)) throw new Error(`MemoryAdapter: cannot add a member to unknown organization ${member.organizationId}`)
      checkText(member.role, "member.role", NAME)
      const createdAt = member.createdAt ?? new Date()
      checkDate(createdAt, "member.createdAt")
      const key = memberKey(member.organizationId, member.userId)
      if (members.has(key)) return "already-member"
      const stored: AdapterMember = { organizationId: member.organizationId, userId: member.userId, role: member.role, createdAt: new Date(createdAt) }
      members.set(key, stored)
      return copy(stored)
    },

    getMember: async (organizationId, userId) => copyOrNull(members.get(memberKey(organizationId, userId))),

    getMembership: async (organizationId, userId) => {
      const member = members.get(memberKey(organizationId, userId))
      const organization = member && organizations.get(organizationId)
      return organization ? { organization: copy(organization), role: member.role, joinedAt: new Date(member.createdAt) } : null
    },

    updateMemberRole: async (organizationId, userId, role) => {
      checkText(role, "role", NAME)
      const refused = refusal(organizationId, userId, role)
      if (refused) return refused
      const member = members.get(memberKey(organizationId, userId))!
      member.role = role
      return copy(member)
    },

    removeMember: async (organizationId, userId) => {
      const refused = refusal(organizationId, userId, null)
      if (refused) return refused
      const key = memberKey(organizationId, userId)
      const member = members.get(key)!
      members.delete(key)
      return member
    },

    listMembers: async (organizationId, { after, limit, search }) => {
      checkLimit(NAME, limit)
      if (after) checkDate(after.createdAt, "after.createdAt")
      const page: AdapterMemberListing[] = []
      for (const member of [...members.values()].filter((row) => row.organizationId === organizationId).sort(byJoined)) {
        if (after && compareJoined(member, after) <= 0) continue
        const user = users.get(member.userId)!
        if (search && !startsWithIgnoringCase(user.email, search) && !startsWithIgnoringCase(user.name, search)) continue
        page.push({ ...copy(member), user: { name: user.name ?? null, email: user.email, image: user.image ?? null } })
        if (page.length === limit) break
      }
      return page
    },

    createInvitation: async (invitation) => {
      if (!organizations.has(invitation.organizationId)) throw new Error(`MemoryAdapter: cannot invite to unknown organization ${invitation.organizationId}`)
      for (const field of ["email", "role", "inviterId", "tokenHash"] as const) checkText(invitation[field], `invitation.${field}`, NAME)
      checkDate(invitation.expiresAt, "invitation.expiresAt")
      const createdAt = invitation.createdAt ?? new Date()
      checkDate(createdAt, "invitation.createdAt")
      for (const other of invitations.values()) {
        if (other.tokenHash === invitation.tokenHash) throw new Error("MemoryAdapter: an invitation with this tokenHash already exists")
      }
      const id = invitation.id || globalThis.crypto.randomUUID()
      if (invitations.has(id)) throw new Error(`MemoryAdapter: an invitation with id ${id} already exists`)
      const stored: AdapterInvitation = {
        id,
        organizationId: invitation.organizationId,
        email: invitation.email,
        role: invitation.role,
        inviterId: invitation.inviterId,
        tokenHash: invitation.tokenHash,
        expiresAt: new Date(invitation.expiresAt),
        status: "pending",
        createdAt: new Date(createdAt),
      }
      invitations.set(id, stored)
      return copy(stored)
    },

    getInvitation: async (id) => copyOrNull(invitations.get(id)),

    getInvitationByTokenHash: async (tokenHash) => {
      for (const invitation of invitations.values()) if (invitation.tokenHash === tokenHash) return copy(invitation)
      return null
    },

    setInvitationStatus: async (id, from, to) => {
      const invitation = invitations.get(id)
      if (!invitation || invitation.status !== from) return null
      invitation.status = to
      return copy(invitation)
    },

    listInvitations: async (organizationId) =>
      [...invitations.values()]
        .filter((invitation) => invitation.organizationId === organizationId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .map(copy),

    appendAuditEntry: async (entry) => {
      checkText(entry.action, "entry.action", NAME)
      const createdAt = entry.createdAt ?? new Date()
      checkDate(createdAt, "entry.createdAt")
      const id = entry.id || globalThis.crypto.randomUUID()
      if (auditLog.some((row) => row.id === id)) throw new Error(`MemoryAdapter: an audit entry with id ${id} already exists`)
      const stored: AdapterAuditEntry = {
        id,
        actorId: entry.actorId ?? null,
        action: entry.action,
        organizationId: entry.organizationId ?? null,
        targetType: entry.targetType ?? null,
        targetId: entry.targetId ?? null,
        ip: entry.ip ?? null,
        userAgent: entry.userAgent ?? null,
        createdAt: new Date(createdAt),
        // Through JSON, as a SQL store keeps it: what cannot be JSON fails here, not on reading.
        details: entry.details === undefined || entry.details === null ? null : JSON.parse(JSON.stringify(entry.details)),
      }
      auditLog.push(stored)
      return copy(stored)
    },

    listAuditEntries: async ({ organizationId, actorId, action, before, limit }) => {
      checkLimit(NAME, limit)
      if (before) checkDate(before.createdAt, "before.createdAt")
      return auditLog
        .filter(
          (entry) =>
            (organizationId === undefined || entry.organizationId === organizationId) &&
            (actorId === undefined || entry.actorId === actorId) &&
            (action === undefined || entry.action === action) &&
            (before === undefined || compareAudit(entry, before) < 0),
        )
        .sort((a, b) => compareAudit(b, a))
        .slice(0, limit)
        .map(copy)
    },

    getUserStatus: async (userId) => copyOrNull(userStatuses.get(userId)),

    setUserRole: async (userId, role) => {
      requireUser(userId, "a role")
      if (role !== null) checkText(role, "role", NAME)
      statusRow(userId).role = role
    },

    banUser: async (userId, { banReason, banExpiresAt, bannedBy }) => {
      requireUser(userId, "a ban")
      checkDate(banExpiresAt, "ban.banExpiresAt", { nullable: true })
      Object.assign(statusRow(userId), { bannedAt: new Date(), banReason: banReason ?? null, banExpiresAt: banExpiresAt === null ? null : new Date(banExpiresAt), bannedBy: bannedBy ?? null })
    },

    unbanUser: async (userId) => {
      const row = userStatuses.get(userId)
      if (!row || row.bannedAt === null) return false
      Object.assign(row, { bannedAt: null, banReason: null, banExpiresAt: null, bannedBy: null })
      return true
    },

    searchUsers: async ({ after, limit, search }) => {
      checkLimit(NAME, limit)
      const page: AdapterUser[] = []
      // Binary order of the ids, as SQL's ORDER BY id on a TEXT key gives with the C collation.
      for (const user of [...users.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        if (after !== undefined && user.id <= after) continue
        if (search && !startsWithIgnoringCase(user.email, search) && !startsWithIgnoringCase(user.name, search)) continue
        page.push(copy(user))
        if (page.length === limit) break
      }
      return page
    },
  }

  function detailsOf(sessionToken: string): AdapterSessionDetails | null {
    const details = sessionDetails.get(sessionToken)
    if (!details) return null
    const authentication = sessionAuthentication.get(sessionToken)
    return { ...copy(details), aal: authentication?.aal ?? null, amr: copyOrNull(authentication?.amr ?? undefined), secondFactorAt: copyOrNull(authentication?.secondFactorAt ?? undefined) }
  }

  function statusRow(userId: string): AdapterUserStatus {
    let row = userStatuses.get(userId)
    if (!row) {
      row = { userId, role: null, bannedAt: null, banReason: null, banExpiresAt: null, bannedBy: null }
      userStatuses.set(userId, row)
    }
    return row
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

function memberKey(organizationId: string, userId: string): string {
  return JSON.stringify([organizationId, userId])
}

// The order SQL gives with ORDER BY created_at, "userId" (binary comparison of the ids).
function compareJoined(member: { createdAt: Date; userId: string }, other: { createdAt: Date; userId: string }): number {
  return member.createdAt.getTime() - other.createdAt.getTime() || (member.userId < other.userId ? -1 : member.userId > other.userId ? 1 : 0)
}

function byJoined(a: AdapterMember, b: AdapterMember): number {
  return compareJoined(a, b)
}

// Oldest first; listAuditEntries sorts by the reverse.
function compareAudit(entry: { createdAt: Date; id: string }, other: { createdAt: Date; id: string }): number {
  return entry.createdAt.getTime() - other.createdAt.getTime() || (entry.id < other.id ? -1 : entry.id > other.id ? 1 : 0)
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
