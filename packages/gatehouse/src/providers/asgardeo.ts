/**
 * Sign-in with Asgardeo (WSO2's identity service).
 * @module gatehouse-auth/providers/asgardeo
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of an Asgardeo ID token (with the attributes the application asks for). */
export interface AsgardeoProfile {
  [claim: string]: unknown
  /** The user's id in the organization; the user's `id`. */
  sub: string
  /** Full name, when the application shares it; the user's `name`. */
  name?: string
  /** The first name. */
  given_name?: string
  /** A casual name, used as the name when there is none. */
  nickname?: string
  /** The user name, used as the name when there is neither. */
  preferred_username?: string
  /** The email address. */
  email?: string
  /** Whether Asgardeo verified the address. */
  email_verified?: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
}

/**
 * An Asgardeo OpenID Connect application, through discovery. `issuer` is required, from this
 * option or `AUTH_ASGARDEO_ISSUER`: the issuer shown on the application's Info tab,
 * `https://api.asgardeo.io/t/<organization>/oauth2/token`.
 *
 * @example
 * ```ts
 * Asgardeo({ clientId: env.AUTH_ASGARDEO_ID, clientSecret: env.AUTH_ASGARDEO_SECRET, issuer: env.AUTH_ASGARDEO_ISSUER })
 * ```
 */
export function Asgardeo(options?: OAuthUserConfig<AsgardeoProfile>): OAuthConfig {
  return oauthProvider<AsgardeoProfile>(
    {
      id: "asgardeo",
      name: "Asgardeo",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default Asgardeo
