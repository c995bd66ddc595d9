/**
 * Sign-in with Reddit.
 * @module gatehouse-auth/providers/reddit
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /api/v1/me` returns it. */
export interface RedditProfile {
  [field: string]: unknown
  /** The account id without its `t2_` prefix. */
  id: string
  /** The username. */
  name: string
  /** HTML-escaped: query strings come with `&amp;`. */
  icon_img?: string
  /** The user's Snoovatar image URL, if they made one. */
  snoovatar_img?: string
}

/**
 * A Reddit "web app" with the `identity` scope. Reddit gives no email. Its access tokens last an
 * hour; for a refresh token add `authorization: { params: { duration: "permanent" } }`.
 *
 * @example
 * ```ts
 * Reddit({ clientId: env.AUTH_REDDIT_ID, clientSecret: env.AUTH_REDDIT_SECRET })
 * ```
 */
export function Reddit(options?: OAuthUserConfig<RedditProfile>): OAuthConfig {
  return oauthProvider<RedditProfile>(
    {
      id: "reddit",
      name: "Reddit",
      type: "oauth",
      // Reddit requires `state` and does not support PKCE.
      checks: ["state"],
      authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity" } },
      token: "https://www.reddit.com/api/v1/access_token",
      userinfo: "https://oauth.reddit.com/api/v1/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? null,
        email: null,
        image: profile.icon_img ? profile.icon_img.replaceAll("&amp;", "&") : null,
      }),
      style: { bg: "#FF4500", text: "#fff" },
    },
    options,
  )
}

export default Reddit
