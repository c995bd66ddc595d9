/**
 * Sign-in with Strava.
 * @module gatehouse-auth/providers/strava
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The athlete as `GET /api/v3/athlete` returns it. */
export interface StravaProfile {
  [field: string]: unknown
  /** The athlete id; the user's `id` (as a string). */
  id: number
  /** The username, used as the name when the athlete gives no name. */
  username: string | null
  /** First name; with `lastname`, the user's `name`. */
  firstname: string
  /** Last name. */
  lastname: string
  /** The 124×124 picture. */
  profile: string
  /** The 62×62 picture. */
  profile_medium?: string
}

/**
 * A Strava API application with the `read` scope. Strava never shares the athlete's email.
 *
 * @example
 * ```ts
 * Strava({ clientId: env.AUTH_STRAVA_ID, clientSecret: env.AUTH_STRAVA_SECRET })
 * ```
 */
export function Strava(options?: OAuthUserConfig<StravaProfile>): OAuthConfig {
  return oauthProvider<StravaProfile>(
    {
      id: "strava",
      name: "Strava",
      type: "oauth",
      authorization: {
        url: "https://www.strava.com/api/v3/oauth/authorize",
        // `auto` skips the consent screen for athletes who already authorized the app.
        params: { scope: "read", approval_prompt: "auto" },
      },
      token: "https://www.strava.com/api/v3/oauth/token",
      userinfo: "https://www.strava.com/api/v3/athlete",
      // Strava expects the client credentials in the form body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.id),
        name: [profile.firstname, profile.lastname].filter(Boolean).join(" ") || profile.username || null,
        email: null,
        image: profile.profile ?? null,
      }),
      style: { bg: "#FC4C02", text: "#fff" },
    },
    options,
  )
}

export default Strava
