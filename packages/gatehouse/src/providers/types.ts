/**
 * The shapes of provider configuration. A provider is plain data: a factory returns one of these
 * objects, and the core reads it without knowing which provider it is.
 * @module
 */
import type { Adapter, AdapterUser } from "../adapters/index.js"
import type { Account, Awaitable, Profile, TokenSet, User } from "../resources.js"
import type { Theme } from "../theme.js"
import type { customFetch } from "../markers.js"

/** The five kinds of provider. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/** What every provider has. */
export interface CommonProviderOptions {
  /** Appears in URLs (`/signin/<id>`, `/callback/<id>`) and in `AUTH_<ID>_*` variables. */
  id: string
  /** Shown on the sign-in page ("Sign in with GitHub"). */
  name: string
  /** Which kind of provider this is; the core dispatches on it. */
  type: ProviderType
  /**
   * The options a provider written the Auth.js way hands back (`return { id, …defaults, options }`):
   * laid over the rest of the provider at startup, nested objects merged key by key. Gatehouse's
   * own factories merge their options themselves and set none.
   */
  options?: Record<string, unknown>
}

/** What an endpoint's `request` hook is given: the tokens, the provider, and the fetch to use. */
export interface EndpointRequestContext {
  /** The token endpoint's response (with `expires_at`). */
  tokens: TokenSet
  /** The provider being signed in with. */
  provider: OAuthConfig
  /** The provider's `fetch` (or the global one): every request to the provider goes through it. */
  fetch: typeof fetch
}

/** An OAuth 2 endpoint: a URL, or a URL with extra parameters and hooks. */
export type EndpointConfig =
  | string
  | {
      /** The endpoint's URL. */
      url?: string
      /** Extra query parameters (authorization: `scope`, `prompt`, …). */
      params?: Record<string, unknown>
      /** Replaces the default request (userinfo: GET with the bearer token); returns the profile. */
      request?: (context: EndpointRequestContext) => Awaitable<unknown>
      /** Rewrites a non-standard response before it is processed. */
      conform?: (response: Response) => Awaitable<Response | undefined>
    }

/** An OAuth protection of the sign-in round trip (see {@link OAuthConfig.checks}); `none` turns `state` off. */
export type OAuthCheck = "pkce" | "state" | "none" | "nonce"

/** An OAuth 2 or OpenID Connect provider. */
export interface OAuthConfig<P extends Profile = Profile> extends CommonProviderOptions {
  /** `oidc`: the profile comes from the ID token (unless `idToken: false`); `oauth`: from the userinfo endpoint. */
  type: "oauth" | "oidc"
  /** The client id registered at the provider; default `AUTH_<ID>_ID`. */
  clientId?: string
  /** The client secret; default `AUTH_<ID>_SECRET`. */
  clientSecret?: string
  /** The issuer; with it, unset endpoints come from discovery. */
  issuer?: string
  /**
   * Accepted for Auth.js configurations, but not read: discovery always asks `issuer`'s
   * `/.well-known/openid-configuration`.
   */
  wellKnown?: string
  /** Where the user is sent to sign in, and the parameters sent along (`scope`, …). */
  authorization?: EndpointConfig
  /** Where the code is exchanged for tokens; `conform` can fix a non-standard response. */
  token?: EndpointConfig
  /** Where the profile is fetched (for `oauth`, or `oidc` with `idToken: false`); `request` can replace the call. */
  userinfo?: EndpointConfig
  /**
   * The protections of the sign-in round trip; default `["pkce"]`. `state` is always added: it
   * ties the callback to the browser (and the signed-in user) that started the flow, which PKCE
   * alone does not where a provider ignores `code_verifier`. `"none"` in the list is the one way
   * to leave `state` out (Auth.js's opt-out; a redirect proxy still needs it), with whatever else
   * the list names still in force.
   *
   * @example
   * ```ts
   * checks: ["pkce", "nonce"] // PKCE, nonce and state
   * checks: ["none"] // no checks at all: only for a provider that cannot take any
   * ```
   */
  checks?: OAuthCheck[]
  /**
   * Client metadata: `token_endpoint_auth_method` is `client_secret_basic` (the default),
   * `client_secret_post`, `client_secret_jwt`, `none`, or `private_key_jwt` with `privateKey`.
   */
  client?: {
    /** How the client authenticates at the token endpoint. Default `client_secret_basic`. */
    token_endpoint_auth_method?: string
    [field: string]: unknown
  }
  /** Maps the provider's profile to the user. Default: `sub` or `id`, a name, `email` and `picture`. */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>
  /**
   * Picks what the stored account keeps of the token response. Default: the tokens, their expiry,
   * scope and type. Returning nothing keeps none of them (the account's ids only), as in Auth.js.
   */
  account?: (tokens: TokenSet) => Partial<Account> | undefined | void
  /**
   * Lets a first sign-in with this provider join the stored user with the same email address,
   * which is otherwise refused (`OAuthAccountNotLinked`). A user whose address was never proven
   * is joined only when the provider vouches for it (`email_verified`). Default `false`.
   */
  allowDangerousEmailAccountLinking?: boolean
  /** This provider's redirect proxy, in place of the config's `redirectProxyUrl`. */
  redirectProxyUrl?: string
  /** `false` makes an `oidc` provider read the profile from the userinfo endpoint instead of the ID token. */
  idToken?: boolean
  /** Auth.js's button colours and logo; carried as data, not used by the built-in sign-in page. */
  style?: {
    /** A logo URL. */
    logo?: string
    /** The button's background colour. */
    bg?: string
    /** The button's text colour. */
    text?: string
  }
  /** Every request to this provider (discovery, token, userinfo, hooks) goes through it. */
  fetch?: typeof fetch
  /** Auth.js's name for {@link OAuthConfig.fetch}; `fetch` wins when both are set. */
  [customFetch]?: typeof fetch
  /**
   * Adds to the profile what the authorization response carries besides the code (Apple posts
   * the user's name as a `user` parameter on the first sign-in only).
   */
  profileFromCallback?(profile: P, params: URLSearchParams): Awaitable<P>
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
  /** The email address to send to, normalized. */
  identifier: string
  /** The sign-in link: this provider's callback route with `token`, `email` and `callbackUrl` in its query. */
  url: string
  /** When the link stops working. */
  expires: Date
  /** The email provider, options applied. */
  provider: EmailConfig
  /** The token in the link (only its hash is stored); for a one-time code, the code itself. */
  token: string
  /**
   * Set when the email carries a one-time code to type instead of a link to follow (a provider
   * with `code`, or the email code of two-factor sign-in): the same value as `token`. `url` is
   * then the page where the code is typed, not a sign-in link.
   */
  code?: string
  /** The configured theme, for an email that matches the pages. */
  theme: Theme
  /** The sign-in request: its URL and headers, the posted form as a JSON body. */
  request: Request
}

/** At most `max` events per `windowSeconds`. */
export interface RateLimit {
  /** Events allowed per window. */
  max: number
  /** The window's length in seconds; it starts with the first event counted. */
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
   * Emails requested from one client IP. Default 30 per 15 minutes. The IP is what `clientIp`
   * reads, else the config's `trustedIpHeader`, else (with `trustHost`) the last
   * `X-Forwarded-For` hop, the one your proxy appended; without any, only `perEmail` applies.
   */
  perIp?: RateLimit | false
  /**
   * The client's IP from the request headers, for this provider alone; the config's
   * `trustedIpHeader` does the same for every provider. Read only headers your proxy overwrites.
   */
  clientIp?: (headers: Headers) => string | null | undefined
}

/** A magic-link (email) provider. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** API key of an HTTP email service; inferred from `AUTH_<ID>_KEY`. */
  apiKey?: string
  /** The sender address of sign-in emails. */
  from?: string
  /** Seconds a sign-in link stays valid. Default 1 day. */
  maxAge?: number
  /** Hashes this provider's stored tokens in place of the config's `secret`. */
  secret?: string
  /** Sends the sign-in email. A throw forgets the token and fails the sign-in (as `EmailSignInError`, unless it is a sign-in error itself). */
  sendVerificationRequest: (params: VerificationRequestParams) => Awaitable<void>
  /** Makes the link's token. Default: 32 random bytes as hex. Setting it turns `maxAttempts` on by default. */
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
  /**
   * Sign in with a one-time code typed on the verify-request page instead of a link: `true` for
   * 6 digits, or `{ digits }` from 6 to 8. The code works only in the browser that asked for it,
   * at most 5 wrong tries, and `maxAge` must then be at most 600 seconds (the default then). After
   * sending, the browser goes to the verify-request page with `provider`, `type` and `email` in
   * its query; a custom page posts `code`, `email` and `csrfToken` to `callback/<id>`.
   * `sendVerificationRequest` gets the code as `token` and `code`, and the page as `url`.
   * `generateVerificationToken` is not used for codes. Default off (links).
   */
  code?: true | EmailCodeOptions
  /**
   * Sends any message with this provider's transport (the built-in Nodemailer providers have it):
   * what two-factor security notices go out through. Providers without it cannot send them.
   */
  sendMessage?: (message: EmailMessageToSend) => Awaitable<void>
  [option: string]: unknown
}

/** Options of an email provider's sign-in code (`EmailConfig.code`). */
export interface EmailCodeOptions {
  /** Digits of a code: 6 (the default), 7 or 8. */
  digits?: 6 | 7 | 8
}

/** A message for {@link EmailConfig.sendMessage}. */
export interface EmailMessageToSend {
  /** The recipient's address. */
  to: string
  /** The subject line. */
  subject: string
  /** The plain-text body. */
  text: string
  /** The HTML body. */
  html: string
  /** The email provider, options applied. */
  provider: EmailConfig
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
   * Attempts from one client IP, whatever the identifier. Default 100 per 15 minutes. The IP is
   * what `clientIp` reads, else the config's `trustedIpHeader`, else (with `trustHost`) the last
   * `X-Forwarded-For` hop, the one your proxy appended; without any, only `perIdentifier` applies.
   */
  perIp?: RateLimit | false
  /**
   * Who an attempt is for, from the posted fields. Default: the posted `email` and `username`,
   * each counted (read as `String()` reads them, trimmed, NFKC-normalized and lower-cased), so
   * junk in one cannot dodge the count of the other. `undefined` or `""`: only the per-IP limit
   * applies to that attempt. A custom result is used as it is.
   */
  identifier?: (credentials: Partial<Record<string, unknown>>) => string | undefined
  /**
   * The client's IP from the request headers, for this provider alone; the config's
   * `trustedIpHeader` does the same for every provider. Read only headers your proxy overwrites.
   */
  clientIp?: (headers: Headers) => string | null | undefined
}

/** What a credentials provider's form fields look like. */
export interface CredentialInput {
  /** The field's label on the built-in sign-in page. */
  label?: string
  /** The `<input>` type: `text`, `email`, `password`, … */
  type?: string
  /** A pre-filled value. */
  value?: string
  /** The input's placeholder text. */
  placeholder?: string
  [attribute: string]: unknown
}

/** A username/password-style provider; `authorize` returns the user or `null`. */
export interface CredentialsConfig extends CommonProviderOptions {
  type: "credentials"
  /** The fields of the built-in sign-in page's form, by posted name. */
  credentials: Record<string, CredentialInput>
  /**
   * Checks what was posted (and the sign-in request: its URL and headers, the form as a JSON
   * body) and returns the user, or `null` to refuse (`CredentialsSignin`).
   */
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
  | {
      /** The stored user. */
      user: User & {
        /** The user's id. */
        id: string
      }
      /** The user is stored. */
      exists: true
    }
  | {
      /** Who a new passkey would be made for. */
      user: Omit<User, "id"> & {
        /** The address named. */
        email?: string | null
      }
      /** No such user yet. */
      exists: false
    }

/** A credential as the browser serialises it (`PublicKeyCredential.toJSON()`), binary fields in base64url. */
export interface WebAuthnResponseJSON<Response extends object> {
  /** The credential id, base64url. */
  id: string
  /** The same id, base64url. */
  rawId: string
  /** Always `public-key`. */
  type: "public-key"
  /** What the authenticator returned. */
  response: Response
  /** Results of the extensions asked for. */
  clientExtensionResults: object
  /** Whether the authenticator is built in (`platform`) or roaming (`cross-platform`). */
  authenticatorAttachment?: "platform" | "cross-platform"
}

/** How a browser reaches an authenticator. */
export type WebAuthnTransport = "ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb"

/** A new credential, as `navigator.credentials.create()` gives it. */
export type WebAuthnRegistrationJSON = WebAuthnResponseJSON<{
  /** The client data the browser signed over, base64url. */
  clientDataJSON: string
  /** The new credential and its attestation, base64url. */
  attestationObject: string
  /** How the browser can reach the authenticator again. */
  transports?: WebAuthnTransport[]
}>

/** A signed challenge, as `navigator.credentials.get()` gives it. */
export type WebAuthnAuthenticationJSON = WebAuthnResponseJSON<{
  /** The client data the browser signed over, base64url. */
  clientDataJSON: string
  /** The authenticator's data (relying party hash, flags, counter), base64url. */
  authenticatorData: string
  /** The signature over both, base64url. */
  signature: string
  /** The user id the passkey was made for, base64url. */
  userHandle?: string
}>

/** A credential descriptor in ceremony options: a base64url id and how to reach its authenticator. */
export interface WebAuthnCredentialDescriptor {
  /** The credential id, base64url. */
  id: string
  /** How the browser can reach its authenticator. */
  transports?: string[]
}

/** Options for creating passkeys, passed to `@simplewebauthn/server`'s `generateRegistrationOptions`. */
export interface WebAuthnRegistrationOptions {
  /** Milliseconds the browser waits for the user. Default 5 minutes. */
  timeout?: number
  /** Whether to ask the authenticator to prove its make; `none` by default. */
  attestationType?: "direct" | "enterprise" | "none"
  /** Which authenticators may create the passkey. */
  authenticatorSelection?: {
    /** Only built-in (`platform`) or only roaming (`cross-platform`) authenticators. */
    authenticatorAttachment?: "platform" | "cross-platform"
    /** Whether the credential should be discoverable (a passkey the browser can offer by itself). */
    residentKey?: "discouraged" | "preferred" | "required"
    /** The WebAuthn Level 1 form of `residentKey: "required"`. */
    requireResidentKey?: boolean
    /** Whether the authenticator should check who the user is (PIN, biometrics). */
    userVerification?: "discouraged" | "preferred" | "required"
  }
  /** COSE algorithm ids to accept, most preferred first. */
  supportedAlgorithmIDs?: number[]
  /** A hint to the browser about which kind of authenticator to offer first. */
  preferredAuthenticatorType?: "securityKey" | "localDevice" | "remoteDevice"
  /** WebAuthn extensions to ask for. */
  extensions?: Record<string, unknown>
}

/** Options for signing in with passkeys, passed to `generateAuthenticationOptions`. */
export interface WebAuthnAuthenticationOptions {
  /** Milliseconds the browser waits for the user. Default 5 minutes. */
  timeout?: number
  /** Whether the authenticator should check who the user is (PIN, biometrics). */
  userVerification?: "discouraged" | "preferred" | "required"
  /** WebAuthn extensions to ask for. */
  extensions?: Record<string, unknown>
}

/** Options for checking a new passkey, passed to `verifyRegistrationResponse`. */
export interface WebAuthnVerifyRegistrationOptions {
  /** Refuse a new passkey unless the authenticator verified the user. */
  requireUserVerification?: boolean
  /** Refuse a new passkey unless the user was present (touched the authenticator). */
  requireUserPresence?: boolean
  /** COSE algorithm ids to accept. */
  supportedAlgorithmIDs?: number[]
}

/** Options for checking a passkey sign-in, passed to `verifyAuthenticationResponse`. */
export interface WebAuthnVerifyAuthenticationOptions {
  /** Refuse a sign-in unless the authenticator verified the user. */
  requireUserVerification?: boolean
  /** For ceremonies in a cross-origin iframe: the top-level origins to accept. */
  expectedTopOrigin?: string | string[]
}

/** What a verified registration tells about the new credential (`@simplewebauthn/server` 14). */
export interface VerifiedWebAuthnRegistration {
  /** Whether the registration checked out. */
  verified: boolean
  /** The new credential, when verified. */
  registrationInfo?: {
    /** The credential to store. */
    credential: {
      /** The credential id, base64url. */
      id: string
      /** The credential's public key (COSE). */
      publicKey: Uint8Array
      /** The signature counter so far. */
      counter: number
      /** How the browser can reach its authenticator. */
      transports?: string[]
    }
    /** `singleDevice` or `multiDevice` (a synced passkey). */
    credentialDeviceType: string
    /** Whether the credential is backed up (synced). */
    credentialBackedUp: boolean
    /** Whether the authenticator verified the user (PIN, biometrics): the UV flag. */
    userVerified?: boolean
  }
}

/** What a verified sign-in tells about the credential (`@simplewebauthn/server` 14). */
export interface VerifiedWebAuthnAuthentication {
  /** Whether the signature checked out. */
  verified: boolean
  /** What the authenticator reported. */
  authenticationInfo: {
    /** The signature counter to store. */
    newCounter: number
    /** `singleDevice` or `multiDevice` (a synced passkey). */
    credentialDeviceType?: string
    /** Whether the credential is backed up (synced). */
    credentialBackedUp?: boolean
    /** Whether the authenticator verified the user (PIN, biometrics): the UV flag. */
    userVerified?: boolean
  }
}

/**
 * The four `@simplewebauthn/server` functions Gatehouse calls. The provider factories fill them
 * in from the package; replace them to wrap or instrument the ceremonies.
 */
export interface SimpleWebAuthnServer {
  /** The options of a new-passkey ceremony; Gatehouse keeps the `challenge` in a cookie. */
  generateRegistrationOptions(
    options: WebAuthnRegistrationOptions & {
      rpName: string
      rpID: string
      userName: string
      userID?: Uint8Array<ArrayBuffer>
      userDisplayName?: string
      excludeCredentials?: WebAuthnCredentialDescriptor[]
    },
  ): Promise<{
    /** The challenge the authenticator must sign. */
    challenge: string
  }>
  /** The options of a sign-in ceremony; Gatehouse keeps the `challenge` in a cookie. */
  generateAuthenticationOptions(
    options: WebAuthnAuthenticationOptions & { rpID: string; allowCredentials?: WebAuthnCredentialDescriptor[] },
  ): Promise<{
    /** The challenge the authenticator must sign. */
    challenge: string
  }>
  /** Checks a new passkey against the challenge, origin and relying party. */
  verifyRegistrationResponse(
    options: WebAuthnVerifyRegistrationOptions & {
      response: WebAuthnRegistrationJSON
      expectedChallenge: string
      expectedOrigin: string | string[]
      expectedRPID: string | string[]
    },
  ): Promise<VerifiedWebAuthnRegistration>
  /** Checks a passkey sign-in against the challenge, origin, relying party and stored credential. */
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
  formFields?: Record<
    string,
    CredentialInput & {
      /** Whether the field must be filled in. */
      required?: boolean
      /** The input's `autocomplete`; one field needs `webauthn` in it for autofill. */
      autocomplete?: string
    }
  >
  /**
   * Accepted for Auth.js configurations and checked as it checks it, but unused: the sign-in
   * page's script is built in (no CDN), so it works offline and under a strict CSP.
   */
  simpleWebAuthnBrowserVersion?: string | false
  /** Options for creating passkeys. */
  registrationOptions?: WebAuthnRegistrationOptions
  /** Options for signing in with passkeys. */
  authenticationOptions?: WebAuthnAuthenticationOptions
  /** Options for checking new passkeys. */
  verifyRegistrationOptions?: WebAuthnVerifyRegistrationOptions
  /** Options for checking passkey sign-ins. */
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
export type ProviderOfType<T extends ProviderType> = T extends "oauth" | "oidc"
  ? OAuthConfig
  : Extract<
      ProviderConfig,
      {
        /** The provider type to pick. */
        type: T
      }
    >

/** Values read from `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER` and `_KEY`, handed to provider factories. */
export interface ProviderEnvOptions {
  /** `AUTH_<ID>_ID`. */
  clientId?: string
  /** `AUTH_<ID>_SECRET`. */
  clientSecret?: string
  /** `AUTH_<ID>_ISSUER`. */
  issuer?: string
  /** `AUTH_<ID>_KEY`. */
  apiKey?: string
}

/** A provider object, or a factory Gatehouse calls with what the environment supplies. */
export type Provider = ProviderConfig | ((options: ProviderEnvOptions) => ProviderConfig)
