/**
 * Auth.js's names for the shapes of OAuth 2 and OpenID Connect providers, for code that imports
 * them from `@auth/core/providers/oauth` or `next-auth/providers/oauth`: a provider written out by
 * hand (`OAuthConfig<P>`, `OIDCConfig<P>`), a factory's options (`OAuthUserConfig<P>`), its hooks.
 * They describe the objects Gatehouse's own providers are ({@link ProviderOAuthConfig}), with the
 * profile type `P` the hooks receive.
 *
 * @example
 * ```ts
 * import type { OAuthConfig, OAuthUserConfig } from "gatehouse-auth/providers/oauth"
 *
 * interface AcmeProfile { id: number; login: string; email: string | null }
 *
 * export default function Acme(options: OAuthUserConfig<AcmeProfile>): OAuthConfig<AcmeProfile> {
 *   return {
 *     id: "acme",
 *     name: "Acme",
 *     type: "oauth",
 *     authorization: { url: "https://acme.example/oauth/authorize", params: { scope: "read:user" } },
 *     token: "https://acme.example/oauth/token",
 *     userinfo: "https://api.acme.example/user",
 *     profile: (profile) => ({ id: String(profile.id), name: profile.login, email: profile.email }),
 *     ...options,
 *   }
 * }
 * ```
 * @module gatehouse-auth/providers/oauth
 */
import type { Account, Awaitable, Profile, TokenSet, User } from "../resources.js"
import type { OAuthUserConfig as FactoryOptions } from "./oauth-user-config.js"
import type { EndpointConfig, OAuthCheck, OAuthConfig as ProviderOAuthConfig } from "./types.js"

export type { OAuthProviderId } from "./provider-types.js"
export type { ProviderOAuthConfig }

/** Maps the provider's profile `P` to the user (`profile`). */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>

/** Picks what the stored account keeps of the token response (`account`); nothing keeps none of it. */
export type AccountCallback = (tokens: TokenSet) => Partial<Account> | undefined | void

/** The protections of the sign-in round trip (`checks`). */
export type OAuthChecks = OAuthCheck[]

/** The three endpoints of a provider. */
export type OAuthEndpointType = "authorization" | "token" | "userinfo"

/** The authorization endpoint given as an object: its URL and the parameters sent along. */
export type AuthorizationEndpointHandler = Exclude<EndpointConfig, string>

/** The token endpoint given as an object: its URL, and `conform` to fix a non-standard response. */
export type TokenEndpointHandler = Exclude<EndpointConfig, string>

/** The userinfo endpoint given as an object: its URL, and `request` to replace the call. */
export type UserinfoEndpointHandler = Exclude<EndpointConfig, string>

/** The sign-in button's look (Auth.js's `brandColor` included; Gatehouse's page does not use it). */
export interface OAuthProviderButtonStyles {
  /** A logo URL. */
  logo?: string
  /** The button's text colour. */
  text?: string
  /** The button's background colour. */
  bg?: string
  /** Auth.js's single brand colour. */
  brandColor?: string
}

/**
 * An OAuth 2 provider whose profile is `P`. The hooks are declared as methods so that a provider
 * typed with its own profile still fits in `providers`, as it does in Auth.js.
 */
export interface OAuth2Config<P = Profile> extends Omit<ProviderOAuthConfig, "type" | "profile" | "profileFromCallback" | "style"> {
  /** A plain OAuth 2 provider: the profile comes from the userinfo endpoint. */
  type: "oauth"
  /** Maps the provider's profile to the user. */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>
  /** Adds to the profile what the authorization response carries besides the code. */
  profileFromCallback?(profile: P, params: URLSearchParams): Awaitable<P>
  /** The sign-in button's look. */
  style?: OAuthProviderButtonStyles
}

/** An OpenID Connect provider whose profile (the ID token's claims, or userinfo) is `P`. */
export interface OIDCConfig<P = Profile> extends Omit<OAuth2Config<P>, "type" | "profile" | "profileFromCallback"> {
  /** An OpenID Connect provider: the profile comes from the ID token unless `idToken: false`. */
  type: "oidc"
  /** Maps the ID token's claims (or the userinfo answer) to the user. */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>
  /** Adds to the profile what the authorization response carries besides the code. */
  profileFromCallback?(profile: P, params: URLSearchParams): Awaitable<P>
}

/** An OAuth 2 or OpenID Connect provider whose profile is `P`. */
export type OAuthConfig<P = Profile> = OAuth2Config<P> | OIDCConfig<P>

/** An OpenID Connect provider as Gatehouse holds it once configured: the same shape. */
export type OIDCConfigInternal<P = Profile> = OIDCConfig<P>

/** The options of an OAuth provider factory: any field of the provider, each replacing the default. */
export type OAuthUserConfig<P = Profile> = FactoryOptions<P>

/** The options of an OpenID Connect provider factory. */
export type OIDCUserConfig<P = Profile> = FactoryOptions<P>
