/**
 * Sign-in with Descope.
 * @module gatehouse-auth/providers/descope
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a Descope ID token. */
export interface DescopeProfile {
  [claim: string]: unknown
  /** The user's Descope id; the user's `id`. */
  sub: string
  /** The name; the user's `name`. */
  name?: string
  /** The email address. */
  email?: string
  /** Whether Descope verified the address. */
  email_verified?: boolean
  /** The phone number. */
  phone_number?: string
  /** Whether Descope verified the phone number. */
  phone_number_verified?: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
}

/**
 * A Descope project as an OpenID Connect provider, through discovery. The client id is the
 * project id, and the issuer is `https://api.descope.com/<project id>` unless `issuer` (or
 * `AUTH_DESCOPE_ISSUER`) names another one; the client secret is a Descope access key.
 *
 * The default issuer is built from the client id when the provider is: give `clientId` as an
 * option, or list the factory itself (`providers: [Descope]`) so that it is called with
 * `AUTH_DESCOPE_ID`.
 *
 * @example
 * ```ts
 * Descope({ clientId: env.AUTH_DESCOPE_ID, clientSecret: env.AUTH_DESCOPE_SECRET })
 * ```
 */
export function Descope(options: OAuthUserConfig<DescopeProfile> = {}): OAuthConfig {
  return oauthProvider<DescopeProfile>(
    {
      id: "descope",
      name: "Descope",
      type: "oidc",
      ...(options.clientId && { issuer: `https://api.descope.com/${encodeURIComponent(options.clientId)}` }),
      checks: ["pkce", "state"],
      profile: standardClaimsProfile,
      style: { bg: "#1C1C23", text: "#ffffff" },
    },
    options,
  )
}

export default Descope
