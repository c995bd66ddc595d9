/**
 * Sign-in with PingOne (Ping Identity), OpenID Connect.
 * @module gatehouse-auth/providers/ping-id
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a PingOne ID token (with the `profile` and `email` scopes). */
export interface PingProfile {
  [claim: string]: unknown
  /** The environment's issuer URL. */
  iss: string
  /** The PingOne user id; the user's `id`. */
  sub: string
  /** The client id the token is for. */
  aud: string
  /** Issue time, in seconds since the epoch. */
  iat: number
  /** Expiry, in seconds since the epoch. */
  exp: number
  /** Authentication context class. */
  acr?: string
  /** Authentication methods used. */
  amr?: string[]
  /** When the user authenticated, in seconds since the epoch. */
  auth_time?: number
  /** Hash of the access token. */
  at_hash?: string
  /** The PingOne session id. */
  sid?: string
  /** The username, used as the name when there is none. */
  preferred_username?: string
  /** Given name. */
  given_name?: string
  /** Family name. */
  family_name?: string
  /** Full name; the user's `name`. */
  name?: string
  /** The picture's URL; the user's `image`. */
  picture?: string
  /** When the profile last changed, in seconds since the epoch. */
  updated_at?: number
  /** The email address. */
  email?: string
  /** The PingOne environment id. */
  env?: string
  /** The PingOne organization id. */
  org?: string
  /** The PingOne region. */
  "p1.region"?: string
}

/**
 * A PingOne application, through OpenID Connect discovery. `issuer` is required, from this option
 * or `AUTH_PING_ID_ISSUER`: the environment's URL, e.g. `https://auth.pingone.com/<environment id>/as`.
 *
 * @example
 * ```ts
 * PingId({ clientId: env.AUTH_PING_ID_ID, clientSecret: env.AUTH_PING_ID_SECRET, issuer: env.AUTH_PING_ID_ISSUER })
 * ```
 */
export function PingId(options?: OAuthUserConfig<PingProfile>): OAuthConfig {
  return oauthProvider<PingProfile>(
    {
      id: "ping-id",
      name: "Ping Identity",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#b3282d", text: "#fff" },
    },
    options,
  )
}

export default PingId
