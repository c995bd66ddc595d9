/**
 * Sign-in with Auth0.
 * @module gatehouse-auth/providers/auth0
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of an Auth0 ID token. */
export interface Auth0Profile {
  [claim: string]: unknown
  /** `<connection>|<id>`, e.g. `auth0|64b1…` or `google-oauth2|1093…`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** The nickname, used as the name when there is none. */
  nickname?: string
  /** The email address. */
  email?: string
  /** Whether Auth0 (or the upstream connection) checked the address. */
  email_verified?: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
}

/**
 * An Auth0 application, through OpenID Connect discovery. `issuer` is required: your tenant's
 * domain, e.g. `https://dev-abc123.us.auth0.com` (or your custom domain), from this option or
 * from `AUTH_AUTH0_ISSUER`.
 *
 * @example
 * ```ts
 * Auth0({ clientId: env.AUTH_AUTH0_ID, clientSecret: env.AUTH_AUTH0_SECRET, issuer: env.AUTH_AUTH0_ISSUER })
 * ```
 */
export function Auth0(options?: OAuthUserConfig<Auth0Profile>): OAuthConfig {
  return oauthProvider<Auth0Profile>(
    {
      id: "auth0",
      name: "Auth0",
      type: "oidc",
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#EB5424", text: "#fff" },
    },
    options,
  )
}

export default Auth0
