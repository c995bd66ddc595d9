/**
 * Sign-in with Box.
 * @module gatehouse-auth/providers/box
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://api.box.com/2.0/users/me` returns it. */
export interface BoxProfile {
  [field: string]: unknown
  /** The user id; the user's `id`. */
  id: string
  /** The display name; the user's `name`. */
  name: string
  /** The login, an email address; the user's `email`. */
  login: string
  /** The avatar's URL; the user's `image`. */
  avatar_url?: string
}

/**
 * A Box app with OAuth 2.0 user authentication. The profile is `GET /2.0/users/me`.
 *
 * @example
 * ```ts
 * Box({ clientId: env.AUTH_BOX_ID, clientSecret: env.AUTH_BOX_SECRET })
 * ```
 */
export function Box(options?: OAuthUserConfig<BoxProfile>): OAuthConfig {
  return oauthProvider<BoxProfile>(
    {
      id: "box",
      name: "Box",
      type: "oauth",
      authorization: "https://account.box.com/api/oauth2/authorize",
      token: "https://api.box.com/oauth2/token",
      userinfo: "https://api.box.com/2.0/users/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? null,
        email: profile.login ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#0075C9", text: "#fff" },
    },
    options,
  )
}

export default Box
