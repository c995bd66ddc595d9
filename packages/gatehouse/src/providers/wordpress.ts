/**
 * Sign-in with WordPress.com.
 * @module gatehouse-auth/providers/wordpress
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /rest/v1/me` returns it. */
export interface WordPressProfile {
  [field: string]: unknown
  /** The numeric user id; the user's `id` (as a string). */
  ID: number
  /** The display name; the user's `name`. */
  display_name: string
  /** The username. */
  username: string
  /** The email address. */
  email: string
  /** Whether the user verified the address with WordPress.com. */
  email_verified?: boolean
  /** The avatar's URL; the user's `image`. */
  avatar_URL: string
  /** The user's profile page. */
  profile_URL?: string
  /** The user's primary site's id. */
  primary_blog?: number
}

/**
 * A WordPress.com app with the `auth` scope (the user's identity only).
 *
 * @example
 * ```ts
 * WordPress({ clientId: env.AUTH_WORDPRESS_ID, clientSecret: env.AUTH_WORDPRESS_SECRET })
 * ```
 */
export function WordPress(options?: OAuthUserConfig<WordPressProfile>): OAuthConfig {
  return oauthProvider<WordPressProfile>(
    {
      id: "wordpress",
      name: "WordPress.com",
      type: "oauth",
      authorization: { url: "https://public-api.wordpress.com/oauth2/authorize", params: { scope: "auth" } },
      token: "https://public-api.wordpress.com/oauth2/token",
      userinfo: "https://public-api.wordpress.com/rest/v1/me",
      profile: (profile) => ({
        id: String(profile.ID),
        name: profile.display_name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_URL ?? null,
      }),
      style: { bg: "#21759b", text: "#fff" },
    },
    options,
  )
}

export default WordPress
