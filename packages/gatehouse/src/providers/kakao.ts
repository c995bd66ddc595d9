/**
 * Sign-in with Kakao.
 * @module gatehouse-auth/providers/kakao
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** A date and time as Kakao writes it (ISO 8601, UTC). */
export type DateTime = string
/** The gender Kakao reports. */
export type Gender = "female" | "male"
/** The calendar a birthday is in: solar or lunar. */
export type Birthday = "SOLAR" | "LUNAR"
/** The age bands Kakao reports. */
export type AgeRange = "1-9" | "10-14" | "15-19" | "20-29" | "30-39" | "40-49" | "50-59" | "60-69" | "70-79" | "80-89" | "90-"

/** The user as `GET https://kapi.kakao.com/v2/user/me` returns it; what is filled depends on the consent items. */
export interface KakaoProfile {
  [field: string]: unknown
  /** The numeric user id; the user's `id` (as a string). */
  id: number
  /** Whether the user is signed up to the app (when the app uses manual sign-up). */
  has_signed_up?: boolean
  /** When the user connected to the app. */
  connected_at?: DateTime
  /** When the user last synced through Kakao Sync. */
  synched_at?: DateTime
  /** The app's own user properties. */
  properties?: {
    [property: string]: unknown
    /** The nickname, as a property. */
    nickname?: string
    /** The profile image's URL, as a property. */
    profile_image?: string
    /** The thumbnail's URL, as a property. */
    thumbnail_image?: string
  }
  /** The Kakao account's details. */
  kakao_account?: {
    [field: string]: unknown
    /** The profile (the `profile_nickname` and `profile_image` consent items). */
    profile?: {
      /** The nickname; the user's `name`. */
      nickname?: string
      /** The thumbnail's URL. */
      thumbnail_image_url?: string
      /** The profile image's URL; the user's `image`. */
      profile_image_url?: string
      /** Whether the image is Kakao's default one. */
      is_default_image?: boolean
    }
    /** The real name (`name` consent item). */
    name?: string
    /** The email address (`account_email` consent item); the user's `email`. */
    email?: string
    /** Whether the address is valid. */
    is_email_valid?: boolean
    /** Whether Kakao verified the address. */
    is_email_verified?: boolean
    /** The age band. */
    age_range?: AgeRange
    /** The birth year, `YYYY`. */
    birthyear?: string
    /** The birthday, `MMDD`. */
    birthday?: string
    /** The birthday's calendar. */
    birthday_type?: Birthday
    /** The gender. */
    gender?: Gender
    /** The phone number, `+82 00-0000-0000`. */
    phone_number?: string
    /** The connecting information (for identity verification). */
    ci?: string
    /** When the connecting information was verified. */
    ci_authenticated_at?: DateTime
  }
}

/**
 * A Kakao Login app (REST API key as `clientId`, the Kakao Login client secret as `clientSecret`).
 * Kakao takes the client credentials in the token request's body (`client_secret_post`), and the
 * profile from `/v2/user/me` keeps the nickname, picture and email under `kakao_account`. The
 * scope is left empty, so Kakao asks for the consent items set up for the app.
 *
 * @example
 * ```ts
 * Kakao({ clientId: env.AUTH_KAKAO_ID, clientSecret: env.AUTH_KAKAO_SECRET })
 * ```
 */
export function Kakao(options?: OAuthUserConfig<KakaoProfile>): OAuthConfig {
  return oauthProvider<KakaoProfile>(
    {
      id: "kakao",
      name: "Kakao",
      type: "oauth",
      authorization: { url: "https://kauth.kakao.com/oauth/authorize", params: { scope: "" } },
      token: "https://kauth.kakao.com/oauth/token",
      userinfo: "https://kapi.kakao.com/v2/user/me",
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.kakao_account?.profile?.nickname ?? null,
        email: profile.kakao_account?.email ?? null,
        image: profile.kakao_account?.profile?.profile_image_url ?? null,
      }),
      style: { bg: "#FEE500", text: "#191919" },
    },
    options,
  )
}

export default Kakao
