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
import type { Adapter, AdapterSession, AdapterUser } from "./adapters/index.js"
import type { JWT, JWTOptions } from "./jwt/index.js"
import type { Provider } from "./providers/types.js"
import type { CookieOverride, CookiesOptions } from "./cookies/defaults.js"

export type { JWT, JWTOptions, JWTEncodeParams, JWTDecodeParams, GetTokenParams, DefaultJWT } from "./jwt/index.js"
export type { Adapter, AdapterUser, AdapterSession, AdapterAccount, AdapterAuthenticator, VerificationToken } from "./adapters/index.js"
export type { CookieAttributes, CookieOption, CookieOverride, CookiesOptions } from "./cookies/defaults.js"
export type * from "./providers/types.js"

/** A value, or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

/** A signed-in user, as the session and callbacks see it. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** The session returned by the session route; extend it through the `session` callback. */
export interface DefaultSession {
  user?: User
  /** ISO date string of the session's expiry. */
  expires: string
  /**
   * Set when a provider with `refreshAccessToken` refused to refresh the access token: sign the
   * user in again to get a working one.
   */
  error?: "RefreshAccessTokenError"
}

/** The session sent to the client. Augment this interface to add fields. */
export interface Session extends DefaultSession {}

/** The identity an OAuth or OIDC provider returns. Every field is optional. */
export interface Profile {
  [claim: string]: unknown
  id?: string | null
  sub?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: unknown
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: Date | string | number | null
  address?: {
    country?: string | null
    formatted?: string | null
    locality?: string | null
    postal_code?: string | null
    region?: string | null
    street_address?: string | null
  } | null
}

/** Token response fields an OAuth provider may return; all read-only to the application. */
export interface TokenSet {
  readonly access_token?: string
  readonly refresh_token?: string
  readonly id_token?: string
  readonly scope?: string
  /** Seconds until the access token expires. */
  readonly expires_in?: number
  /** Absolute expiry in seconds since the epoch, computed from `expires_in`. */
  readonly expires_at?: number
  /** Always lower case: `bearer`, `dpop`, or another scheme. */
  readonly token_type?: Lowercase<string>
  readonly [field: string]: unknown
}

/** The kinds of account a user can hold. */
export type AccountType = "oidc" | "oauth" | "email" | "webauthn"

/** How a user signed in: the provider, the id there, and the provider's token response. */
export interface Account extends TokenSet {
  provider: string
  providerAccountId: string
  type: AccountType | "credentials"
  userId?: string
}

/** Paths of custom pages that replace the built-in ones. */
export interface PagesOptions {
  signIn: string
  signOut: string
  error: string
  verifyRequest: string
  /** Where a newly created user lands after the first sign-in. */
  newUser: string
}

/** Styles the built-in pages. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light"
  logo?: string
  brandColor?: string
  buttonText?: string
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
}

/** Levels of the logger; each is called as `(code, ...message)`. */
export interface LoggerInstance {
  error(code: string, ...message: unknown[]): void
  warn(code: string, ...message: unknown[]): void
  debug(code: string, ...message: unknown[]): void
}

/** What a credentials provider's form fields look like. */
export interface CredentialInput {
  label?: string
  type?: string
  value?: string
  placeholder?: string
  [attribute: string]: unknown
}

/** Parameters of the `signIn` callback. */
export interface SignInCallbackParams {
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  /** `verificationRequest: true` on the first call of the email flow, absent when a link is clicked. */
  email?: { verificationRequest?: boolean }
  credentials?: Record<string, unknown>
}

/**
 * Parameters of the `jwt` callback. `user`, `account` and `profile` are present only at sign-in
 * (`trigger` `signIn` or `signUp`); on a session check only `token` (and, on update, `session`).
 */
export interface JWTCallbackParams {
  token: JWT
  user?: User | AdapterUser
  account?: Account | null
  profile?: Profile
  trigger?: "signIn" | "signUp" | "update"
  /** @deprecated Use `trigger === "signUp"`. */
  isNewUser?: boolean
  /** Data sent by the client's `update` call; validate it before use. */
  session?: unknown
}

/** Parameters of the `session` callback; `token` under `jwt`, `user` under `database`. */
export type SessionCallbackParams =
  | { session: Session; token: JWT; user?: undefined; newSession?: unknown; trigger?: "update" }
  | {
      /**
       * The row without its `sessionToken` (which never leaves the HttpOnly cookie), and its user.
       * As in Auth.js the type lets it be returned as the `Session`; at run time `expires` is a
       * `Date` (serialized as an ISO string in the response).
       */
      session: Session & Omit<AdapterSession, "sessionToken"> & { user: AdapterUser }
      user: AdapterUser
      token?: undefined
      newSession?: unknown
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
  signIn: (message: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  signOut: (message: { session: AdapterSession | null | undefined | void } | { token: JWT | null }) => Awaitable<void>
  createUser: (message: { user: User }) => Awaitable<void>
  updateUser: (message: { user: User }) => Awaitable<void>
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  session: (message: { session: Session; token: JWT } | { session: Session }) => Awaitable<void>
}

/** The marker types for framework authors; see `raw` and `skipCSRFCheck` in `gatehouse-auth`. */
export type RawMarker = typeof import("./markers.js").raw
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
  providers: Provider[]
  adapter?: Adapter
  /** Where the auth routes are mounted. Default `/auth`. */
  basePath?: string
  /** One secret, or several with the newest first (it encrypts; any of them decrypts). */
  secret?: string | string[]
  session?: Partial<SessionOptions>
  jwt?: Partial<JWTOptions>
  callbacks?: Partial<CallbacksOptions>
  events?: Partial<EventCallbacks>
  /** Per-cookie overrides of names and options; unspecified options keep their defaults. */
  cookies?: Partial<Record<keyof CookiesOptions, CookieOverride>>
  pages?: Partial<PagesOptions>
  debug?: boolean
  logger?: Partial<LoggerInstance>
  theme?: Theme
  /** Must be true: the Host header decides URLs. Inferred from the environment when unset. */
  trustHost?: boolean
  useSecureCookies?: boolean
  redirectProxyUrl?: string
  experimental?: { enableWebAuthn?: boolean }
  /** For framework authors: return the internal response instead of a `Response`. */
  raw?: RawMarker
  /** For framework authors that protect forms themselves: skip the CSRF check. */
  skipCSRFCheck?: SkipCSRFCheckMarker
}
