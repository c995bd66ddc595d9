/**
 * Sign-in with Okta.
 * @module gatehouse-auth/providers/okta
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of an Okta ID token. */
export interface OktaProfile {
  [claim: string]: unknown
  /** The user's Okta id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** The Okta login, used as the name when there is none. */
  preferred_username?: string
  /** The email address. */
  email?: string
  /** Whether Okta verified the address. */
  email_verified?: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
}

/**
 * An Okta app integration, through OpenID Connect discovery. `issuer` is required, from this
 * option or `AUTH_OKTA_ISSUER`: the org (`https://dev-123456.okta.com`) or an authorization
 * server (`https://dev-123456.okta.com/oauth2/default`).
 *
 * @example
 * ```ts
 * Okta({ clientId: env.AUTH_OKTA_ID, clientSecret: env.AUTH_OKTA_SECRET, issuer: env.AUTH_OKTA_ISSUER })
 * ```
 */
export function Okta(options?: OAuthUserConfig<OktaProfile>): OAuthConfig {
  return oauthProvider<OktaProfile>(
    {
      id: "okta",
      name: "Okta",
      type: "oidc",
      checks: ["pkce", "state"],
      profile: standardClaimsProfile,
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default Okta
