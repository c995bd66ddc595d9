/**
 * Sign-in with OneLogin (OpenID Connect).
 * @module gatehouse-auth/providers/onelogin
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a OneLogin ID token (with the `profile` and `email` scopes). */
export interface OneLoginProfile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** The username, used as the name when there is none. */
  preferred_username?: string
  /** Given name. */
  given_name?: string
  /** Family name. */
  family_name?: string
  /** The email address. */
  email?: string
  /** The picture's URL; the user's `image`. */
  picture?: string
}

/**
 * A OneLogin OpenID Connect app, through discovery. `issuer` is required, from this option or
 * `AUTH_ONELOGIN_ISSUER`: `https://<subdomain>.onelogin.com/oidc/2`. Given to the factory as the
 * bare subdomain URL (`https://<subdomain>.onelogin.com`), `/oidc/2` is added, which is where
 * OneLogin's discovery document (Auth.js's `wellKnown`) and issuer are.
 *
 * @example
 * ```ts
 * OneLogin({ clientId: env.AUTH_ONELOGIN_ID, clientSecret: env.AUTH_ONELOGIN_SECRET, issuer: "https://acme.onelogin.com/oidc/2" })
 * ```
 */
export function OneLogin(options: OAuthUserConfig<OneLoginProfile> = {}): OAuthConfig {
  const { issuer, ...rest } = options
  return oauthProvider<OneLoginProfile>(
    {
      id: "onelogin",
      name: "OneLogin",
      type: "oidc",
      ...(issuer !== undefined && { issuer: oneLoginIssuer(issuer) }),
      profile: standardClaimsProfile,
      style: { bg: "#1C1F2A", text: "#fff" },
    },
    rest,
  )
}

/** `https://acme.onelogin.com` (with or without a slash) as OneLogin's issuer, `…/oidc/2`; any other URL as given. */
function oneLoginIssuer(issuer: string): string {
  const trimmed = issuer.replace(/\/+$/, "")
  try {
    return new URL(trimmed).pathname === "/" ? `${trimmed}/oidc/2` : trimmed
  } catch {
    return issuer
  }
}

export default OneLogin
