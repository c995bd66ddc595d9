/**
 * Sign-in with Pinterest.
 * @module gatehouse-auth/providers/pinterest
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The account as `GET /v5/user_account` returns it. */
export interface PinterestProfile {
  [field: string]: unknown
  /** `BUSINESS` or `PINNER`. */
  account_type: "BUSINESS" | "PINNER"
  /** The profile image's URL; the user's `image`. */
  profile_image: string
  /** The website the user lists. */
  website_url: string
  /** The username; the user's `id` and `name`. */
  username: string
}

/**
 * A Pinterest app with the `user_accounts:read` scope. Pinterest gives no email address; the
 * account is known by its username (which its owner can change).
 *
 * @example
 * ```ts
 * PinterestProvider({ clientId: env.AUTH_PINTEREST_ID, clientSecret: env.AUTH_PINTEREST_SECRET })
 * ```
 */
export function PinterestProvider(options?: OAuthUserConfig<PinterestProfile>): OAuthConfig {
  return oauthProvider<PinterestProfile>(
    {
      id: "pinterest",
      name: "Pinterest",
      type: "oauth",
      authorization: { url: "https://www.pinterest.com/oauth", params: { scope: "user_accounts:read" } },
      token: "https://api.pinterest.com/v5/oauth/token",
      userinfo: "https://api.pinterest.com/v5/user_account",
      // The username is the account's id, as in Auth.js, so accounts it stored are found again.
      profile: (profile) => ({
        id: profile.username,
        name: profile.username,
        email: null,
        image: profile.profile_image ?? null,
      }),
      style: { bg: "#bd081c", text: "#fff" },
    },
    options,
  )
}

export default PinterestProvider
