/**
 * Sign-in with Concept2 (the Concept2 Logbook).
 * @module gatehouse-auth/providers/concept2
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** A Concept2 Logbook user (what `GET https://log.concept2.com/api/users/me` returns under `data`). */
export interface Concept2Profile {
  [field: string]: unknown
  /** The numeric user id; the user's `id` (as a string). */
  id: number
  /** The logbook user name; the user's `name`. */
  username: string
  /** The first name. */
  first_name: string
  /** The last name. */
  last_name: string
  /** The email address. */
  email: string
  /** The profile picture's URL; the user's `image`. */
  profile_image: string | null
  /** `M` or `F`. */
  gender?: string
  /** Date of birth. */
  dob?: string
  /** Country code. */
  country?: string
  /** Whether the user is under the logbook's age limit. */
  age_restricted?: boolean
  /** Whether the user agreed to emails. */
  email_permission?: boolean | null
  /** Maximum heart rate. */
  max_heart_rate?: number | null
  /** Weight. */
  weight?: number | null
  /** Who may see the logbook. */
  logbook_privacy?: string | null
}

/** The answer of `GET https://log.concept2.com/api/users/me`: the user under `data`. */
export interface Concept2UserResponse {
  [field: string]: unknown
  /** The user. */
  data: Concept2Profile
}

/**
 * A Concept2 Logbook API application, asking for `user:read,results:write` (Concept2 separates
 * scopes with commas). The profile is `data` of `GET /api/users/me`.
 *
 * @example
 * ```ts
 * Concept2({ clientId: env.AUTH_CONCEPT2_ID, clientSecret: env.AUTH_CONCEPT2_SECRET })
 * Concept2({ authorization: { params: { scope: "user:read" } } }) // read-only
 * ```
 */
export function Concept2(options?: OAuthUserConfig<Concept2UserResponse>): OAuthConfig {
  return oauthProvider<Concept2UserResponse>(
    {
      id: "concept2",
      name: "Concept2",
      type: "oauth",
      authorization: { url: "https://log.concept2.com/oauth/authorize", params: { scope: "user:read,results:write" } },
      token: "https://log.concept2.com/oauth/access_token",
      userinfo: "https://log.concept2.com/api/users/me",
      profile: ({ data: user }) => ({
        id: String(user.id),
        name: user.username ?? null,
        email: user.email ?? null,
        image: user.profile_image ?? null,
      }),
      style: { bg: "#003a70", text: "#fff" },
    },
    options,
  )
}

export default Concept2
