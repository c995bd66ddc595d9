/**
 * Sign-in with Dribbble.
 * @module gatehouse-auth/providers/dribbble
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://api.dribbble.com/v2/user` returns it. */
export interface DribbbleProfile {
  [field: string]: unknown
  /** The numeric user id; the user's `id` (as a string). */
  id: number
  /** The display name; the user's `name`. */
  name: string
  /** The user name. */
  login?: string
  /** The email address, when Dribbble shares it. */
  email?: string | null
  /** The avatar's URL; the user's `image`. */
  avatar_url: string
}

/** Options of {@link Dribbble}. */
export type DribbbleOptions = OAuthUserConfig<DribbbleProfile> & {
  /** The scopes to ask for. Default `public` (read-only); `public upload` also lets the app post shots. */
  scope?: "public" | "public upload"
}

/**
 * A Dribbble application. The profile is `GET /v2/user`.
 *
 * @example
 * ```ts
 * Dribbble({ clientId: env.AUTH_DRIBBBLE_ID, clientSecret: env.AUTH_DRIBBBLE_SECRET })
 * Dribbble({ scope: "public upload" })
 * ```
 */
export function Dribbble(options: DribbbleOptions = {}): OAuthConfig {
  const { scope = "public", ...rest } = options
  return oauthProvider<DribbbleProfile>(
    {
      id: "dribbble",
      name: "Dribbble",
      type: "oauth",
      authorization: { url: "https://dribbble.com/oauth/authorize", params: { scope } },
      token: "https://dribbble.com/oauth/token",
      userinfo: "https://api.dribbble.com/v2/user",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? profile.login ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    rest,
  )
}

export default Dribbble
