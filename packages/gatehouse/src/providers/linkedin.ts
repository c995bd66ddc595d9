/**
 * Sign-in with LinkedIn ("Sign In with LinkedIn using OpenID Connect").
 * @module gatehouse-auth/providers/linkedin
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a LinkedIn ID token. */
export interface LinkedInProfile {
  [claim: string]: unknown
  /** The member's id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name: string
  /** Given name. */
  given_name: string
  /** Family name. */
  family_name: string
  /** The primary email address (with the `email` scope). */
  email?: string
  /** Whether LinkedIn verified the address. */
  email_verified?: boolean
  /** The photo's URL; the user's `image`. */
  picture?: string
  /** The user's locale: a tag, or its parts. */
  locale?:
    | string
    | {
        /** Country code, e.g. `US`. */
        country: string
        /** Language code, e.g. `en`. */
        language: string
      }
}

/**
 * LinkedIn, through OpenID Connect discovery. Needs the "Sign In with LinkedIn using OpenID
 * Connect" product on the app; the legacy `r_liteprofile` API is gone.
 *
 * @example
 * ```ts
 * LinkedIn({ clientId: env.AUTH_LINKEDIN_ID, clientSecret: env.AUTH_LINKEDIN_SECRET })
 * ```
 */
export function LinkedIn(options?: OAuthUserConfig<LinkedInProfile>): OAuthConfig {
  return oauthProvider<LinkedInProfile>(
    {
      id: "linkedin",
      name: "LinkedIn",
      type: "oidc",
      issuer: "https://www.linkedin.com/oauth",
      authorization: { params: { scope: "openid profile email" } },
      // LinkedIn enables PKCE only for native apps, on request; a web app's flow is checked by state.
      checks: ["state"],
      // LinkedIn's token endpoint does not accept HTTP Basic client authentication.
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#069", text: "#fff" },
    },
    options,
  )
}

export default LinkedIn
