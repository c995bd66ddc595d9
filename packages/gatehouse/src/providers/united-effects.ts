/**
 * Sign-in with United Effects (OpenID Connect).
 * @module gatehouse-auth/providers/united-effects
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a United Effects ID token. */
export interface UnitedEffectsProfile {
  [claim: string]: unknown
  /** The user id; the user's `id`. */
  sub: string
  /** The email address. */
  email: string
}

/**
 * A United Effects client, through OpenID Connect discovery. `issuer` is required, from this
 * option or `AUTH_UNITED_EFFECTS_ISSUER`: your auth group's URL,
 * `https://auth.unitedeffects.com/<auth group id>`. The authorization request names it as the
 * `resource` too, which United Effects requires. United Effects gives no name or picture.
 *
 * @example
 * ```ts
 * UnitedEffects({ clientId: env.AUTH_UNITED_EFFECTS_ID, clientSecret: env.AUTH_UNITED_EFFECTS_SECRET, issuer: env.AUTH_UNITED_EFFECTS_ISSUER })
 * ```
 */
export function UnitedEffects(options: OAuthUserConfig<UnitedEffectsProfile> = {}): OAuthConfig {
  return oauthProvider<UnitedEffectsProfile>(
    {
      id: "united-effects",
      name: "United Effects",
      type: "oidc",
      authorization: { params: { scope: "openid email profile", ...(options.issuer && { resource: options.issuer }) } },
      profile: standardClaimsProfile,
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default UnitedEffects
