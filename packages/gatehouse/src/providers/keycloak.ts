/**
 * Sign-in with Keycloak.
 * @module gatehouse-auth/providers/keycloak
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a Keycloak ID token (with the default `profile` and `email` client scopes). */
export interface KeycloakProfile {
  [claim: string]: unknown
  /** The user's id in the realm; the user's `id`. */
  sub: string
  /** The username, used as the name when there is none. */
  preferred_username: string
  /** Full name; the user's `name`. */
  name?: string
  /** Given name. */
  given_name?: string
  /** Family name. */
  family_name?: string
  /** The email address. */
  email?: string
  /** Whether the realm verified the address. */
  email_verified?: boolean
  /** The picture's URL (when a `picture` attribute is mapped); the user's `image`. */
  picture?: string
}

/**
 * A Keycloak client, through OpenID Connect discovery. `issuer` is required, from this option or
 * `AUTH_KEYCLOAK_ISSUER`: the realm's URL, e.g. `https://keycloak.example.com/realms/my-realm`.
 *
 * @example
 * ```ts
 * Keycloak({ clientId: env.AUTH_KEYCLOAK_ID, clientSecret: env.AUTH_KEYCLOAK_SECRET, issuer: env.AUTH_KEYCLOAK_ISSUER })
 * ```
 */
export function Keycloak(options?: OAuthUserConfig<KeycloakProfile>): OAuthConfig {
  return oauthProvider<KeycloakProfile>(
    {
      id: "keycloak",
      name: "Keycloak",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}

export default Keycloak
