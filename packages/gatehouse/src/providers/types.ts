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

/** An OAuth 2 endpoint: a URL, or a URL with extra parameters and hooks. */
export type EndpointConfig =
  | string
  | {
      url?: string
      params?: Record<string, unknown>
      request?: (context: { tokens: TokenSet; provider: OAuthConfig }) => Awaitable<unknown>
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
  normalizeIdentifier?: (identifier: string) => string
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
