/**
 * Sign-in with osu!.
 * @module gatehouse-auth/providers/osu
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The fields every osu! user object has. */
export interface OsuUserCompact {
  /** The avatar's URL; the user's `image`. */
  avatar_url: string
  /** Two-letter country code. */
  country_code: string
  /** The user's default group. */
  default_group: string
  /** The numeric user id; the user's `id` (as a string). */
  id: number
  /** Whether the account is active. */
  is_active: boolean
  /** Whether the account is a bot. */
  is_bot: boolean
  /** Whether the account is deleted. */
  is_deleted: boolean
  /** Whether the user is online. */
  is_online: boolean
  /** Whether the user has osu!supporter. */
  is_supporter: boolean
  /** The last visit, when the user shows it. */
  last_visit: string | null
  /** Whether only friends can message the user. */
  pm_friends_only: boolean
  /** The profile colour. */
  profile_colour: string | null
  /** The username; the user's `name`. */
  username: string
}

/** The user as `GET https://osu.ppy.sh/api/v2/me` returns it. osu! has no email for apps. */
export interface OsuProfile extends OsuUserCompact {
  [field: string]: unknown
  /** The Discord tag the user shows. */
  discord: string | null
  /** Whether the user ever had osu!supporter. */
  has_supported: boolean
  /** The user's interests. */
  interests: string | null
  /** When the user joined. */
  join_date: string
  /** The user's location. */
  location: string | null
  /** The user's occupation. */
  occupation: string | null
  /** The user's main game mode. */
  playmode: string
  /** The user's title. */
  title: string | null
  /** The user's Twitter handle. */
  twitter: string | null
  /** The user's website. */
  website: string | null
  /** The user's country. */
  country: {
    /** Two-letter code. */
    code: string
    /** The country's name. */
    name: string
  }
  /** Whether the account is restricted. */
  is_restricted: boolean
}

/**
 * An osu! OAuth application with the `identify` scope. osu! gives no email address.
 *
 * @example
 * ```ts
 * Osu({ clientId: env.AUTH_OSU_ID, clientSecret: env.AUTH_OSU_SECRET })
 * ```
 */
export function Osu(options?: OAuthUserConfig<OsuProfile>): OAuthConfig {
  return oauthProvider<OsuProfile>(
    {
      id: "osu",
      name: "osu!",
      type: "oauth",
      authorization: { url: "https://osu.ppy.sh/oauth/authorize", params: { scope: "identify" } },
      token: "https://osu.ppy.sh/oauth/token",
      userinfo: "https://osu.ppy.sh/api/v2/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.username,
        email: null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#FF66AA", text: "#fff" },
    },
    options,
  )
}

export default Osu
