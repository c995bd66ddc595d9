/**
 * The adapter contract: how Gatehouse reads and writes users, accounts, sessions, verification
 * tokens and authenticators in any store. Every method is optional; a method the configuration
 * needs but the adapter lacks is reported by name.
 *
 * @example
 * ```ts
 * import type { Adapter } from "gatehouse-auth/adapters"
 *
 * const adapter: Adapter = {
 *   async getUser(id) {
 *     return db.users.find(id) ?? null
 *   },
 * }
 * ```
 * @module gatehouse-auth/adapters
 */
import type { Account, Awaitable, User } from "../resources.js"

/** A user as stored: `id`, `email` and `emailVerified` are always present. */
export interface AdapterUser extends User {
  /** The user's id in the store. */
  id: string
  /** The user's email address. */
  email: string
  /**
   * `null` until the user's address is proven (by an email link, or a provider that vouches for
   * it); then when it last was.
   */
  emailVerified: Date | null
}

/**
 * An account as stored, always owned by a user. SQL stores keep the standard token fields
 * (`access_token`, `refresh_token`, `id_token`, `scope`, `expires_at`, `token_type`,
 * `session_state`) and may drop others, as Auth.js's SQL adapters do.
 */
export interface AdapterAccount extends Account {
  /** The id of the user the account belongs to. */
  userId: string
  /** Never `credentials`: credentials sign-ins store no account. */
  type: Exclude<Account["type"], "credentials">
}

/** The kinds of account an adapter stores: every provider type but `credentials`. */
export type AdapterAccountType = AdapterAccount["type"]

/**
 * Whether `value` is a date as JSON carries one (`Date#toJSON`'s ISO 8601 form, or with a UTC
 * offset), for adapters that store rows as JSON and turn such strings back into `Date`s.
 *
 * @example
 * ```ts
 * const row = JSON.parse(text, (_key, value) => (isDate(value) ? new Date(value) : value))
 * ```
 */
export function isDate(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/

/** A database session row; the cookie holds only `sessionToken`. */
export interface AdapterSession {
  /**
   * The row's own id, where the store keeps one (the SQL tables do; Auth.js's adapter tests
   * expect it back). Not a secret, unlike the token, and never needed by the core.
   */
  id?: string
  /** The row's key: the cookie's token, or its `sha256:` hash under `session.hashTokens` (the default). */
  sessionToken: string
  /** The id of the session's user. */
  userId: string
  /** When the session ends unless extended. */
  expires: Date
}

/**
 * Gatehouse's addition: what is known about a database session beyond its row, kept apart from the
 * `sessions` table (Auth.js's layout) by the adapters that store it.
 */
export interface AdapterSessionDetails {
  /** When the session was created (its sign-in). */
  createdAt: Date
  /** The browser's `User-Agent` at sign-in (at most 512 characters), `null` when it sent none. */
  userAgent: string | null
  /**
   * The OIDC provider the session came from when its ID token named an identity provider session
   * (`sid`) or its metadata offered RP-initiated logout (`end_session_endpoint`), else `null`.
   */
  idpProvider: string | null
  /** That session id at the identity provider (for back-channel logout), else `null`. */
  idpSid: string | null
  /**
   * The session's authenticator assurance level: `1` (one factor), `2` (two factors), or `null`
   * (not recorded: read as `1`). Left out by callers that do not record it.
   */
  aal?: 1 | 2 | null
  /** How the session was authenticated, as RFC 8176 `amr` values (e.g. `["pwd", "otp"]`), or `null`. */
  amr?: string[] | null
  /** When a second factor was last checked for this session, or `null`. */
  secondFactorAt?: Date | null
}

/**
 * Gatehouse's addition: how a database session was authenticated, as stored beside its row (never
 * in Auth.js's `sessions` table). Every field `null` means "not recorded", which reads as one factor.
 */
export interface AdapterSessionAuthentication {
  /** `1` (one factor), `2` (two factors), or `null` when not recorded. */
  aal: 1 | 2 | null
  /** RFC 8176 `amr` values (tokens without spaces), or `null`. */
  amr: string[] | null
  /** When a second factor was last checked, or `null`. */
  secondFactorAt: Date | null
}

/**
 * A session row as `getSessionAndUser` returns it. Adapters that store how sessions were
 * authenticated (Gatehouse's own) add `authentication`, read in the same query: `null` for a
 * session that has none recorded.
 */
export interface AdapterSessionWithAuthentication extends AdapterSession {
  /** How the session was authenticated; absent or `null` when the store has nothing for it. */
  authentication?: AdapterSessionAuthentication | null
  /** Gatehouse's own context of the session (active organization, impersonation); absent or `null` when none is stored. */
  context?: AdapterSessionContext | null
}

/**
 * Gatehouse's addition: what a database session carries beside its row (Gatehouse's own table,
 * Auth.js's `sessions` unchanged), read in the same query as the row.
 */
export interface AdapterSessionContext {
  /** The organization the session acts in, or `null`. */
  activeOrganizationId: string | null
  /** The admin acting as the session's user (an impersonation session), or `null`. */
  impersonatorId: string | null
  /** The provider the session's user signed in with, or `null` when not recorded. */
  signInProvider: string | null
}

/**
 * Gatehouse's addition: what the admin API keeps about a user (Gatehouse's own table): a role
 * that may make them an admin, and a ban.
 */
export interface AdapterUserStatus {
  /** The user's id. */
  userId: string
  /** A role (`"admin"`), or `null`. */
  role: string | null
  /** When the ban began; `null` when not banned. */
  bannedAt: Date | null
  /** Why (shown to admins only), or `null`. */
  banReason: string | null
  /** When the ban ends by itself; `null` for a ban without end (or no ban). */
  banExpiresAt: Date | null
  /** The admin who banned, or `null`. */
  bannedBy: string | null
}

/** How `searchUsers` pages and filters: users ordered by id, after the cursor. */
export interface SearchUsersOptions {
  /** The id of the last user of the previous page. */
  after?: string
  /** At most this many users (1–100). */
  limit: number
  /** Users whose email or name starts with this (case-insensitive). */
  search?: string
}

/**
 * Gatehouse's addition: a user's second factors as stored (Gatehouse's own tables). TOTP secrets
 * are sealed (encrypted) by the core before they reach the adapter; recovery codes are stored as
 * hashes only, and counted here.
 */
export interface AdapterTwoFactor {
  /** The user's id. */
  userId: string
  /** The enabled TOTP secret, sealed; `null` when TOTP is not enabled. */
  totpSecret: string | null
  /** A TOTP secret being enrolled (not yet confirmed with a code), sealed; `null` when none. */
  totpPendingSecret: string | null
  /** The last TOTP time step accepted (a code is refused for it and every earlier step); `null` before the first. */
  totpLastStep: number | null
  /** When the second factor was enabled (TOTP confirmed); `null` while not enabled. */
  enabledAt: Date | null
  /** Bumped to void every "trusted device"; starts at `0`. */
  trustVersion: number
  /** How many unused recovery codes the user has. */
  recoveryCodesLeft: number
}

/** What `enableTotp` takes: the pending secret being confirmed, the step of the confirming code, and the new recovery codes. */
export interface EnableTotpInput {
  /** The sealed secret the confirming code was checked against: must still be the pending one. */
  sealed: string
  /** The TOTP time step of the confirming code (recorded as the last step used). */
  step: number
  /** Hashes of the new recovery codes; they replace any the user had. */
  recoveryCodeHashes: string[]
}

/** A session row with its id and details, as `listSessionsByUserId` returns it. */
export interface AdapterSessionListing extends AdapterSession {
  /** The row's own id: public (it names the session in the account routes), unlike the token. */
  id: string
  /** What `createSessionDetails` stored, or `null` for a session without (one Auth.js created). */
  details: AdapterSessionDetails | null
}

/** A one-time email sign-in token, stored hashed with the secret. */
export interface VerificationToken {
  /** The user's email address. */
  identifier: string
  /** SHA-256 of the raw token and the secret, as lower-case hex. */
  token: string
  /** When the link stops working. */
  expires: Date
}

/** A WebAuthn credential (passkey) as stored. */
export interface AdapterAuthenticator {
  /** Base64 credential id. */
  credentialID: string
  /** Base64 public key. */
  credentialPublicKey: string
  /** The signature counter last seen. */
  counter: number
  /** `singleDevice` or `multiDevice` (a synced passkey). */
  credentialDeviceType: string
  /** Whether the credential is backed up (synced). */
  credentialBackedUp: boolean
  /** Comma-joined transports, e.g. `usb,nfc`. */
  transports?: string | null
  /** The `providerAccountId` of the passkey's account (the credential id). */
  providerAccountId: string
  /** The id of the passkey's user. */
  userId: string
}

/** A value JSON can carry: what an audit entry's `details` holds. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * Gatehouse's addition: an organization's own rules for its members, `null` when it has none.
 * Each field left out means "no rule".
 */
export interface OrganizationPolicy {
  /** Members must have signed in with a second factor (when two-factor sign-in is on). */
  requireTwoFactor?: boolean
  /** The sign-in methods (provider ids) members may use; all when left out. */
  signInMethods?: string[]
  /** Users whose verified address is at one of these domains may join without an invitation. */
  emailDomains?: string[]
}

/** Gatehouse's addition: an organization as stored (Gatehouse's own tables). */
export interface AdapterOrganization {
  /** The organization's id. */
  id: string
  /** Its display name. */
  name: string
  /** Its unique, URL-safe short name. */
  slug: string
  /** When it was created. */
  createdAt: Date
  /** Its policy, or `null` for none. */
  policy: OrganizationPolicy | null
}

/** What `createOrganization` takes: `id` and `createdAt` may be left out (the store assigns them). */
export interface NewAdapterOrganization {
  /** The id to keep; without one the store assigns a random UUID. */
  id?: string
  /** The display name. */
  name: string
  /** The unique slug. */
  slug: string
  /** When it was created; now when left out. */
  createdAt?: Date
  /** The policy; `null` when left out. */
  policy?: OrganizationPolicy | null
}

/** Gatehouse's addition: a user's membership of an organization, with their role. */
export interface AdapterMember {
  /** The organization's id. */
  organizationId: string
  /** The member's user id. */
  userId: string
  /** The member's role: `owner`, `admin`, `member`, or a role of the app's. */
  role: string
  /** When the user joined. */
  createdAt: Date
}

/** A member with the user's public fields, as `listMembers` returns them (read in the same query). */
export interface AdapterMemberListing extends AdapterMember {
  /** The member's user: what a member list shows. */
  user: Pick<AdapterUser, "email"> & {
    /** The user's name, or `null`. */
    name: string | null
    /** The user's image URL, or `null`. */
    image: string | null
  }
}

/** One organization of a user, with the user's role there, as `listOrganizationsByUserId` returns it. */
export interface AdapterMembership {
  /** The organization. */
  organization: AdapterOrganization
  /** The user's role in it. */
  role: string
  /** When the user joined it. */
  joinedAt: Date
}

/** Where a page of `listMembers` starts: the last member of the previous page (members are ordered by `createdAt`, then `userId` in the store's order of ids). */
export interface MemberCursor {
  /** The `createdAt` of the last member seen. */
  createdAt: Date
  /** The `userId` of the last member seen. */
  userId: string
}

/** What `listMembers` takes. */
export interface ListMembersOptions {
  /** Only members after this one; from the first when left out. */
  after?: MemberCursor
  /** At most this many members (a positive integer). */
  limit: number
  /**
   * Only members whose email or name starts with this text, compared without regard to ASCII
   * case; `%` and `_` are plain characters. Every member when left out or empty.
   */
  search?: string
}

/** Where an invitation stands: only a `pending` one can be accepted, declined or revoked. */
export type InvitationStatus = "pending" | "accepted" | "declined" | "revoked"

/** Gatehouse's addition: an invitation to an organization, as stored. The token itself is never stored, only its hash. */
export interface AdapterInvitation {
  /** The invitation's id (public: it names the invitation in a list). */
  id: string
  /** The organization's id. */
  organizationId: string
  /** The address invited. */
  email: string
  /** The role the invitee gets on accepting. */
  role: string
  /** The user id of who invited (kept when that user is deleted). */
  inviterId: string
  /** The hash of the invitation link's token: the key the link is looked up by. */
  tokenHash: string
  /** When the link stops working. */
  expiresAt: Date
  /** Where it stands. */
  status: InvitationStatus
  /** When it was created. */
  createdAt: Date
}

/** What `createInvitation` takes: `id` and `createdAt` may be left out; the status is always `pending`. */
export type NewAdapterInvitation = Omit<AdapterInvitation, "id" | "status" | "createdAt"> & {
  /** The id to keep; a random UUID when left out. */
  id?: string
  /** When it was created; now when left out. */
  createdAt?: Date
}

/**
 * Gatehouse's addition: one row of the audit log: who did what, to what, from where. Rows are
 * never changed, and stay when their actor, target or organization is deleted.
 */
export interface AdapterAuditEntry {
  /** The entry's id. */
  id: string
  /** The user id of who acted, or `null` (the system). */
  actorId: string | null
  /** What was done, e.g. `organization.member.remove`. */
  action: string
  /** The organization acted in, or `null` (an admin action). */
  organizationId: string | null
  /** The kind of thing acted on, e.g. `user`, `invitation`; `null` when none. */
  targetType: string | null
  /** Its id, or `null`. */
  targetId: string | null
  /** The client's IP address, or `null` when unknown. */
  ip: string | null
  /** The client's `User-Agent`, or `null`. */
  userAgent: string | null
  /** When it happened. */
  createdAt: Date
  /** Anything more, as JSON, or `null`. */
  details: JsonValue | null
}

/** What `appendAuditEntry` takes: `id` and `createdAt` may be left out. */
export type NewAdapterAuditEntry = Omit<AdapterAuditEntry, "id" | "createdAt"> & {
  /** The id to keep; a random UUID when left out. */
  id?: string
  /** When it happened; now when left out. */
  createdAt?: Date
}

/** Where a page of `listAuditEntries` starts: the last entry of the previous page (newest first: by `createdAt`, then `id`, both descending). */
export interface AuditCursor {
  /** The `createdAt` of the last entry seen. */
  createdAt: Date
  /** The `id` of the last entry seen. */
  id: string
}

/** What `listAuditEntries` takes: every filter given must match. */
export interface ListAuditEntriesOptions {
  /** Only entries of this organization. */
  organizationId?: string
  /** Only entries of this actor. */
  actorId?: string
  /** Only entries of this action. */
  action?: string
  /** Only entries older than this one; from the newest when left out. */
  before?: AuditCursor
  /** At most this many entries (a positive integer). */
  limit: number
}

/** Why `updateMemberRole` or `removeMember` changed nothing. */
export type MemberChangeRefusal = "not-found" | "last-owner"

/** The storage contract; every method optional, every return value or promise of it. */
export interface Adapter {
  /**
   * Stores a new user. Gatehouse always passes a fresh random `id`; a store may keep it or assign
   * its own, and returns the user with the id it kept.
   */
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  /** The user with this id, or `null`. */
  getUser?(id: string): Awaitable<AdapterUser | null>
  /** The user with this email address, or `null`. */
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  /** The user owning the account with this `provider` and `providerAccountId`, or `null`. */
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>
  /** Changes the fields present (a key set to `undefined` is not given) and returns the whole user. */
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /**
   * Also removes the user's accounts, sessions and authenticators. Gatehouse calls it only to take
   * back a user it created moments before, when linking their first account failed.
   */
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  /** Stores an account for `account.userId`. */
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  /** Gatehouse calls it only to take back an account it linked moments before, when storing a passkey with it failed. */
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>
  /** Note the order: the account id first, then the provider (unlike the other lookups). */
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  /**
   * Gatehouse's addition: the user's accounts, `[]` for an unknown user, in no particular order.
   * Needed only to refresh access tokens under database sessions.
   */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /**
   * Gatehouse's addition: changes the fields present (a key set to `undefined` is not given) of
   * the account with this `provider` and `providerAccountId`, and returns the whole account, or
   * `null` when there is none. Needed only to refresh access tokens under database sessions.
   */
  updateAccount?(
    account: Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterAccount | null>
  /** Stores a new database session row. */
  createSession?(session: { sessionToken: string; userId: string; expires: Date }): Awaitable<AdapterSession>
  /**
   * The session and its user, in one query where the store can join. May return an expired row
   * (the core deletes it); `expires` must come back as a `Date`.
   */
  getSessionAndUser?(sessionToken: string): Awaitable<{
    /** The session row, with how it was authenticated where the store keeps that. */
    session: AdapterSessionWithAuthentication
    /** Its user. */
    user: AdapterUser
  } | null>
  /** Changes the row's fields present (Gatehouse: `expires`), and returns it; `null` when there is none. */
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>
  /** Preferably returns the deleted row, which the `signOut` event receives. */
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  /**
   * Gatehouse's addition: deletes every session row of the user (none for an unknown user). Needed
   * by `signOutEverywhere` under database sessions.
   */
  deleteSessionsByUserId?(userId: string): Awaitable<void>
  /**
   * Gatehouse's addition: stores the details of the session row stored under `sessionToken` (just
   * created). Needed to list a user's sessions with when and where they started, and for
   * back-channel logout under database sessions.
   */
  createSessionDetails?(sessionToken: string, details: AdapterSessionDetails): Awaitable<void>
  /**
   * Gatehouse's addition: every session row of the user (expired ones too; the core skips them),
   * each with its `id` and details, in no particular order; `[]` for an unknown user.
   */
  listSessionsByUserId?(userId: string): Awaitable<AdapterSessionListing[]>
  /**
   * Gatehouse's addition: deletes every session row whose details name this identity provider
   * session (back-channel logout under database sessions), and returns the user id of each row
   * deleted, so a cache of sessions can drop those users' copies.
   */
  deleteSessionsByIdpSid?(provider: string, sid: string): Awaitable<string[]>
  /**
   * Gatehouse's addition: the user's session version, `0` for a user whose sessions were never
   * revoked (or who is not stored at all: a credentials user of a JWT app still has a version).
   * A JWT session remembers the version it was issued under and ends when it differs.
   */
  getSessionVersion?(userId: string): Awaitable<number>
  /**
   * Gatehouse's addition: adds one to the user's session version and returns the new one,
   * atomically (concurrent calls each get a different number). Any string is a valid user id.
   */
  incrementSessionVersion?(userId: string): Awaitable<number>
  /** Stores a sign-in link's (hashed) token. */
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /**
   * Gatehouse's addition: deletes every verification token of `identifier` and returns how many
   * there were. Spends an address's outstanding sign-in link once too many wrong tokens were tried.
   */
  deleteVerificationTokens?(identifier: string): Awaitable<number>
  /**
   * Gatehouse's addition: counts one event under `key` and returns how many the current window
   * holds, this one included. A window starts at the first event after the previous one ended
   * and lasts `windowSeconds`. Atomic: of concurrent calls, each gets a different count. Lets
   * every instance share the throttling of sign-in emails; keys are opaque (hashed) strings.
   */
  hitRateLimit?(key: string, windowSeconds: number): Awaitable<number>
  /**
   * Gatehouse's addition: the ids of the schema migrations this adapter needs that its database
   * lacks (empty when up to date). Gatehouse calls it once per adapter, at the first request,
   * without waiting for it, and logs the warning `schema-outdated` when any is missing; a schema
   * that does not match is never a reason to refuse a request. A failure is ignored.
   */
  missingMigrations?(): Awaitable<readonly string[]>
  /**
   * Returns the token and deletes it, atomically: of two concurrent calls for one token, only one
   * may get it (SQL: `DELETE … RETURNING`). An expired token is still returned; the core checks.
   */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /** Stores a new passkey. */
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  /** The passkey with this credential id, or `null`. */
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  /** `[]` for an unknown user; in no particular order. */
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  /** Throws for an unknown credential. */
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
  /**
   * Gatehouse's addition: deletes the authenticator and returns it (`null` when there was none).
   * Removes the passkeys someone added to an account before its address was proven.
   */
  deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  /**
   * Gatehouse's addition: changes how the database session stored under `sessionToken` was
   * authenticated (a step-up to a second factor), and returns whether there was such a session.
   * Needed by two-factor sign-in under database sessions.
   */
  updateSessionAuthentication?(sessionToken: string, authentication: AdapterSessionAuthentication): Awaitable<boolean>
  /**
   * Gatehouse's addition: changes the context stored beside the database session `sessionToken`
   * (only the fields `patch` names), and returns whether there was such a session. Needed by
   * organizations and impersonation under database sessions.
   */
  setSessionContext?(sessionToken: string, patch: Partial<AdapterSessionContext>): Awaitable<boolean>
  /**
   * Gatehouse's addition: what the admin API keeps about `userId` (role, ban), or `null` when
   * nothing was ever stored (also for an unknown user): one lookup by primary key, made at every
   * sign-in while `admin` is configured. An expired ban is still returned (the caller checks).
   * Needed by the admin API, like every method below up to `searchUsers`.
   */
  getUserStatus?(userId: string): Awaitable<AdapterUserStatus | null>
  /** Gatehouse's addition: sets (or, with `null`, clears) the user's role, keeping any ban. Rejects an unknown user. */
  setUserRole?(userId: string, role: string | null): Awaitable<void>
  /** Gatehouse's addition: bans the user from now (replacing an earlier ban), keeping the role. Rejects an unknown user. */
  banUser?(userId: string, ban: Pick<AdapterUserStatus, "banReason" | "banExpiresAt" | "bannedBy">): Awaitable<void>
  /** Gatehouse's addition: lifts the user's ban (every ban field back to `null`), and returns whether there was one. */
  unbanUser?(userId: string): Awaitable<boolean>
  /**
   * Gatehouse's addition: one page of users in one query, ordered by id (text order, or integer
   * order where user ids are integers) and continued by keyset (`after`), never by offset;
   * with `search`, only users whose email or name starts with it, ASCII case ignored, `%` and `_`
   * plain characters.
   */
  searchUsers?(options: SearchUsersOptions): Awaitable<AdapterUser[]>
  /**
   * Gatehouse's addition: the user's second factors, or `null` when none was ever stored (also for
   * an unknown user). Needed by two-factor sign-in, like every method below.
   */
  getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
  /**
   * Gatehouse's addition: stores `sealed` as the user's pending TOTP secret (enrolment started),
   * creating the user's two-factor row if needed. An enabled secret stays in use until
   * `enableTotp` replaces it. Rejects an unknown user.
   */
  setTotpPendingSecret?(userId: string, sealed: string): Awaitable<void>
  /**
   * Gatehouse's addition: enables TOTP, atomically (one transaction): only while the pending
   * secret is still `input.sealed`, it becomes the secret, the pending one is cleared, `enabledAt`
   * is set to now, the last step to `input.step`, the trust version goes up by one and the
   * recovery codes are replaced by `input.recoveryCodeHashes`. Returns `false`, changing nothing,
   * when the pending secret differs (another enrolment started meanwhile) or there is none.
   */
  enableTotp?(userId: string, input: EnableTotpInput): Awaitable<boolean>
  /**
   * Gatehouse's addition: records `step` as the last TOTP time step used, atomically (a
   * compare-and-set): `true` only when TOTP is enabled and `step` is later than the last step
   * recorded, so of concurrent calls with one step exactly one gets `true`, and a used step, or
   * one before it, is refused (replay). `false` for a user without TOTP.
   */
  useTotpStep?(userId: string, step: number): Awaitable<boolean>
  /**
   * Gatehouse's addition: replaces the enabled TOTP secret by `sealed` (re-sealed under a newer
   * auth secret) only while it is still `previousSealed` (a compare-and-set), and returns whether it did.
   */
  updateTotpSecret?(userId: string, sealed: string, previousSealed: string): Awaitable<boolean>
  /**
   * Gatehouse's addition: replaces the user's recovery codes by these hashes and bumps the trust
   * version, in one transaction (the old set is void at once). Creates the user's two-factor row
   * if needed; rejects an unknown user.
   */
  replaceRecoveryCodes?(userId: string, hashes: string[]): Awaitable<void>
  /**
   * Gatehouse's addition: deletes the user's recovery code with this hash and returns whether
   * there was one, atomically (SQL: `DELETE … RETURNING`): of concurrent uses of one code, one
   * gets `true`.
   */
  useRecoveryCode?(userId: string, hash: string): Awaitable<boolean>
  /**
   * Gatehouse's addition: adds one to the user's trust version (voiding every trusted device) and
   * returns the new one; `0` when the user has no two-factor row (nothing can be trusted).
   */
  incrementTwoFactorTrustVersion?(userId: string): Awaitable<number>
  /**
   * Gatehouse's addition: deletes the user's two-factor row and recovery codes, and returns
   * whether there was anything to delete. `deleteUser` does the same.
   */
  deleteTwoFactor?(userId: string): Awaitable<boolean>
  /**
   * Gatehouse's addition: stores a new organization with `ownerId` as its first member, role
   * `owner`, in one transaction (an organization never exists without an owner). Returns
   * `"slug-taken"`, storing nothing, when another organization has the slug. Rejects an unknown
   * owner. Needed by organizations, like every method below up to `appendAuditEntry`.
   */
  createOrganization?(organization: NewAdapterOrganization, ownerId: string): Awaitable<AdapterOrganization | "slug-taken">
  /**
   * Gatehouse's addition: the organization with this id, or with this slug, or `null`. Either key
   * is one indexed lookup; the two are separate so a slug can never be read as another's id.
   */
  getOrganization?(key: { id: string } | { slug: string }): Awaitable<AdapterOrganization | null>
  /**
   * Gatehouse's addition: changes the fields present (a key set to `undefined` is not given) and
   * returns the whole organization; `null` for an unknown id, `"slug-taken"` (changing nothing)
   * when another organization has the new slug.
   */
  updateOrganization?(
    id: string,
    patch: Partial<Pick<AdapterOrganization, "name" | "slug" | "policy">>,
  ): Awaitable<AdapterOrganization | "slug-taken" | null>
  /** Gatehouse's addition: deletes the organization with its members and invitations, and returns whether there was one. Audit entries stay. */
  deleteOrganization?(id: string): Awaitable<boolean>
  /**
   * Gatehouse's addition: every organization the user is a member of, with the user's role there,
   * in one query (a join), oldest membership first; `[]` for an unknown user.
   */
  listOrganizationsByUserId?(userId: string): Awaitable<AdapterMembership[]>
  /**
   * Gatehouse's addition: makes the user a member (`createdAt` now when left out). Returns
   * `"already-member"`, changing nothing, when they are one. Rejects an unknown user or organization.
   */
  addMember?(member: Omit<AdapterMember, "createdAt"> & { createdAt?: Date }): Awaitable<AdapterMember | "already-member">
  /** Gatehouse's addition: the user's membership of the organization, or `null`: the one indexed lookup a permission check makes. */
  getMember?(organizationId: string, userId: string): Awaitable<AdapterMember | null>
  /**
   * Gatehouse's addition (organizations part): the user's membership of the organization with the
   * organization itself, or `null`, in one query (the member joined with its organization by
   * primary key): what a session read and every permission check make.
   */
  getMembership?(organizationId: string, userId: string): Awaitable<AdapterMembership | null>
  /**
   * Gatehouse's addition: changes a member's role and returns the member, or why it did not:
   * `"not-found"`, or `"last-owner"` when this would leave the organization without an `owner`.
   * Atomic: of two concurrent demotions of an organization's last two owners, one is refused.
   */
  updateMemberRole?(organizationId: string, userId: string, role: string): Awaitable<AdapterMember | MemberChangeRefusal>
  /**
   * Gatehouse's addition: removes a member and returns the row removed, or why it did not:
   * `"not-found"`, or `"last-owner"` when the member is the organization's only `owner`. Atomic
   * like `updateMemberRole`. (`deleteUser` and `deleteOrganization` remove members without this check.)
   */
  removeMember?(organizationId: string, userId: string): Awaitable<AdapterMember | MemberChangeRefusal>
  /**
   * Gatehouse's addition: a page of the organization's members with their users' name, email and
   * image, in one query (a join), ordered by `createdAt` then `userId` (text order, or integer order where user ids are integers) and continued by keyset
   * (`after`: the last member of the previous page), never by offset; `[]` for an unknown organization.
   */
  listMembers?(organizationId: string, options: ListMembersOptions): Awaitable<AdapterMemberListing[]>
  /** Gatehouse's addition: stores a `pending` invitation. Rejects a `tokenHash` already in use or an unknown organization. */
  createInvitation?(invitation: NewAdapterInvitation): Awaitable<AdapterInvitation>
  /** Gatehouse's addition: the invitation with this id, or `null`. */
  getInvitation?(id: string): Awaitable<AdapterInvitation | null>
  /** Gatehouse's addition: the invitation whose link token has this hash, or `null`; an expired or used one too (the caller checks). */
  getInvitationByTokenHash?(tokenHash: string): Awaitable<AdapterInvitation | null>
  /**
   * Gatehouse's addition: moves the invitation from `from` to `to`, atomically (a compare-and-set):
   * returns the changed invitation only while its status was `from`, else `null`, so of
   * concurrent acceptances of one link exactly one succeeds.
   */
  setInvitationStatus?(id: string, from: "pending", to: Exclude<InvitationStatus, "pending">): Awaitable<AdapterInvitation | null>
  /** Gatehouse's addition: the organization's invitations, newest first, whatever their status; `[]` for an unknown organization. */
  listInvitations?(organizationId: string): Awaitable<AdapterInvitation[]>
  /** Gatehouse's addition: appends one row to the audit log and returns it. Needed by the audit log, like `listAuditEntries`. */
  appendAuditEntry?(entry: NewAdapterAuditEntry): Awaitable<AdapterAuditEntry>
  /**
   * Gatehouse's addition: a page of audit entries matching every filter given, newest first (by
   * `createdAt`, then `id`, both descending), continued by keyset (`before`: the last entry of the previous page).
   */
  listAuditEntries?(options: ListAuditEntriesOptions): Awaitable<AdapterAuditEntry[]>
}

/** What `createUser` of Gatehouse's own adapters takes: the `id` may be left out (a store assigns one). */
export type NewAdapterUser = Omit<AdapterUser, "id"> & {
  /** The id to keep; without one the store assigns it. */
  id?: string
}

/**
 * What Gatehouse's own adapters (memory, SQLite, PostgreSQL) return: every method present,
 * always asynchronous (a failure is a rejection, never a synchronous throw), with the exact result
 * each gives. Properties rather than methods: they never use `this`, so the object can be spread
 * and single methods overridden.
 *
 * @example
 * ```ts
 * const base = SQLiteAdapter(db)
 * const adapter: StoredAdapter = { ...base, getUser: async (id) => (await base.getUser(id)) ?? null }
 * ```
 */
export interface StoredAdapter extends Adapter {
  /** Keeps a given `id` or assigns one (PostgreSQL always assigns); `name`/`image` default to `null`. */
  createUser: (user: NewAdapterUser) => Promise<AdapterUser>
  getUser: (id: string) => Promise<AdapterUser | null>
  getUserByEmail: (email: string) => Promise<AdapterUser | null>
  getUserByAccount: (account: Pick<AdapterAccount, "provider" | "providerAccountId">) => Promise<AdapterUser | null>
  /** Changes only the fields present and not `undefined`; rejects an unknown id. */
  updateUser: (user: Partial<AdapterUser> & Pick<AdapterUser, "id">) => Promise<AdapterUser>
  /**
   * Also removes the user's sessions, accounts, authenticators and second factors. The session version stays: back
   * at 0, a token revoked before would stand again.
   */
  deleteUser: (userId: string) => Promise<AdapterUser | null>
  /** Rejects a second account with the same provider and `providerAccountId`. */
  linkAccount: (account: AdapterAccount) => Promise<AdapterAccount>
  unlinkAccount: (account: Pick<AdapterAccount, "provider" | "providerAccountId">) => Promise<AdapterAccount | undefined>
  getAccount: (providerAccountId: string, provider: string) => Promise<AdapterAccount | null>
  listAccountsByUserId: (userId: string) => Promise<AdapterAccount[]>
  /** Never changes `userId`, `provider` or `providerAccountId`. */
  updateAccount: (
    account: Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId">,
  ) => Promise<AdapterAccount | null>
  /** Rejects a `sessionToken` already in use. */
  createSession: (session: { sessionToken: string; userId: string; expires: Date }) => Promise<AdapterSession>
  /** The session row and its user, or `null`; an expired row too. */
  getSessionAndUser: (sessionToken: string) => Promise<{
    /** The session row, with `authentication` (`null` when none is recorded). */
    session: AdapterSessionWithAuthentication & {
      /** How the session was authenticated; `null` when nothing is recorded. */
      authentication: AdapterSessionAuthentication | null
    }
    /** Its user. */
    user: AdapterUser
  } | null>
  updateSession: (session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">) => Promise<AdapterSession | null>
  deleteSession: (sessionToken: string) => Promise<AdapterSession | null>
  deleteSessionsByUserId: (userId: string) => Promise<void>
  createSessionDetails: (sessionToken: string, details: AdapterSessionDetails) => Promise<void>
  listSessionsByUserId: (userId: string) => Promise<AdapterSessionListing[]>
  deleteSessionsByIdpSid: (provider: string, sid: string) => Promise<string[]>
  getSessionVersion: (userId: string) => Promise<number>
  incrementSessionVersion: (userId: string) => Promise<number>
  createVerificationToken: (verificationToken: VerificationToken) => Promise<VerificationToken>
  deleteVerificationTokens: (identifier: string) => Promise<number>
  hitRateLimit: (key: string, windowSeconds: number) => Promise<number>
  useVerificationToken: (params: { identifier: string; token: string }) => Promise<VerificationToken | null>
  /** Rejects a `credentialID` already in use. */
  createAuthenticator: (authenticator: AdapterAuthenticator) => Promise<AdapterAuthenticator>
  getAuthenticator: (credentialID: string) => Promise<AdapterAuthenticator | null>
  listAuthenticatorsByUserId: (userId: string) => Promise<AdapterAuthenticator[]>
  updateAuthenticatorCounter: (credentialID: string, newCounter: number) => Promise<AdapterAuthenticator>
  deleteAuthenticator: (credentialID: string) => Promise<AdapterAuthenticator | null>
  updateSessionAuthentication: (sessionToken: string, authentication: AdapterSessionAuthentication) => Promise<boolean>
  // The context beside a database session.
  setSessionContext: (sessionToken: string, patch: Partial<AdapterSessionContext>) => Promise<boolean>
  getTwoFactor: (userId: string) => Promise<AdapterTwoFactor | null>
  setTotpPendingSecret: (userId: string, sealed: string) => Promise<void>
  enableTotp: (userId: string, input: EnableTotpInput) => Promise<boolean>
  useTotpStep: (userId: string, step: number) => Promise<boolean>
  updateTotpSecret: (userId: string, sealed: string, previousSealed: string) => Promise<boolean>
  replaceRecoveryCodes: (userId: string, hashes: string[]) => Promise<void>
  useRecoveryCode: (userId: string, hash: string) => Promise<boolean>
  incrementTwoFactorTrustVersion: (userId: string) => Promise<number>
  deleteTwoFactor: (userId: string) => Promise<boolean>
}

/**
 * The organization and audit-log methods of Gatehouse's own adapters (memory, SQLite, PostgreSQL):
 * each present and asynchronous, with the result {@link Adapter} describes for it.
 *
 * @example
 * ```ts
 * const adapter: StoredAdapter & OrganizationStore = MemoryAdapter()
 * const organization = await adapter.createOrganization({ name: "Acme", slug: "acme" }, ownerId)
 * ```
 */
export interface OrganizationStore {
  /** As {@link Adapter.createOrganization} describes. */
  createOrganization: (organization: NewAdapterOrganization, ownerId: string) => Promise<AdapterOrganization | "slug-taken">
  /** As {@link Adapter.getOrganization} describes. */
  getOrganization: (key: { id: string } | { slug: string }) => Promise<AdapterOrganization | null>
  /** As {@link Adapter.updateOrganization} describes. */
  updateOrganization: (
    id: string,
    patch: Partial<Pick<AdapterOrganization, "name" | "slug" | "policy">>,
  ) => Promise<AdapterOrganization | "slug-taken" | null>
  /** As {@link Adapter.deleteOrganization} describes. */
  deleteOrganization: (id: string) => Promise<boolean>
  /** As {@link Adapter.listOrganizationsByUserId} describes. */
  listOrganizationsByUserId: (userId: string) => Promise<AdapterMembership[]>
  /** As {@link Adapter.addMember} describes. */
  addMember: (member: Omit<AdapterMember, "createdAt"> & { createdAt?: Date }) => Promise<AdapterMember | "already-member">
  /** As {@link Adapter.getMember} describes. */
  getMember: (organizationId: string, userId: string) => Promise<AdapterMember | null>
  /** As {@link Adapter.getMembership} describes. */
  getMembership: (organizationId: string, userId: string) => Promise<AdapterMembership | null>
  /** As {@link Adapter.updateMemberRole} describes. */
  updateMemberRole: (organizationId: string, userId: string, role: string) => Promise<AdapterMember | MemberChangeRefusal>
  /** As {@link Adapter.removeMember} describes. */
  removeMember: (organizationId: string, userId: string) => Promise<AdapterMember | MemberChangeRefusal>
  /** As {@link Adapter.listMembers} describes. */
  listMembers: (organizationId: string, options: ListMembersOptions) => Promise<AdapterMemberListing[]>
  /** As {@link Adapter.createInvitation} describes. */
  createInvitation: (invitation: NewAdapterInvitation) => Promise<AdapterInvitation>
  /** As {@link Adapter.getInvitation} describes. */
  getInvitation: (id: string) => Promise<AdapterInvitation | null>
  /** As {@link Adapter.getInvitationByTokenHash} describes. */
  getInvitationByTokenHash: (tokenHash: string) => Promise<AdapterInvitation | null>
  /** As {@link Adapter.setInvitationStatus} describes. */
  setInvitationStatus: (id: string, from: "pending", to: Exclude<InvitationStatus, "pending">) => Promise<AdapterInvitation | null>
  /** As {@link Adapter.listInvitations} describes. */
  listInvitations: (organizationId: string) => Promise<AdapterInvitation[]>
  /** As {@link Adapter.appendAuditEntry} describes. */
  appendAuditEntry: (entry: NewAdapterAuditEntry) => Promise<AdapterAuditEntry>
  /** As {@link Adapter.listAuditEntries} describes. */
  listAuditEntries: (options: ListAuditEntriesOptions) => Promise<AdapterAuditEntry[]>
}

// The user status and search methods of Gatehouse's own adapters.
/**
 * The admin API's methods of Gatehouse's own adapters (memory, SQLite, PostgreSQL): each present
 * and asynchronous, with the result {@link Adapter} describes for it. `setUserRole` and `banUser`
 * reject an unknown user; `deleteUser` removes the user's status with them.
 *
 * @example
 * ```ts
 * const adapter: StoredAdapter & UserStatusStore = MemoryAdapter()
 * const page = await adapter.searchUsers({ search: "ada", limit: 20 })
 * ```
 */
export interface UserStatusStore {
  /** As {@link Adapter.getUserStatus} describes. */
  getUserStatus: (userId: string) => Promise<AdapterUserStatus | null>
  /** As {@link Adapter.setUserRole} describes. */
  setUserRole: (userId: string, role: string | null) => Promise<void>
  /** As {@link Adapter.banUser} describes. */
  banUser: (userId: string, ban: Pick<AdapterUserStatus, "banReason" | "banExpiresAt" | "bannedBy">) => Promise<void>
  /** As {@link Adapter.unbanUser} describes. */
  unbanUser: (userId: string) => Promise<boolean>
  /** As {@link Adapter.searchUsers} describes. */
  searchUsers: (options: SearchUsersOptions) => Promise<AdapterUser[]>
}
