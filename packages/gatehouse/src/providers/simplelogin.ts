/**
 * Sign-in with SimpleLogin (OpenID Connect).
 * @module gatehouse-auth/providers/simplelogin
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims SimpleLogin gives about a user. */
export interface SimpleLoginProfile {
  [claim: string]: unknown
  /** The numeric user id. */
  id: number
  /** The user id as a string; the user's `id`. */
  sub: string
  /** The email address (or an alias, if the user chose one); the user's `email`. */
  email: string
  /** Whether SimpleLogin verified the address. */
  email_verified: boolean
  /** The name; the user's `name`. */
  name: string
  /** The avatar's URL, if the user has one; the user's `image`. */
  avatar_url: string | undefined
  /** The name of the app the user signed in to. */
  client: string
}

/**
 * SimpleLogin, through OpenID Connect discovery at `https://app.simplelogin.io`. The user may
 * share a SimpleLogin alias instead of their real address.
 *
 * @example
 * ```ts
 * SimpleLogin({ clientId: env.AUTH_SIMPLELOGIN_ID, clientSecret: env.AUTH_SIMPLELOGIN_SECRET })
 * ```
 */
export function SimpleLogin(options?: OAuthUserConfig<SimpleLoginProfile>): OAuthConfig {
  return oauthProvider<SimpleLoginProfile>(
    {
      id: "simplelogin",
      name: "SimpleLogin",
      type: "oidc",
      issuer: "https://app.simplelogin.io",
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#e3156a", text: "#fff" },
    },
    options,
  )
}

export default SimpleLogin
