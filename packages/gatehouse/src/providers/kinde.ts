/**
 * Sign-in with Kinde (OpenID Connect).
 * @module gatehouse-auth/providers/kinde
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/**
 * The user as Kinde describes them. The provider reads the ID token's standard claims (`sub`,
 * `name`, `email`, `picture`); the other fields are those of Kinde's user profile API.
 */
export interface KindeProfile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** The user's id, as Kinde's user profile API names it. */
  id?: string
  /** Full name; the user's `name`. */
  name?: string
  /** Given name. */
  first_name?: string
  /** Family name. */
  last_name?: string
  /** The email address; the user's `email`. */
  email?: string
  /** The email address, as Kinde's user profile API names it. */
  preferred_email?: string
  /** The picture's URL; the user's `image`. */
  picture?: string
  /** The user's id in a previous system. */
  provided_id?: string
  /** The username. */
  username?: string
}

/**
 * A Kinde application, through OpenID Connect discovery, with state and PKCE. `issuer` is
 * required, from this option or `AUTH_KINDE_ISSUER`: the business domain, e.g.
 * `https://acme.kinde.com`.
 *
 * @example
 * ```ts
 * Kinde({ clientId: env.AUTH_KINDE_ID, clientSecret: env.AUTH_KINDE_SECRET, issuer: env.AUTH_KINDE_ISSUER })
 * ```
 */
export function Kinde(options?: OAuthUserConfig<KindeProfile>): OAuthConfig {
  return oauthProvider<KindeProfile>(
    {
      id: "kinde",
      name: "Kinde",
      type: "oidc",
      checks: ["state", "pkce"],
      profile: standardClaimsProfile,
      style: { bg: "#fff", text: "#0F0F0F" },
    },
    options,
  )
}

export default Kinde
