/**
 * Sign-in with Beyond Identity (passwordless).
 * @module gatehouse-auth/providers/beyondidentity
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Beyond Identity ID token. */
export interface BeyondIdentityProfile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** The user name, used as the name when there is none. */
  preferred_username?: string
  /** The email address. */
  email?: string
}

/**
 * A Beyond Identity application, through OpenID Connect discovery. `issuer` is required, from
 * this option or `AUTH_BEYONDIDENTITY_ISSUER`: the application's issuer URL in the Beyond
 * Identity console.
 *
 * @example
 * ```ts
 * BeyondIdentity({
 *   clientId: env.AUTH_BEYONDIDENTITY_ID,
 *   clientSecret: env.AUTH_BEYONDIDENTITY_SECRET,
 *   issuer: env.AUTH_BEYONDIDENTITY_ISSUER,
 * })
 * ```
 */
export function BeyondIdentity(options?: OAuthUserConfig<BeyondIdentityProfile>): OAuthConfig {
  return oauthProvider<BeyondIdentityProfile>(
    {
      id: "beyondidentity",
      name: "Beyond Identity",
      type: "oidc",
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#5077c5", text: "#fff" },
    },
    options,
  )
}

export default BeyondIdentity
