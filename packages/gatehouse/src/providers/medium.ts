/**
 * Sign-in with Medium.
 * @module gatehouse-auth/providers/medium
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The answer of `GET https://api.medium.com/v1/me`: the user is under `data`. */
export interface MediumProfile {
  [field: string]: unknown
  /** The user. */
  data: {
    [field: string]: unknown
    /** The user's id; the user's `id`. */
    id: string
    /** The username. */
    username: string
    /** The display name; the user's `name`. */
    name: string
    /** The user's page on Medium. */
    url: string
    /** The avatar's URL; the user's `image`. */
    imageUrl: string
  }
}

/**
 * A Medium integration with the `basicProfile` scope. Medium gives no email address.
 *
 * @example
 * ```ts
 * Medium({ clientId: env.AUTH_MEDIUM_ID, clientSecret: env.AUTH_MEDIUM_SECRET })
 * ```
 */
export function Medium(options?: OAuthUserConfig<MediumProfile>): OAuthConfig {
  return oauthProvider<MediumProfile>(
    {
      id: "medium",
      name: "Medium",
      type: "oauth",
      authorization: { url: "https://medium.com/m/oauth/authorize", params: { scope: "basicProfile" } },
      token: "https://api.medium.com/v1/tokens",
      userinfo: "https://api.medium.com/v1/me",
      profile: (profile) => ({
        id: profile.data.id,
        name: profile.data.name ?? null,
        email: null,
        image: profile.data.imageUrl ?? null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default Medium
