/**
 * The public types of Gatehouse: the resources (session, user, account, profile, token), the
 * configuration and its option groups, callbacks and events. Types only; nothing here runs.
 *
 * @example
 * ```ts
 * import type { AuthConfig, Session } from "gatehouse-auth/types"
 *
 * const config: AuthConfig = { providers: [], secret: env.AUTH_SECRET }
 * ```
 * @module gatehouse-auth/types
 */
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser } from "./adapters/index.js"
import type { AuthErrorType } from "./errors.js"
import type { JWT, JWTOptions } from "./jwt/index.js"
import type { Provider } from "./providers/types.js"
import type { CookieOverride, CookiesOptions } from "./cookies/defaults.js"
import type { Account, Awaitable, Profile, User } from "./resources.js"
import type { Theme } from "./theme.js"
import type { SharedStore } from "./stores/index.js"
import type { AccessControl } from "./access-types.js"

export type { JWT, JWTOptions, JWTEncodeParams, JWTDecodeParams, GetTokenParams, DefaultJWT } from "./jwt/index.js"
export type {
  Adapter,
  AdapterUser,
  AdapterSession,
  AdapterSessionDetails,
  AdapterSessionListing,
  AdapterAccount,
  AdapterAuthenticator,
  VerificationToken,
} from "./adapters/index.js"
export type { CookieAttributes, CookieOption, CookieOverride, CookiesOptions } from "./cookies/defaults.js"
export type * from "./providers/types.js"
export type { Account, AccountType, Awaitable, DefaultUser, Profile, TokenSet, User } from "./resources.js"
export type { AuthAction, PublicProvider, ResponseInternal } from "./auth-routes.js"
export type { WarningCode } from "./warnings.js"
export type { Theme } from "./theme.js"
export type { SharedStore } from "./stores/index.js"

/**
 * The value a promise resolves to, one level deep, as Auth.js's `Awaited` (TypeScript's own
 * `Awaited` unwraps nested promises too).
 *
 * @example
 * ```ts
 * type Row = Awaited<ReturnType<typeof adapter.getUser>>
 * ```
 */
export type Awaited<T> = T extends PromiseLike<infer U> ? U : T

/**
 * A passkey, as Auth.js names it apart from its owner: {@link AdapterAuthenticator} whose
 * `userId` may not be known yet.
 *
 * @example
 * ```ts
 * const shown: Authenticator[] = (await adapter.listAuthenticatorsByUserId(id)).map(({ userId, ...rest }) => rest)
 * ```
 */
export type Authenticator = Omit<AdapterAuthenticator, "userId"> & {
  /** The id of the user the passkey belongs to, once known. */
  userId?: string
}

/**
 * The `error` query parameter of the error page (`pages.error`): Auth.js's three, and the type of
 * any other error Gatehouse sends there (`InvalidCheck`, `InvalidProvider`, …).
 *
 * @example
 * ```ts
 * const heading: Record<"Configuration" | "AccessDenied" | "Verification", string> = { … }
 * const error = searchParams.get("error") as ErrorPageParam | null
 * ```
 */
export type ErrorPageParam = "Configuration" | "AccessDenied" | "Verification" | AuthErrorType

/**
 * The `error` query parameter of the sign-in page (`pages.signIn`): Auth.js's codes, and
 * Gatehouse's own refusals (`InvalidEmail`, `EmailRateLimited`, `CredentialsRateLimited`,
 * `RateLimited`, `ServerBusy`, `EmailSignInError`).
 *
 * @example
 * ```ts
 * const error = searchParams.get("error") as SignInPageErrorParam | null
 * if (error === "CredentialsSignin") showWrongPassword()
 * ```
 */
export type SignInPageErrorParam =
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallbackError"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "OAuthAccountNotLinked"
  | "EmailSignin"
  | "CredentialsSignin"
  | "SessionRequired"
  | "EmailSignInError"
  | "InvalidEmail"
  | "EmailRateLimited"
  | "CredentialsRateLimited"
  | "RateLimited"
  | "ServerBusy"
  | "TwoFactorExpired"
  | "TwoFactorFailed"
  | "TwoFactorUnavailable"

/**
 * A second factor, as the `twoFactorChallenge` event and the challenge form's `method` name it: an
 * authenticator app's code, a code sent by email, or a recovery code.
 *
 * @example
 * ```ts
 * const label: Record<TwoFactorMethod, string> = { totp: "Authenticator app", email: "Email code", recovery: "Recovery code" }
 * ```
 */
export type TwoFactorMethod = "totp" | "email" | "recovery"

/**
 * How a session was authenticated, as `session.authentication` when `twoFactor` is configured:
 * the assurance level, the RFC 8176 methods used, and when a second factor was last checked. Set
 * by Gatehouse after the `session` callback; neither that callback, the `jwt` callback nor a
 * session update can change it. A session from before `twoFactor` was configured reads as
 * `{ aal: 1, amr: [], secondFactorAt: null }`.
 *
 * @example
 * ```ts
 * const session = await auth()
 * if (session?.authentication?.aal !== 2) redirect("/auth/two-factor")
 * ```
 */
export interface SessionAuthentication {
  /** Authenticator assurance level: 1 for one factor, 2 for two (or a user-verifying passkey). */
  aal: 1 | 2
  /**
   * Authentication method references (RFC 8176): `pwd` (password), `otp` (email link or code, an
   * authenticator or recovery code), `fed` (an OAuth/OIDC provider that named none), `hwk` and
   * `user` (a passkey with user verification), and `mfa` once two factors were used.
   */
  amr: string[]
  /** ISO date string of the last second-factor check (what `freshAge` measures); `null` when none. */
  secondFactorAt: string | null
}

/** The session returned by the session route; extend it through the `session` callback. */
export interface DefaultSession {
  /** The signed-in user: `name`, `email` and `image` unless the `session` callback adds more. */
  user?: User
  /** ISO date string of the session's expiry. */
  expires: string
  /**
   * Set when a provider with `refreshAccessToken` refused to refresh the access token: sign the
   * user in again to get a working one.
   */
  error?: "RefreshAccessTokenError"
  /** How the session was authenticated; present when `twoFactor` is configured. */
  authentication?: SessionAuthentication
  /**
   * The organization the user acts in, read again on every session read (a removed member or a
   * changed role shows on the next request); `null` when none is active. Present when
   * `organizations` is configured. Set with `setActiveOrganization`.
   */
  activeOrganization?: ActiveOrganization | null
  /** Set while an admin acts as this user (show a banner); `null` otherwise. Present when `admin` is configured. */
  impersonatedBy?: Impersonator | null
}

/** A requirement of an organization's policy that a session does not meet. */
export type OrganizationRequirement = "two-factor" | "sign-in-method"

/**
 * The organization a session acts in, as `session.activeOrganization`.
 *
 * @example
 * ```ts
 * const session = await auth()
 * if (session?.activeOrganization?.unmet.includes("two-factor")) redirect("/auth/two-factor")
 * ```
 */
export interface ActiveOrganization {
  /** The organization's id. */
  id: string
  /** Its unique slug. */
  slug: string
  /** Its name. */
  name: string
  /** The user's role in it. */
  role: string
  /** What the role may do (`"project:delete"`); empty while `unmet` is not. */
  permissions: string[]
  /** The organization's policy requirements this session does not meet; it acts with no permissions until it does. */
  unmet: OrganizationRequirement[]
}

/** The admin acting as a session's user, as `session.impersonatedBy`. */
export interface Impersonator {
  /** The admin's user id. */
  id: string
  /** The admin's name, when known. */
  name: string | null
  /** The admin's email address, when known. */
  email: string | null
  /** ISO date string when the impersonation ends (at most an hour after it began). */
  expires: string
}

/** What the audit log records, one action per row (and per `audit` event). */
export type AuditAction =
  | "organization.create"
  | "organization.update"
  | "organization.delete"
  | "member.add"
  | "member.update-role"
  | "member.remove"
  | "member.leave"
  | "invitation.create"
  | "invitation.accept"
  | "invitation.decline"
  | "invitation.revoke"
  | "admin.ban"
  | "admin.unban"
  | "admin.set-role"
  | "admin.set-password"
  | "admin.delete-user"
  | "admin.revoke-sessions"
  | "admin.impersonate"
  | "admin.stop-impersonating"
  // Admin reads (issue 39 review): every admin action writes one row, a look too.
  | "admin.search-users"
  | "admin.view-user"

/** One audit-log entry, as the `audit` event receives it and `listAuditLog` answers it. */
export interface AuditEvent {
  /** The row's id. */
  id: string
  /** Who acted (`null` for the system). */
  actorId: string | null
  /** What was done. */
  action: AuditAction
  /** The organization it concerns, if any. */
  organizationId: string | null
  /** What kind of thing it was done to (`user`, `member`, `invitation`, `organization`, `session`). */
  targetType: string | null
  /** The id of what it was done to. */
  targetId: string | null
  /** The client's address, when known. */
  ip: string | null
  /** The client's user agent, when sent. */
  userAgent: string | null
  /** When. */
  createdAt: Date
  /** What else the action records (a new role, a ban's reason). */
  details: unknown
}

/**
 * Organizations, members, invitations and roles; see `defineAccess`. Default: off, and nothing
 * of it is served or added to the session.
 *
 * @example
 * ```ts
 * const access = defineAccess({ project: ["create", "delete"] }, { roles: { editor: { project: ["create"] } } })
 * const config = { providers, adapter, organizations: { access, routes: true } }
 * ```
 */
export interface OrganizationsOptions {
  /** The app's statements and roles (from `defineAccess`), beside the built-in `owner`, `admin` and `member`. */
  access?: AccessControl
  /** Serve `{basePath}/organizations…` for apps that build their pages in the browser. Default `false`. */
  routes?: boolean
  /** Seconds an invitation stays valid. Default 7 days. */
  invitationMaxAge?: number
  /** Who may create organizations. Default: every signed-in user. */
  allowCreate?: boolean | ((user: AdapterUser) => Awaitable<boolean>)
  /**
   * Roles an app keeps in its database: the permissions of `role` in the organization
   * (`["project:create"]`), or `null` when it knows no such role. Asked for roles `access` does not define.
   */
  loadRole?: (organizationId: string, role: string) => Awaitable<readonly string[] | null>
  // Where invitation links lead when the app serves its own page.
  /**
   * The app's own invitation page (a path on the app's origin, or an absolute URL): invitation
   * links lead there with the token as `?token=`, and the page calls `acceptInvitation` or
   * `declineInvitation` from a POST. Default: the built-in page, `{basePath}/organizations/invitation`
   * (served with `routes: true`).
   */
  invitationPage?: string
}

/**
 * The admin API: who is an admin, its routes, and what impersonation may do. Default: off.
 *
 * @example
 * ```ts
 * const config = { providers, adapter, admin: { userIds: [env.ADMIN_USER_ID] } }
 * ```
 */
export interface AdminOptions {
  /** Users who are admins, by id. */
  userIds?: readonly string[]
  /** User roles (set with `setUserRole`) that make a user an admin. Default `["admin"]`. */
  roles?: readonly string[]
  /** Serve `{basePath}/admin…`. Default `false`. */
  routes?: boolean
  /** Seconds an impersonation lasts, at most 3600 (the default). */
  impersonationMaxAge?: number
  /** Stores a new password for `user` with the app's own hashing; `setUserPassword` needs it. */
  setPassword?: (user: AdapterUser, password: string) => Awaitable<void>
}

/**
 * The session sent to the client, which `auth()`, `useSession`, the `session` callback and every
 * integration read. Augment this interface to add fields, through any module that exports it
 * (`gatehouse-auth/types`, or the integration you import it from, as with Auth.js):
 *
 * @example
 * ```ts
 * declare module "gatehouse-auth/next" {
 *   interface Session {
 *     accessToken?: string
 *     user: { role: "admin" | "member" } & DefaultSession["user"]
 *   }
 * }
 * ```
 */
export interface Session extends DefaultSession {}

/** Paths of custom pages that replace the built-in ones. */
export interface PagesOptions {
  /** Replaces `GET signin`, which then redirects there with `callbackUrl` (and `error`); sign-in errors land there too. */
  signIn: string
  /** Replaces `GET signout`, which then redirects there; your page posts to `signout` itself. */
  signOut: string
  /** Replaces `GET error`, which then redirects there with `?error=<type>`. */
  error: string
  /** Replaces the "check your email" page (`GET verify-request`), its query carried over. */
  verifyRequest: string
  /** Where a newly created user lands after the first sign-in. */
  newUser: string
  /**
   * Replaces the second-factor page (`GET two-factor`): a sign-in waiting for its second factor
   * (or for enrolment) is sent there, and a wrong code comes back there with `?error=`. Your page
   * posts the code to `{basePath}/two-factor` itself.
   */
  twoFactor: string
}

/** How sessions are kept. */
export type SessionStrategy = "jwt" | "database"

/** Session options: strategy, lifetime and write throttle. */
export interface SessionOptions {
  /** `jwt` by default; `database` when an adapter is configured. */
  strategy: SessionStrategy
  /** Seconds from now until an idle session expires. Default 30 days. */
  maxAge: number
  /** Seconds between writes of a database session; `0` writes on every access. Default 1 day. */
  updateAge: number
  /** Makes the token a database session cookie holds. Default: 32 random bytes as hex. */
  generateSessionToken: () => string
  /**
   * Seconds from sign-in after which a session ends however active it is, on top of the idle
   * `maxAge`. Default: none (as in Auth.js). Sessions issued before it was set, or by Auth.js,
   * are not extended any more and end at their current expiry.
   *
   * @example
   * ```ts
   * session: { maxAge: 24 * 60 * 60, absoluteMaxAge: 14 * 24 * 60 * 60 } // idle 1 day, at most 14 days
   * ```
   */
  absoluteMaxAge: number | undefined
  /**
   * Database sessions: store the SHA-256 of each session token instead of the token, so a leaked
   * copy of the database holds no live sessions. Default `true`. Set `false` to read a database
   * Auth.js wrote as is; `hashSessionTokens` (in the SQL adapters) converts one instead.
   */
  hashTokens: boolean
  /**
   * JWT sessions with an adapter that keeps session versions: seconds between checks of a token's
   * session version against the adapter (however often the cookie is written meanwhile), so
   * `signOutEverywhere` reaches a JWT session within this time. `0` checks on every
   * read; `false` never checks. Default 60.
   */
  revocationCheckAge: number | false
  /**
   * Database sessions with a `sharedStore`: seconds a session and its user read from the adapter
   * may be served from the store instead, so a busy app does not ask the database on every request.
   * Sign-out, session updates, user updates and `signOutEverywhere` through Gatehouse take effect at
   * once on every instance; a change made to the tables behind Gatehouse's back shows within this
   * time. Default `0`: no cache.
   *
   * @example
   * ```ts
   * { adapter, sharedStore: redisStore({ client }), session: { strategy: "database", cacheMaxAge: 30 } }
   * ```
   */
  cacheMaxAge: number
}

/**
 * What a logger's {@link LoggerInstance.forRequest} is given about the request its lines are for.
 *
 * @example
 * ```ts
 * import type { LoggerInstance, LogRequest } from "gatehouse-auth"
 *
 * const traced = ({ headers }: LogRequest): Partial<LoggerInstance> => {
 *   const trace = headers.get("traceparent") ?? "-"
 *   return { warn: (code, ...message) => console.warn(trace, code, ...message) }
 * }
 * const logger: Partial<LoggerInstance> = { forRequest: traced }
 * ```
 */
export interface LogRequest {
  /** The request's headers, as the integration passed them (a request id a platform or proxy set, say). */
  readonly headers: Headers
}

/**
 * Levels of the logger; each is called as `(code, ...message)`. The built-in one prints each event
 * on one line; `jsonLogger()` (from `gatehouse-auth`) writes one JSON object per line.
 *
 * @example
 * ```ts
 * import type { LoggerInstance } from "gatehouse-auth"
 *
 * const logger: Partial<LoggerInstance> = { warn: (code, ...message) => metrics.count(code) }
 * ```
 */
export interface LoggerInstance {
  /** Server faults: an error's `type` as the code, the error itself (stack and cause) in `message`. */
  error(code: string, ...message: unknown[]): void
  /**
   * Warnings: a configuration or shared-store warning's code and its sentence, or a failure the
   * client caused (an error whose class is `clientCaused`: a malformed request, a wrong password, a
   * stale link) as its `type` and one line: the message, control characters escaped, no stack.
   */
  warn(code: string, ...message: unknown[]): void
  /** Details for debugging; the built-in logger prints them only with `debug: true`. */
  debug(code: string, ...message: unknown[]): void
  /**
   * Optional: the levels to log one request's lines through, given that request (its headers), so
   * a line can carry the request's id. Called for each request that reaches Gatehouse; a level it
   * leaves out stays this logger's. Lines not tied to a request (configuration warnings) go
   * through this logger itself.
   *
   * @example
   * ```ts
   * const logger: Partial<LoggerInstance> = {
   *   forRequest: ({ headers }) => {
   *     const id = headers.get("x-request-id") ?? "-"
   *     return { error: (code, ...message) => console.error(id, code, ...message) }
   *   },
   * }
   * ```
   */
  forRequest?(request: LogRequest): Partial<LoggerInstance>
}

/** Parameters of the `signIn` callback. */
export interface SignInCallbackParams {
  /** Who is signing in: the stored user, or the user about to be created. */
  user: User | AdapterUser
  /** The account signed in with; `null` when there is none. */
  account: Account | null
  /** The provider's profile (OAuth and OIDC only). */
  profile?: Profile
  /** `verificationRequest: true` on the first call of the email flow, absent when a link is clicked. */
  email?: {
    /** `true` when the link is about to be sent, not yet followed. */
    verificationRequest?: boolean
  }
  /** What the credentials form posted (credentials providers only). */
  credentials?: Record<string, unknown>
}

/**
 * Parameters of the `jwt` callback. `user`, `account` and `profile` are present only at sign-in
 * (`trigger` `signIn` or `signUp`); on a session check only `token` (and, on update, `session`).
 *
 * `user` is typed as always present and `session` as `any`, as Auth.js types them, so a callback
 * written for Auth.js (`if (account) token.role = user.role`,
 * `if (trigger === "update") token.name = session.user.name`) compiles unchanged: test `account`
 * or `trigger` before reading `user`, and validate `session`, which the client sent.
 */
export interface JWTCallbackParams {
  /** The token so far: the default claims at sign-in, the decoded token afterwards. */
  token: JWT
  /** At sign-in: the user. Absent on a session check, although the type (Auth.js's) says otherwise. */
  user: User | AdapterUser
  /** At sign-in: the account, with the provider's token response. */
  account?: Account | null
  /** At sign-in with OAuth or OIDC: the provider's profile. */
  profile?: Profile
  /** `signIn`, `signUp` (a new user's first sign-in), or `update` (the client asked); absent on a plain read. */
  trigger?: "signIn" | "signUp" | "update"
  /** @deprecated Use `trigger === "signUp"`. */
  isNewUser?: boolean
  /**
   * Data sent by the client's `update` call; validate it before use. `any` as in Auth.js, so code
   * written for it compiles: the client chose its shape.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Auth.js's type; client input, see above
  session?: any
}

/**
 * Parameters of the `session` callback: `token` under the `jwt` strategy, `user` under
 * `database`. As in Auth.js, the type holds the fields of both strategies at once, so a callback
 * written for Auth.js (`session.user.id = token.sub`) compiles unchanged; at run time only one of
 * `token` and `user` is there: test the one your strategy does not guarantee.
 */
export interface SessionCallbackParams {
  /**
   * The session so far. Under `jwt`: the default session (the token's `name`, `email` and
   * `picture` as `user`, and `expires`). Under `database`: the row without its `sessionToken`
   * (which never leaves the HttpOnly cookie) and its user; `expires` is then a `Date` at run time
   * (serialized as an ISO string in the response).
   */
  session: Session & Omit<AdapterSession, "sessionToken"> & {
    /** The session's user. */
    user: AdapterUser
  }
  /** Under `jwt`: the decoded token, after the `jwt` callback. Absent under `database`. */
  token: JWT
  /** Under `database`: the session's user, from the adapter. Absent under `jwt`. */
  user: AdapterUser
  /**
   * On `update`: the data the client sent; validate it before use. Typed as Auth.js types it
   * (present, `any`: the client chose its shape); absent unless `trigger` is `update`.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Auth.js's type; client input, see above
  newSession: any
  /** `update` when the client asked for one. */
  trigger?: "update"
}

/** Callbacks that let the application steer sign-in, redirects, the token and the session. */
export interface CallbacksOptions {
  /** `true` continues, `false` or a throw stops, a string redirects there. */
  signIn: (params: SignInCallbackParams) => Awaitable<boolean | string>
  /** Decides where a redirect may go; the default allows only the origin's own URLs. */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** Shapes the JWT on sign-in and on every session check; `null` ends the session. */
  jwt: (params: JWTCallbackParams) => Awaitable<JWT | null>
  /** Shapes what the session route sends to the client. */
  session: (params: SessionCallbackParams) => Awaitable<Session | DefaultSession>
}

/** Audit notifications; they return nothing and cannot change a response. */
export interface EventCallbacks {
  /** After a successful sign-in, with the user and account (and the profile, for OAuth). */
  signIn: (message: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  /** After a sign-out: the deleted session row under `database`, the token under `jwt`. */
  signOut: (message: { session: AdapterSession | null | undefined | void } | { token: JWT | null }) => Awaitable<void>
  /** After the adapter created a user. */
  createUser: (message: { user: User }) => Awaitable<void>
  /** After a user changed: their address proven, or their account claimed. */
  updateUser: (message: { user: User }) => Awaitable<void>
  /** After an account was linked to a user. */
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  /** After the signed-in user unlinked one of their accounts (no tokens in `account`). */
  unlinkAccount: (message: { user: AdapterUser; account: Pick<AdapterAccount, "provider" | "providerAccountId" | "type"> }) => Awaitable<void>
  /**
   * After every session read, with what the session route answers, and the token under `jwt`.
   * `token` is typed as always present, as in Auth.js; under `database` it is absent.
   */
  session: (message: { session: Session; token: JWT }) => Awaitable<void>
  /** After a user enabled a second factor (the enrolment's first code was right). */
  twoFactorEnabled: (message: { user: AdapterUser; method: "totp" }) => Awaitable<void>
  /** After a user's second factor was disabled (their recovery codes and trusted browsers go with it). */
  twoFactorDisabled: (message: { user: AdapterUser }) => Awaitable<void>
  /** After each second-factor check at sign-in or step-up, right or wrong. */
  twoFactorChallenge: (message: { user: AdapterUser; method: TwoFactorMethod; success: boolean }) => Awaitable<void>
  /** An organization or admin action was done and recorded in the audit log. */
  audit: (entry: AuditEvent) => Awaitable<void>
}

/**
 * Who must pass a second factor: `"enrolled"`, users who enabled one; `"always"`, everyone (a user
 * without a factor enrols before any session exists); or a function of the stored user (a throw
 * refuses the sign-in).
 *
 * @example
 * ```ts
 * const require: TwoFactorRequire = (user) => user.email?.endsWith("@acme.example") ?? false
 * ```
 */
export type TwoFactorRequire = "enrolled" | "always" | ((user: AdapterUser) => Awaitable<boolean>)

/**
 * A change to a user's second factor that the user is told about (see `TwoFactorOptions.notify`).
 *
 * @example
 * ```ts
 * notify: async ({ user, change }) => {
 *   if (user.emailVerified) await mailer.send(user.email, `Two-step verification: ${change}`)
 * }
 * ```
 */
export interface TwoFactorNotice {
  /** Whose factor changed. */
  user: AdapterUser
  /** What changed. */
  change: "enabled" | "disabled" | "recovery-codes-regenerated"
}

/**
 * Two-factor sign-in: after any first factor (credentials, OAuth/OIDC, email link or code, passkey)
 * the second is asked for before any session exists. Sessions then carry `authentication`.
 * Needs an adapter with Gatehouse's two-factor methods (the memory, SQLite and PostgreSQL adapters),
 * and users stored in it: a Credentials user that `authorize` returns but the adapter does not
 * store (`getUser` of its id finds nothing) can still sign in at one factor when none is required,
 * but one that must pass a second factor is refused (`TwoFactorUnavailable`). What `authorize`
 * returned beyond the stored user (a `role`) reaches the `jwt` callback and `signIn` event after
 * the second factor as it would without one. The mailbox counts once: after an email link or code
 * the email code is not offered as the second factor.
 *
 * @example
 * ```ts
 * twoFactor: {
 *   totp: { issuer: "Acme" },
 *   email: true,
 *   require: "enrolled",
 *   recoveryCodes: 10,
 *   freshAge: 600,
 *   trustDevice: { maxAge: 30 * 24 * 60 * 60 },
 * }
 * ```
 */
export interface TwoFactorOptions {
  /** Authenticator apps (RFC 6238 TOTP). Default off. */
  totp?:
    | {
        /** The name the app shows for the entry (1 to 100 characters), usually the product's. */
        issuer: string
        /**
         * Draws the `otpauth://` URI as a QR code (SVG markup) for the enrolment page and
         * `enrollTotp`'s `qr`; without it they show the secret as text alone. Passed in rather than
         * imported, so no bundler is asked to resolve a QR library an app may not have. `uqr`'s
         * `renderSVG` fits as it is (`npm install uqr`).
         *
         * @example
         * ```ts
         * import { renderSVG } from "uqr"
         * twoFactor: { totp: { issuer: "Acme", qrCode: renderSVG } }
         * ```
         */
        qrCode?: (uri: string) => string | Promise<string>
      }
    | false
  /**
   * A code sent to the user's verified address as a second factor (through the first email
   * provider). `true` for 6 digits, or `{ digits }` from 6 to 8. Default off.
   */
  email?:
    | boolean
    | {
        /** Digits of a code: 6 (the default), 7 or 8. */
        digits?: 6 | 7 | 8
      }
  /** Who must pass a second factor; see {@link TwoFactorRequire}. Default `"enrolled"`. */
  require?: TwoFactorRequire
  /** Recovery codes made at enrolment, 0 to 20. Default 10. */
  recoveryCodes?: number
  /**
   * Seconds a second-factor check counts as recent: enrolling again, regenerating recovery codes,
   * disabling, and the account routes need one this recent. 60 to 86 400; default 600.
   */
  freshAge?: number
  /** Offer "don't ask again on this browser" for `maxAge` seconds (at most 400 days). Default off. */
  trustDevice?:
    | {
        /** Seconds a browser stays trusted after a second factor (60 s to 400 days). */
        maxAge: number
      }
    | false
  /**
   * Whether a passkey sign-in with user verification counts as both factors (`"two-factor"`, the
   * default) or as one (`"one-factor"`: a second factor is still asked).
   */
  passkey?: "two-factor" | "one-factor"
  /**
   * How users are told their second factor changed. Default: an email through the first email
   * provider, when there is one, to the user's address if they proved it (`emailVerified` set). A
   * function replaces it (it is called for every user: check `user.emailVerified` before mailing
   * `user.email`); `false` turns it off.
   */
  notify?: false | ((notice: TwoFactorNotice) => Awaitable<void>)
}

/**
 * The account pages' routes under the base path (off by default), and what they need to know.
 *
 * @example
 * ```ts
 * account: { routes: true, canUseCredentials: async (user) => Boolean(await db.passwordOf(user.id)) }
 * ```
 */
export interface AccountOptions {
  /**
   * Serve `GET|POST {basePath}/sessions` (the signed-in user's sessions: list, revoke one, revoke
   * the others), `GET|POST {basePath}/accounts` (their linked accounts: list, unlink) and
   * `POST {basePath}/link/<provider>` (link another OAuth/OIDC account). Default `false`.
   */
  routes?: boolean
  /**
   * Whether `user` can still sign in with a credentials provider (a password of yours): counted as a
   * way in when an unlink would otherwise remove the last one. Without it, credentials never count.
   */
  canUseCredentials?: (user: AdapterUser) => Awaitable<boolean>
}

/** The marker types for framework authors; see `raw` and `skipCSRFCheck` in `gatehouse-auth`. */
export type RawMarker = typeof import("./markers.js").raw
/** The type of the `skipCSRFCheck` marker; see `skipCSRFCheck` in `gatehouse-auth`. */
export type SkipCSRFCheckMarker = typeof import("./markers.js").skipCSRFCheck

/**
 * The configuration of `Auth(request, config)`.
 *
 * @example
 * ```ts
 * const config: AuthConfig = {
 *   providers: [Credentials({ authorize: async (input) => findUser(input) })],
 *   secret: env.AUTH_SECRET,
 *   trustHost: true,
 * }
 * ```
 */
export interface AuthConfig {
  /** The ways to sign in, in the order the sign-in page lists them. */
  providers: Provider[]
  /** The database; needed for email links, passkeys and database sessions (with one, `database` is the default strategy). */
  adapter?: Adapter
  /** Where the auth routes are mounted. Default `/auth`. */
  basePath?: string
  /** One secret, or several with the newest first (it encrypts; any of them decrypts). */
  secret?: string | string[]
  /** Session strategy, lifetimes and revocation; see {@link SessionOptions}. */
  session?: Partial<SessionOptions>
  /**
   * A key-value store shared by every instance of the app (e.g. `redisStore` from
   * `gatehouse-auth/stores/redis`), for what must be the same everywhere and is short-lived: sign-in
   * rate limits, spent passkey challenges, the OAuth refresh lock, cached session versions and the
   * optional session cache (`session.cacheMaxAge`). Without one, these use the adapter where it can
   * (`hitRateLimit`, session versions) and this process's memory otherwise. Spent passkey challenges
   * and back-channel logout tokens go to the adapter's `hitRateLimit` even with a store, when it has
   * one: a store that forgets (restarted without persistence, evicting keys) must not make a
   * captured answer or logout token usable again.
   */
  sharedStore?: SharedStore
  /** The session token's lifetime and its encode/decode functions; see {@link JWTOptions}. */
  jwt?: Partial<JWTOptions>
  /** Hooks that steer sign-in, redirects, the token and the session; see {@link CallbacksOptions}. */
  callbacks?: Partial<CallbacksOptions>
  /** Notifications after things happened; see {@link EventCallbacks}. */
  events?: Partial<EventCallbacks>
  /** Per-cookie overrides of names and options; unspecified options keep their defaults. */
  cookies?: Partial<Record<keyof CookiesOptions, CookieOverride>>
  /**
   * Two-factor sign-in (TOTP, recovery codes, email codes) on every way in, and the
   * `{basePath}/two-factor` routes; see {@link TwoFactorOptions}. Default: off, and nothing of it
   * is served or changed.
   */
  twoFactor?: TwoFactorOptions
  /** Your own pages in place of the built-in ones; see {@link PagesOptions}. */
  pages?: Partial<PagesOptions>
  /**
   * Turns on the built-in logger's debug output and prints errors whole, with their stacks (and
   * warns that it is on). Default `false`: one line per event. A logger of your own is not
   * changed by it: `jsonLogger({ debug: true })` is that logger's own switch.
   */
  debug?: boolean
  /**
   * Replaces any of the logger's levels; the others stay the built-in ones (console, one line per
   * event; `debug` only with `debug: true`). `jsonLogger()` from `gatehouse-auth` writes JSON lines.
   */
  logger?: Partial<LoggerInstance>
  /** The look of the built-in pages. */
  theme?: Theme
  /** Must be true: the Host header decides URLs. Inferred from the environment when unset. */
  trustHost?: boolean
  /**
   * The request header your proxy writes the client's address into, for the per-IP sign-in limits:
   * `cf-connecting-ip` behind Cloudflare, `fly-client-ip` on Fly.io, `true-client-ip` behind
   * Akamai, `x-real-ip` behind an nginx that sets it. Its first value is then the client's address,
   * with or without `trustHost`. Name one only when every request reaches the app through that
   * proxy (which overwrites what a client sent): a client that can reach the app directly writes it
   * itself. Unset, the client's address is the last `X-Forwarded-For` hop, the one the nearest proxy
   * appended, and only with `trustHost`; no other header is read. A provider's `rateLimit.clientIp`
   * wins over both. The Express and SvelteKit integrations hand over their own view of the client
   * (`req.ip`, which follows `trust proxy`; `getClientAddress()`) unless this is set.
   */
  trustedIpHeader?: string
  /** `__Secure-`/`__Host-` cookie names and the `Secure` attribute. Default: on exactly for https requests. */
  useSecureCookies?: boolean
  /**
   * The auth URL of one deployment (ending in the base path) whose callback URL is registered at
   * the providers; OAuth callbacks go through it and are forwarded to the deployment that started
   * the sign-in (preview deployments). Default: `AUTH_REDIRECT_PROXY_URL`.
   */
  redirectProxyUrl?: string
  /** The account pages' routes (sessions, linked accounts), off by default; see {@link AccountOptions}. */
  account?: AccountOptions
  /**
   * Serve `POST {basePath}/backchannel-logout/<provider>`, the OpenID Connect Back-Channel Logout
   * receiver: an OIDC provider's signed `logout_token` ends the sessions it names. Register that
   * URL as the client's `backchannel_logout_uri` at the provider. Default `false`.
   */
  backchannelLogout?: boolean
  /** Organizations, members, invitations and roles; see {@link OrganizationsOptions}. Default: off. */
  organizations?: OrganizationsOptions
  /** The admin API (users, bans, impersonation); see {@link AdminOptions}. Default: off. */
  admin?: AdminOptions
  /** Features whose API may still change. */
  experimental?: {
    /** Allows the `passkey` and `webauthn` providers. */
    enableWebAuthn?: boolean
  }
  /** For framework authors: return the internal response instead of a `Response`. */
  raw?: RawMarker
  /** For framework authors that protect forms themselves: skip the CSRF check. */
  skipCSRFCheck?: SkipCSRFCheckMarker
}
