/**
 * Sign-in with Facebook.
 * @module gatehouse-auth/providers/facebook
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as the Graph API's `/me?fields=id,name,email,picture` returns it. */
export interface FacebookProfile {
  [field: string]: unknown
  /** App-scoped user id. */
  id: string
  /** Full name; the user's `name`. */
  name?: string
  /** Absent when the user has no confirmed email or declined the `email` permission. */
  email?: string
  /** The profile picture (asked for with the `picture` field). */
  picture?: {
    /** The picture's details. */
    data: {
      /** The picture's URL; the user's `image`. */
      url: string
      /** Width in pixels. */
      width?: number
      /** Height in pixels. */
      height?: number
      /** `true` when the user has no picture and this is the default silhouette. */
      is_silhouette?: boolean
    }
  }
}

/**
 * A Meta app with Facebook Login. The Graph API calls carry no version, so they use the one your
 * app is pinned to in the Meta dashboard; put a version in the URLs to pin it here instead.
 *
 * @example
 * ```ts
 * Facebook({ clientId: env.AUTH_FACEBOOK_ID, clientSecret: env.AUTH_FACEBOOK_SECRET })
 * ```
 */
export function Facebook(options?: OAuthUserConfig<FacebookProfile>): OAuthConfig {
  return oauthProvider<FacebookProfile>(
    {
      id: "facebook",
      name: "Facebook",
      type: "oauth",
      authorization: { url: "https://www.facebook.com/dialog/oauth", params: { scope: "email" } },
      token: "https://graph.facebook.com/oauth/access_token",
      // The Graph API returns only id and name unless the fields are named.
      userinfo: "https://graph.facebook.com/me?fields=id,name,email,picture",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture?.data.url ?? null,
      }),
      style: { bg: "#006aff", text: "#fff" },
    },
    options,
  )
}

export default Facebook
