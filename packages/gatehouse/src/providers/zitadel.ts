/**
 * Sign-in with ZITADEL.
 * @module gatehouse-auth/providers/zitadel
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a ZITADEL ID token. */
export interface ZitadelProfile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** The login name, used as the name when there is none. */
  preferred_username?: string
  /** Given name. */
  given_name?: string
  /** Family name. */
  family_name?: string
  /** The email address. */
  email?: string
  /** Whether ZITADEL verified the address. */
  email_verified?: boolean
  /** The avatar's URL; the user's `image`. */
  picture?: string
}

/**
 * A ZITADEL web application, through OpenID Connect discovery. `issuer` is required, from this
 * option or `AUTH_ZITADEL_ISSUER`: the instance's URL, e.g. `https://my-instance.zitadel.cloud`.
 *
 * @example
 * ```ts
 * Zitadel({ clientId: env.AUTH_ZITADEL_ID, clientSecret: env.AUTH_ZITADEL_SECRET, issuer: env.AUTH_ZITADEL_ISSUER })
 * ```
 */
export function Zitadel(options?: OAuthUserConfig<ZitadelProfile>): OAuthConfig {
  return oauthProvider<ZitadelProfile>(
    {
      id: "zitadel",
      // Spelled as the vendor (and Auth.js's provider list) spells it.
      name: "ZITADEL",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

/**
 * {@link Zitadel} under Auth.js's name for it, so code written for Auth.js imports it unchanged.
 *
 * @example
 * ```ts
 * import { ZITADEL } from "gatehouse-auth/providers/zitadel"
 * ZITADEL({ clientId: env.AUTH_ZITADEL_ID, clientSecret: env.AUTH_ZITADEL_SECRET, issuer: env.AUTH_ZITADEL_ISSUER })
 * ```
 */
export const ZITADEL = Zitadel

export default Zitadel
