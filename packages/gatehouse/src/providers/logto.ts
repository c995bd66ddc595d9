/**
 * Sign-in with Logto (OpenID Connect).
 * @module gatehouse-auth/providers/logto
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Logto ID token (with the `profile` and `email` scopes), plus any other. */
export interface LogtoProfile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string | null
  /** The username, used as the name when there is none. */
  username?: string | null
  /** The avatar's URL; the user's `image`. */
  picture?: string | null
  /** The email address (`email` scope). */
  email?: string | null
  /** Whether Logto verified the address. */
  email_verified?: boolean
  /** The phone number (`phone` scope). */
  phone_number?: string | null
  /** Whether Logto verified the phone number. */
  phone_number_verified?: boolean
  /** The user's custom data (`custom_data` scope). */
  custom_data?: object
  /** The user's social identities (`identities` scope). */
  identities?: object
  /** The ids of the user's organizations (`urn:logto:scope:organizations`). */
  organizations?: string[]
  /** The user's organization roles, as `<organization id>:<role name>`. */
  organization_roles?: string[]
}

/**
 * A Logto application, through OpenID Connect discovery, asking for a refresh token too
 * (`offline_access`). `issuer` is required, from this option or `AUTH_LOGTO_ISSUER`: the
 * endpoint's OIDC URL, e.g. `https://tenant.logto.app/oidc`.
 *
 * @example
 * ```ts
 * Logto({ clientId: env.AUTH_LOGTO_ID, clientSecret: env.AUTH_LOGTO_SECRET, issuer: env.AUTH_LOGTO_ISSUER })
 * ```
 */
export function Logto(options?: OAuthUserConfig<LogtoProfile>): OAuthConfig {
  return oauthProvider<LogtoProfile>(
    {
      id: "logto",
      name: "Logto",
      type: "oidc",
      authorization: { params: { scope: "offline_access openid email profile" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#5D34F2", text: "#fff" },
    },
    options,
  )
}

export default Logto
