/**
 * Sign-in with Passage by 1Password (OpenID Connect).
 * @module gatehouse-auth/providers/passage
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a Passage ID token. */
export interface PassageProfile {
  [claim: string]: unknown
  /** The Passage app's issuer URL. */
  iss: string
  /** The Passage user id; the user's `id`. */
  sub: string
  /** The audiences the token is for. */
  aud: string[]
  /** Expiry, in seconds since the epoch. */
  exp: number
  /** Issue time, in seconds since the epoch. */
  iat: number
  /** When the user authenticated, in seconds since the epoch. */
  auth_time?: number
  /** The party the token was issued to. */
  azp?: string
  /** The client id. */
  client_id?: string
  /** Hash of the access token. */
  at_hash?: string
  /** Hash of the authorization code. */
  c_hash?: string
  /** The email address, when the user signed in with one. */
  email?: string
  /** Whether Passage verified the address. */
  email_verified?: boolean
  /** The phone number, when the user signed in with one. */
  phone?: string
  /** Whether Passage verified the phone number. */
  phone_number_verified?: boolean
}

/**
 * A Passage app, through OpenID Connect discovery. `issuer` is required, from this option or
 * `AUTH_PASSAGE_ISSUER`: the app's URL, `https://auth.passage.id/v1/apps/<app id>`. Passage users
 * have an email address or a phone number, and no name.
 *
 * @example
 * ```ts
 * Passage({ clientId: env.AUTH_PASSAGE_ID, clientSecret: env.AUTH_PASSAGE_SECRET, issuer: env.AUTH_PASSAGE_ISSUER })
 * ```
 */
export function Passage(options?: OAuthUserConfig<PassageProfile>): OAuthConfig {
  return oauthProvider<PassageProfile>(
    {
      id: "passage",
      name: "Passage",
      type: "oidc",
      client: { token_endpoint_auth_method: "client_secret_basic" },
      profile: standardClaimsProfile,
      style: { bg: "#3d53f6", text: "#fff" },
    },
    options,
  )
}

export default Passage
