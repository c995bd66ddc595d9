/**
 * Sign-in with Twitter (X), OAuth 2.
 * @module gatehouse-auth/providers/twitter
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** What `GET /2/users/me` returns: the user under `data`. */
export interface TwitterProfile {
  [field: string]: unknown
  /** The user, as `GET /2/users/me` wraps it. */
  data: {
    /** The user id. */
    id: string
    /** The display name. */
    name: string
    /** The handle, without `@`. */
    username: string
    /** The profile picture's URL (asked for with `user.fields`). */
    profile_image_url?: string
    /** Only with the `users.email` scope and the `confirmed_email` user field. */
    confirmed_email?: string
  }
}

/**
 * An X (Twitter) app using OAuth 2 with PKCE. X gives no email by default; ask for the
 * `users.email` scope and the `confirmed_email` field (through `authorization` and `userinfo`)
 * if your app is approved for it.
 *
 * @example
 * ```ts
 * Twitter({ clientId: env.AUTH_TWITTER_ID, clientSecret: env.AUTH_TWITTER_SECRET })
 * ```
 */
export function Twitter(options?: OAuthUserConfig<TwitterProfile>): OAuthConfig {
  return oauthProvider<TwitterProfile>(
    {
      id: "twitter",
      name: "Twitter",
      type: "oauth",
      // X rejects authorization requests without a state parameter.
      checks: ["pkce", "state"],
      authorization: {
        url: "https://x.com/i/oauth2/authorize",
        params: { scope: "users.read tweet.read offline.access" },
      },
      token: "https://api.x.com/2/oauth2/token",
      userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url",
      profile: ({ data }) => ({
        id: String(data.id),
        name: data.name ?? data.username,
        email: data.confirmed_email ?? null,
        image: data.profile_image_url ?? null,
      }),
      style: { bg: "#1da1f2", text: "#fff" },
    },
    options,
  )
}

export default Twitter
