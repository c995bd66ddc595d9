/**
 * Sign-in with Roblox (OpenID Connect).
 * @module gatehouse-auth/providers/roblox
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Roblox ID token (with the `profile` scope). */
export interface RobloxProfile {
  [claim: string]: unknown
  /** The Roblox user id; the user's `id`. */
  sub: string
  /** The display name; the user's `name`. */
  name: string
  /** The display name again. */
  nickname: string
  /** The username, used as the name when there is none. */
  preferred_username: string
  /** When the account was made, in seconds since the epoch. */
  created_at: number
  /** The user's profile page. */
  profile: string
  /** The avatar headshot's URL, if the user has one; the user's `image`. */
  picture: string | null
}

/**
 * Roblox, through OpenID Connect discovery at `https://apis.roblox.com/oauth/`. Roblox gives no
 * email address.
 *
 * @example
 * ```ts
 * Roblox({ clientId: env.AUTH_ROBLOX_ID, clientSecret: env.AUTH_ROBLOX_SECRET })
 * ```
 */
export function Roblox(options?: OAuthUserConfig<RobloxProfile>): OAuthConfig {
  return oauthProvider<RobloxProfile>(
    {
      id: "roblox",
      name: "Roblox",
      type: "oidc",
      issuer: "https://apis.roblox.com/oauth/",
      authorization: { params: { scope: "openid profile" } },
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
        email: null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#5865F2", text: "#fff" },
    },
    options,
  )
}

export default Roblox
