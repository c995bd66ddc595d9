/**
 * Sign-in with IdentityServer4 (OpenID Connect). IdentityServer4 is discontinued; its successor
 * is Duende IdentityServer.
 * @module gatehouse-auth/providers/identity-server4
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of an IdentityServer4 ID token (with the `profile` and `email` scopes). */
export interface IdentityServer4Profile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** The username, used as the name when there is none. */
  preferred_username?: string
  /** The email address. */
  email?: string
  /** Whether the server verified the address. */
  email_verified?: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
}

/**
 * An IdentityServer4 client, through OpenID Connect discovery. `issuer` is required, from this
 * option or `AUTH_IDENTITY_SERVER4_ISSUER`: the server's URL, e.g. `https://demo.identityserver.io`.
 *
 * @example
 * ```ts
 * IdentityServer4({
 *   clientId: env.AUTH_IDENTITY_SERVER4_ID,
 *   clientSecret: env.AUTH_IDENTITY_SERVER4_SECRET,
 *   issuer: env.AUTH_IDENTITY_SERVER4_ISSUER,
 * })
 * ```
 */
export function IdentityServer4(options?: OAuthUserConfig<IdentityServer4Profile>): OAuthConfig {
  return oauthProvider<IdentityServer4Profile>(
    {
      id: "identity-server4",
      name: "IdentityServer4",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}

export default IdentityServer4
