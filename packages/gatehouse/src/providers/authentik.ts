/**
 * Sign-in with authentik.
 * @module gatehouse-auth/providers/authentik
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of an authentik ID token (with the default scope mappings). */
export interface AuthentikProfile {
  [claim: string]: unknown
  sub: string
  name?: string
  preferred_username?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  groups?: string[]
}

/**
 * An authentik OAuth2/OpenID provider, through OpenID Connect discovery. `issuer` is required,
 * from this option or `AUTH_AUTHENTIK_ISSUER`: the application's URL,
 * e.g. `https://authentik.example.com/application/o/my-app/`.
 *
 * @example
 * ```ts
 * Authentik({ clientId: env.AUTH_AUTHENTIK_ID, clientSecret: env.AUTH_AUTHENTIK_SECRET, issuer: env.AUTH_AUTHENTIK_ISSUER })
 * ```
 */
export function Authentik(options?: OAuthUserConfig<AuthentikProfile>): OAuthConfig {
  return oauthProvider<AuthentikProfile>(
    {
      id: "authentik",
      name: "Authentik",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#fd4b2d", text: "#fff" },
    },
    options,
  )
}

export default Authentik
