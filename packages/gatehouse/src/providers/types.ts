/**
 * The shapes of provider configuration. A provider is plain data: a factory returns one of these
 * objects, and the core reads it without knowing which provider it is.
 * @module
 */
import type { Adapter, AdapterUser } from "../adapters/index.js"
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
  /**
   * Wrong tokens tried for one address (within a link's lifetime) after which its outstanding
   * links are spent and its owner must ask again; lookups are also limited to this many per
   * minute, so parallel guesses get no more. Default 5 when `generateVerificationToken` is set (a
   * short code can be guessed), off otherwise (the default 256-bit tokens cannot be, and a limit
   * would let anyone spend a stranger's links); `false` turns it off. Spending needs the adapter's
   * `deleteVerificationTokens`; without it every attempt is counted, and past the limit all are
   * refused until the window ends.
   */
  maxAttempts?: number | false
  [option: string]: unknown
}

/**
 * Limits on credentials sign-in attempts, checked before `authorize` runs, so a refused attempt
 * costs no password hash; it is answered `429` with `Retry-After` (`CredentialsRateLimited`).
 * Counts live in the adapter when it has `hitRateLimit` (shared by every instance), else in this
 * process's memory, under secret-keyed hashes (never an identifier or IP in the clear).
 *
 * Every attempt counts, successful ones too: whether an attempt failed is known only after
 * `authorize` has run, and a count taken then would let a burst of concurrent guesses all pass
 * the check before any of them failed. The answer is the same for identifiers that belong to an
 * account and for those that do not.
 *
 * The defaults follow OWASP: ASVS 5.0 6.3.1 asks for controls against credential stuffing and
 * brute force, and ASVS 4's 2.2.1 put the bar at no more than 100 failed attempts per hour on
 * one account; 10 per 15 minutes allows at most 40. The Authentication and Credential Stuffing
 * Prevention cheat sheets warn that an account limit lets anyone lock a user out and that one
 * IP address may be a whole office behind NAT, so the limits are short windows, not lockouts,
 * and the per-IP limit is ten times the per-identifier one. A per-IP limit does not stop a
 * botnet spraying from many addresses; `gatehouse-auth/password`'s concurrency limit keeps that from
 * starving the rest of the server.
 *
 * @example
 * ```ts
 * Credentials({
 *   authorize,
 *   rateLimit: { perIdentifier: { max: 5, windowSeconds: 600 }, clientIp: (headers) => headers.get("cf-connecting-ip") },
 * })
 * ```
 */
export interface CredentialsRateLimits {
  /** Attempts for one identifier (see `identifier`). Default 10 per 15 minutes. */
  perIdentifier?: RateLimit | false
  /**
   * Attempts from one client IP, whatever the identifier. Default 100 per 15 minutes. Needs
   * `clientIp`, or `trustHost` (then `X-Real-IP`, else the last `X-Forwarded-For` hop: the one
   * your proxy added); without either no IP is known and only `perIdentifier` applies.
   */
  perIp?: RateLimit | false
  /**
   * Who an attempt is for, from the posted fields. Default: the posted `email` and `username`,
   * each counted (read as `String()` reads them, trimmed, NFKC-normalized and lower-cased), so
   * junk in one cannot dodge the count of the other. `undefined` or `""`: only the per-IP limit
   * applies to that attempt. A custom result is used as it is.
   */
  identifier?: (credentials: Partial<Record<string, unknown>>) => string | undefined
  /** The client's IP from the request headers, for proxies that say it elsewhere (`CF-Connecting-IP`). */
  clientIp?: (headers: Headers) => string | null | undefined
}

/** A username/password-style provider; `authorize` returns the user or `null`. */
export interface CredentialsConfig extends CommonProviderOptions {
  type: "credentials"
  credentials: Record<string, CredentialInput>
  authorize: (credentials: Partial<Record<string, unknown>>, request: Request) => Awaitable<User | null>
  /**
   * Removes the credentials (a password) this provider checks for `user`, and says whether there
   * were any. Gatehouse calls it when someone proves the email address of a stored user whose
   * address was never proven (by an email link, or an OAuth provider that vouches for it): the
   * account may have been made by someone else before the owner signed up, and a password they
   * chose must not keep working. Throwing stops that sign-in (nothing is marked proven).
   *
   * Without it, with an email provider and an adapter, Gatehouse warns at startup
   * (`credentials-not-revoked`).
   */
  revokeCredentials?: (user: AdapterUser) => Awaitable<boolean | void>
  /** Throttling of sign-in attempts; on by default, `false` turns it off. */
  rateLimit?: CredentialsRateLimits | false
}

/**
 * The site passkeys belong to. Every field defaults to what the request URL says; configure it
 * when the app sits behind a proxy that rewrites the host, or serves several domains.
 */
export interface RelyingParty {
  /**
   * The domain passkeys are scoped to (`example.com` also covers `app.example.com`). With several,
   * new passkeys take the one the request's host falls under, and any of them is accepted.
   */
  id?: string | string[]
  /** Shown by the authenticator when it asks the user. Default: the request's host. */
  name?: string | string[]
  /** Origins a ceremony may come from (`https://app.example.com`). Default: the request's origin. */
  origin?: string | string[]
}

/** Who a passkey ceremony is for, as `getUserInfo` finds them. */
export type WebAuthnUserInfo =
  | { user: User & { id: string }; exists: true }
  | { user: Omit<User, "id"> & { email?: string | null }; exists: false }

/** A credential as the browser serialises it (`PublicKeyCredential.toJSON()`), binary fields in base64url. */
export interface WebAuthnResponseJSON<Response extends object> {
  id: string
  rawId: string
  type: "public-key"
  response: Response
  clientExtensionResults: object
  authenticatorAttachment?: "platform" | "cross-platform"
}

/** How a browser reaches an authenticator. */
export type WebAuthnTransport = "ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb"

/** A new credential, as `navigator.credentials.create()` gives it. */
export type WebAuthnRegistrationJSON = WebAuthnResponseJSON<{ clientDataJSON: string; attestationObject: string; transports?: WebAuthnTransport[] }>

/** A signed challenge, as `navigator.credentials.get()` gives it. */
export type WebAuthnAuthenticationJSON = WebAuthnResponseJSON<{
  clientDataJSON: string
  authenticatorData: string
  signature: string
  userHandle?: string
}>

/** A credential descriptor in ceremony options: a base64url id and how to reach its authenticator. */
export interface WebAuthnCredentialDescriptor {
  id: string
  transports?: string[]
}

/** Options for creating passkeys, passed to `@simplewebauthn/server`'s `generateRegistrationOptions`. */
export interface WebAuthnRegistrationOptions {
  /** Milliseconds the browser waits for the user. Default 5 minutes. */
  timeout?: number
  attestationType?: "direct" | "enterprise" | "none"
  authenticatorSelection?: {
    authenticatorAttachment?: "platform" | "cross-platform"
    residentKey?: "discouraged" | "preferred" | "required"
    requireResidentKey?: boolean
    userVerification?: "discouraged" | "preferred" | "required"
  }
  supportedAlgorithmIDs?: number[]
  preferredAuthenticatorType?: "securityKey" | "localDevice" | "remoteDevice"
  extensions?: Record<string, unknown>
}

/** Options for signing in with passkeys, passed to `generateAuthenticationOptions`. */
export interface WebAuthnAuthenticationOptions {
  /** Milliseconds the browser waits for the user. Default 5 minutes. */
  timeout?: number
  userVerification?: "discouraged" | "preferred" | "required"
  extensions?: Record<string, unknown>
}

/** Options for checking a new passkey, passed to `verifyRegistrationResponse`. */
export interface WebAuthnVerifyRegistrationOptions {
  requireUserVerification?: boolean
  requireUserPresence?: boolean
  supportedAlgorithmIDs?: number[]
}

/** Options for checking a passkey sign-in, passed to `verifyAuthenticationResponse`. */
export interface WebAuthnVerifyAuthenticationOptions {
  requireUserVerification?: boolean
  expectedTopOrigin?: string | string[]
}

/** What a verified registration tells about the new credential (`@simplewebauthn/server` 14). */
export interface VerifiedWebAuthnRegistration {
  verified: boolean
  registrationInfo?: {
    credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] }
    credentialDeviceType: string
    credentialBackedUp: boolean
  }
}

/** What a verified sign-in tells about the credential (`@simplewebauthn/server` 14). */
export interface VerifiedWebAuthnAuthentication {
  verified: boolean
  authenticationInfo: { newCounter: number; credentialDeviceType?: string; credentialBackedUp?: boolean }
}

/**
 * The four `@simplewebauthn/server` functions Gatehouse calls. The provider factories fill them
 * in from the package; replace them to wrap or instrument the ceremonies.
 */
export interface SimpleWebAuthnServer {
  generateRegistrationOptions(
    options: WebAuthnRegistrationOptions & {
      rpName: string
      rpID: string
      userName: string
      userID?: Uint8Array<ArrayBuffer>
      userDisplayName?: string
      excludeCredentials?: WebAuthnCredentialDescriptor[]
    },
  ): Promise<{ challenge: string }>
  generateAuthenticationOptions(
    options: WebAuthnAuthenticationOptions & { rpID: string; allowCredentials?: WebAuthnCredentialDescriptor[] },
  ): Promise<{ challenge: string }>
  verifyRegistrationResponse(
    options: WebAuthnVerifyRegistrationOptions & {
      response: WebAuthnRegistrationJSON
      expectedChallenge: string
      expectedOrigin: string | string[]
      expectedRPID: string | string[]
    },
  ): Promise<VerifiedWebAuthnRegistration>
  verifyAuthenticationResponse(
    options: WebAuthnVerifyAuthenticationOptions & {
      response: WebAuthnAuthenticationJSON
      expectedChallenge: string
      expectedOrigin: string | string[]
      expectedRPID: string | string[]
      credential: { id: string; publicKey: Uint8Array<ArrayBuffer>; counter: number; transports?: string[] }
    },
  ): Promise<VerifiedWebAuthnAuthentication>
}

/** A passkey (WebAuthn) provider; experimental, behind `experimental.enableWebAuthn`. */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /** The site passkeys belong to; by default the request URL's. */
  relyingParty?: RelyingParty
  /** Auth.js's spelling of `relyingParty`, read when that is unset so its configuration carries over. */
  relayingParty?: RelyingParty
  /**
   * Offers saved passkeys in the browser's autofill of the sign-in page's email field (one
   * provider at most; a form field needs `webauthn` in its `autocomplete`). Default `true`.
   */
  enableConditionalUI?: boolean
  /**
   * The fields of the sign-in page's passkey form, sent to `webauthn-options`: a new passkey is
   * labelled with `email` (or `name`, `username`). Default: `email`.
   */
  formFields?: Record<string, CredentialInput & { required?: boolean; autocomplete?: string }>
  /**
   * Accepted for Auth.js configurations and checked as it checks it, but unused: the sign-in
   * page's script is built in (no CDN), so it works offline and under a strict CSP.
   */
  simpleWebAuthnBrowserVersion?: string | false
  registrationOptions?: WebAuthnRegistrationOptions
  authenticationOptions?: WebAuthnAuthenticationOptions
  verifyRegistrationOptions?: WebAuthnVerifyRegistrationOptions
  verifyAuthenticationOptions?: WebAuthnVerifyAuthenticationOptions
  /**
   * Accepted for Auth.js configurations, but never called: Auth.js asks it who has the address a
   * signed-out request names and answers accordingly, which tells anyone who has an account.
   * Gatehouse's answer never depends on that (a signed-out registration is always a new user,
   * labelled with the form's `email`, `name` or `username`).
   */
  getUserInfo?: (request: Request, adapter: Adapter) => Awaitable<WebAuthnUserInfo | null>
  /** The ceremony functions; the provider factories take them from `@simplewebauthn/server`. */
  simpleWebAuthn?: SimpleWebAuthnServer
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
