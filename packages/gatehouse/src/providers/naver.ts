/**
 * Sign-in with Naver.
 * @module gatehouse-auth/providers/naver
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The answer of `GET https://openapi.naver.com/v1/nid/me`: the user is under `response`. */
export interface NaverProfile {
  [field: string]: unknown
  /** `00` on success. */
  resultcode: string
  /** `success` on success. */
  message: string
  /** The user; what is filled depends on the items the user agreed to share. */
  response: {
    [field: string]: unknown
    /** The user's id for this app; the user's `id`. */
    id: string
    /** The nickname; the user's `name`. */
    nickname?: string
    /** The real name. */
    name?: string
    /** The email address; the user's `email`. */
    email?: string
    /** `F`, `M` or `U`. */
    gender?: "F" | "M" | "U"
    /** The age band, e.g. `20-29`. */
    age?: string
    /** The birthday, `MM-DD`. */
    birthday?: string
    /** The profile image's URL; the user's `image`. */
    profile_image?: string
    /** The birth year. */
    birthyear?: string
    /** The mobile number. */
    mobile?: string
  }
}

/**
 * A Naver Login application. The profile from `/v1/nid/me` is under `response`.
 *
 * @example
 * ```ts
 * Naver({ clientId: env.AUTH_NAVER_ID, clientSecret: env.AUTH_NAVER_SECRET })
 * ```
 */
export function Naver(options?: OAuthUserConfig<NaverProfile>): OAuthConfig {
  return oauthProvider<NaverProfile>(
    {
      id: "naver",
      name: "Naver",
      type: "oauth",
      authorization: "https://nid.naver.com/oauth2.0/authorize",
      token: "https://nid.naver.com/oauth2.0/token",
      userinfo: "https://openapi.naver.com/v1/nid/me",
      profile: (profile) => ({
        id: profile.response.id,
        name: profile.response.nickname ?? null,
        email: profile.response.email ?? null,
        image: profile.response.profile_image ?? null,
      }),
      style: { bg: "#03C75A", text: "#fff" },
    },
    options,
  )
}

export default Naver
