/**
 * The shapes of provider configuration. A provider is plain data: a factory returns one of these
 * objects, and the core reads it without knowing which provider it is.
 * @module
 */
import type { Account, Awaitable, CredentialInput, Profile, TokenSet, User } from "../types.js"

/** The five kinds of provider. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/** What every provider has. */
export interface CommonProviderOptions {
  /** Appears in URLs (`/signin/<id>`, `/callback/<id>`) and in `AUTH_<ID>_*` variables. */
  id: string
  name: string
  type: ProviderType
}

/** What an endpoint's `request` hook is given: the tokens, the provider, and the fetch to use. */
export interface EndpointRequestContext {
  tokens: TokenSet
  provider: OAuthConfig
  /** The provider's `fetch` (or the global one): every request to the provider goes through it. */
  fetch: typeof fetch
}

/** An OAuth 2 endpoint: a URL, or a URL with extra parameters and hooks. */
export type EndpointConfig =
  | string
  | {
      url?: string
      params?: Record<string, unknown>
      /** Replaces the default request (userinfo: GET with the bearer token); returns the profile. */
      request?: (context: EndpointRequestContext) => Awaitable<unknown>
      /** Rewrites a non-standard response before it is processed. */
      conform?: (response: Response) => Awaitable<Response | undefined>
    }

/** Which OAuth protections to apply; `pkce` by default. */
export type OAuthCheck = "pkce" | "state" | "none" | "nonce"

/** An OAuth 2 or OpenID Connect provider. */
export interface OAuthConfig<P extends Profile = Profile> extends CommonProviderOptions {
  type: "oauth" | "oidc"
  clientId?: string
  clientSecret?: string
  /** The issuer; with it, unset endpoints come from discovery. */
  issuer?: string
  wellKnown?: string
  authorization?: EndpointConfig
  token?: EndpointConfig
  userinfo?: EndpointConfig
  checks?: OAuthCheck[]
  client?: { token_endpoint_auth_method?: string; [field: string]: unknown }
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User>
  account?: (tokens: TokenSet) => Partial<Account>
  allowDangerousEmailAccountLinking?: boolean
  redirectProxyUrl?: string
  idToken?: boolean
  style?: { logo?: string; bg?: string; text?: string }
  /** Every request to this provider (discovery, token, userinfo, hooks) goes through it. */
  fetch?: typeof fetch
  /**
   * Adds to the profile what the authorization response carries besides the code (Apple posts
   * the user's name as a `user` parameter on the first sign-in only).
   */
  profileFromCallback?: (profile: P, params: URLSearchParams) => Awaitable<P>
  /**
   * The issuer this ID token must name, when it depends on the token: a multi-tenant Microsoft
   * Entra ID app discovers `https://login.microsoftonline.com/{tenantid}/v2.0` and each token
   * names its own tenant. Given the token's unverified claims and the discovered issuer.
   */
  idTokenIssuer?: (claims: Record<string, unknown>, discoveredIssuer: string) => string
  /**
   * Keeps the access token usable: a session read that finds it expiring within a minute swaps
   * the refresh token for new tokens at the token endpoint (once, however many requests arrive
   * together). Under JWT sessions the tokens travel in the encrypted session token (`access_token`,
   * `refresh_token`, `expires_at`, `provider`); under database sessions the account row is
   * updated. When the provider refuses, the session carries `error: "RefreshAccessTokenError"`.
   * The provider must issue refresh tokens (Google: `access_type: "offline"`, `prompt: "consent"`).
   *
   * @example
   * ```ts
   * Google({ refreshAccessToken: true, authorization: { params: { access_type: "offline", prompt: "consent" } } })
   * ```
   */
  refreshAccessToken?: boolean
}

/** What an email provider hands to `sendVerificationRequest`. */
export interface VerificationRequestParams {
  identifier: string
  url: string
  expires: Date
  provider: EmailConfig
  token: string
  theme: import("../types.js").Theme
  request: Request
}

/** At most `max` events per `windowSeconds`. */
export interface RateLimit {
  max: number
  windowSeconds: number
}

/**
 * Limits on sign-in emails. Counts live in the adapter when it has `hitRateLimit` (shared by every
 * instance), else in this process's memory.
 */
export interface EmailRateLimits {
  /** Emails to one address. Default 5 per 15 minutes. */
  perEmail?: RateLimit | false
  /**
   * Emails requested from one client IP. Default 30 per 15 minutes. Needs `clientIp`, or
   * `trustHost` (then `X-Real-IP`, else the last `X-Forwarded-For` hop: the one your proxy added).
   */
  perIp?: RateLimit | false
  /** The client's IP from the request headers, for proxies that say it elsewhere (`CF-Connecting-IP`). */
  clientIp?: (headers: Headers) => string | null | undefined
}

/** A magic-link (email) provider. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** API key of an HTTP email service; inferred from `AUTH_<ID>_KEY`. */
  apiKey?: string
  from?: string
  /** Seconds a sign-in link stays valid. Default 1 day. */
  maxAge?: number
  secret?: string
  sendVerificationRequest: (params: VerificationRequestParams) => Awaitable<void>
  generateVerificationToken?: () => Awaitable<string>
  /** Turns what the user typed into the address to send to; throw to refuse it. */
  normalizeIdentifier?: (identifier: string) => string
  /**
   * Makes links safe from mail scanners, which open every link in a message and would spend the
   * token: opening the link shows a "Sign in as …" page, and only its button (a same-origin POST)
   * signs in. Default `false`, as in Auth.js.
   */
  confirmSignIn?: boolean
  /** Throttling of sign-in emails; `false` turns it off. */
  rateLimit?: EmailRateLimits | false
  [option: string]: unknown
}

/** A username/password-style provider; `authorize` returns the user or `null`. */
export interface CredentialsConfig extends CommonProviderOptions {
  type: "credentials"
  credentials: Record<string, CredentialInput>
  authorize: (credentials: Partial<Record<string, unknown>>, request: Request) => Awaitable<User | null>
}

/** A passkey provider (experimental). */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  enableConditionalUI?: boolean
  formFields?: Record<string, CredentialInput & { required?: boolean; autocomplete?: string }>
  simpleWebAuthnBrowserVersion?: string | false
  [option: string]: unknown
}

/** Any provider's configuration object. */
export type ProviderConfig = OAuthConfig | EmailConfig | CredentialsConfig | WebAuthnConfig

/** The configuration shape of providers of type `T`. */
export type ProviderOfType<T extends ProviderType> = T extends "oauth" | "oidc" ? OAuthConfig : Extract<ProviderConfig, { type: T }>

/** Values read from `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER` and `_KEY`, handed to provider factories. */
export interface ProviderEnvOptions {
  clientId?: string
  clientSecret?: string
  issuer?: string
  apiKey?: string
}

/** A provider object, or a factory Gatehouse calls with what the environment supplies. */
export type Provider = ProviderConfig | ((options: ProviderEnvOptions) => ProviderConfig)
