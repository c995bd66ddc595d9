/**
 * Sign-in with Instagram (the Basic Display API).
 * @module gatehouse-auth/providers/instagram
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, withBearerTokenType, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://graph.instagram.com/me?fields=id,username,account_type,name` returns it. */
export interface InstagramProfile {
  [field: string]: unknown
  /** The user's id for this app; the user's `id`. */
  id: string
  /** The username; the user's `name`. */
  username: string
  /** `BUSINESS`, `MEDIA_CREATOR` or `PERSONAL`. */
  account_type?: string
  /** The display name. */
  name?: string
}

/**
 * An Instagram app with the `user_profile` scope. Instagram takes the client credentials in the
 * token request's body (`client_secret_post`), answers it without a `token_type` (which OAuth
 * clients require; Gatehouse fills in `bearer`), and serves the profile from the Graph API with
 * the fields named in the URL. Instagram gives no email address.
 *
 * @example
 * ```ts
 * Instagram({ clientId: env.AUTH_INSTAGRAM_ID, clientSecret: env.AUTH_INSTAGRAM_SECRET })
 * ```
 */
export function Instagram(options?: OAuthUserConfig<InstagramProfile>): OAuthConfig {
  return oauthProvider<InstagramProfile>(
    {
      id: "instagram",
      name: "Instagram",
      type: "oauth",
      authorization: { url: "https://api.instagram.com/oauth/authorize", params: { scope: "user_profile" } },
      token: { url: "https://api.instagram.com/oauth/access_token", conform: withBearerTokenType },
      userinfo: "https://graph.instagram.com/me?fields=id,username,account_type,name",
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.username ?? null,
        email: null,
        image: null,
      }),
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}

export default Instagram
