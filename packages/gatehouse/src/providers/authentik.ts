/**
 * Sign-in with authentik.
 * @module gatehouse-auth/providers/authentik
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of an authentik ID token (with the default scope mappings). */
export interface AuthentikProfile {
  [claim: string]: unknown
  /** The user's id (how authentik derives it is set per provider); the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** The username, used as the name when there is none. */
  preferred_username?: string
  /** The username, as a nickname. */
  nickname?: string
  /** The email address. */
  email?: string
  /** Whether authentik considers the address verified. */
  email_verified?: boolean
  /** The avatar's URL; the user's `image`. */
  picture?: string
  /** The names of the user's groups, when the provider's scope mappings include them. */
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
