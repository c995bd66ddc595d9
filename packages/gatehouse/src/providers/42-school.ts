/**
 * Sign-in with 42 (the intranet of the 42 network of schools).
 * @module gatehouse-auth/providers/42-school
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://api.intra.42.fr/v2/me` returns it (the fields Gatehouse reads, and a few more). */
export interface FortyTwoProfile {
  [field: string]: unknown
  /** The numeric user id; the user's `id` (as a string). */
  id: number
  /** The intranet login, e.g. `alovelac`. */
  login: string
  /** The email address the school gave the student. */
  email: string | null
  /** The name the student chose to be called by; the user's `name`. */
  usual_full_name: string | null
  /** The legal first name. */
  first_name?: string
  /** The legal last name. */
  last_name?: string
  /** The full name as the intranet shows it. */
  displayname?: string
  /** The profile picture: `link` is the user's `image`, `versions` its smaller sizes. */
  image?: {
    /** The picture's URL at full size. */
    link: string | null
    /** The same picture in other sizes. */
    versions?: Record<string, string | null>
  } | null
  /** The student's page on the intranet. */
  url?: string
}

/**
 * A 42 intranet application (`public` scope). The profile is `GET /v2/me`.
 *
 * @example
 * ```ts
 * FortyTwo({ clientId: env.AUTH_42_SCHOOL_ID, clientSecret: env.AUTH_42_SCHOOL_SECRET })
 * ```
 */
export function FortyTwo(options?: OAuthUserConfig<FortyTwoProfile>): OAuthConfig {
  return oauthProvider<FortyTwoProfile>(
    {
      id: "42-school",
      name: "42 School",
      type: "oauth",
      authorization: { url: "https://api.intra.42.fr/oauth/authorize", params: { scope: "public" } },
      token: "https://api.intra.42.fr/oauth/token",
      userinfo: "https://api.intra.42.fr/v2/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.usual_full_name ?? profile.displayname ?? profile.login ?? null,
        email: profile.email ?? null,
        image: profile.image?.link ?? null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default FortyTwo
