/**
 * Sign-in with Amazon Cognito user pools.
 * @module gatehouse-auth/providers/cognito
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Cognito ID token. */
export interface CognitoProfile {
  [claim: string]: unknown
  /** The user's id in the pool; the user's `id`. */
  sub: string
  /** The user name in the pool, used as the name when there is none. */
  "cognito:username"?: string
  /** Full name; the user's `name`. */
  name?: string
  /** The email address. */
  email?: string
  /** Whether the pool verified the address. */
  email_verified?: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
}

/**
 * A Cognito user pool app client (with a client secret), through OpenID Connect discovery.
 * `issuer` is required, from this option or `AUTH_COGNITO_ISSUER`: the pool's URL,
 * `https://cognito-idp.<region>.amazonaws.com/<user-pool-id>` — not the hosted UI domain.
 *
 * @example
 * ```ts
 * Cognito({ clientId: env.AUTH_COGNITO_ID, clientSecret: env.AUTH_COGNITO_SECRET, issuer: env.AUTH_COGNITO_ISSUER })
 * ```
 */
export function Cognito(options?: OAuthUserConfig<CognitoProfile>): OAuthConfig {
  return oauthProvider<CognitoProfile>(
    {
      id: "cognito",
      name: "Cognito",
      type: "oidc",
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile["cognito:username"] ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#fff", text: "#C17B9E" },
    },
    options,
  )
}

export default Cognito
