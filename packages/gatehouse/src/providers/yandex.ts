/**
 * Sign-in with Yandex ID.
 * @module gatehouse-auth/providers/yandex
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://login.yandex.ru/info?format=json` returns it; the fields depend on the scopes. */
export interface YandexProfile {
  [field: string]: unknown
  /** The login. */
  login: string
  /** The Yandex user id; the user's `id`. */
  id: string
  /** The app the token was issued to. */
  client_id: string
  /** The user id for this app. */
  psuid: string
  /** The user's addresses (with `login:email`). */
  emails?: string[]
  /** The default address (with `login:email`); the user's `email`. */
  default_email?: string
  /** Whether the user has no avatar (with `login:avatar`). */
  is_avatar_empty?: boolean
  /** The avatar's id, for `https://avatars.yandex.net/get-yapic/<id>/<size>`. */
  default_avatar_id?: string
  /** Date of birth, `YYYY-MM-DD` (with `login:birthday`). */
  birthday?: string | null
  /** First name (with `login:info`). */
  first_name?: string
  /** Last name (with `login:info`). */
  last_name?: string
  /** The display name; the user's `name`. */
  display_name?: string
  /** First and last name. */
  real_name?: string
  /** `male`, `female` or `null` (with `login:info`). */
  sex?: "male" | "female" | null
  /** The default phone number (with `login:default_phone`). */
  default_phone?: {
    /** The number's id. */
    id: number
    /** The number. */
    number: string
  }
}

/**
 * A Yandex ID app with the `login:info`, `login:email` and `login:avatar` scopes.
 *
 * @example
 * ```ts
 * Yandex({ clientId: env.AUTH_YANDEX_ID, clientSecret: env.AUTH_YANDEX_SECRET })
 * ```
 */
export function Yandex(options?: OAuthUserConfig<YandexProfile>): OAuthConfig {
  return oauthProvider<YandexProfile>(
    {
      id: "yandex",
      name: "Yandex",
      type: "oauth",
      authorization: { url: "https://oauth.yandex.ru/authorize", params: { scope: "login:info login:email login:avatar" } },
      token: "https://oauth.yandex.ru/token",
      userinfo: "https://login.yandex.ru/info?format=json",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.display_name ?? profile.real_name ?? profile.first_name ?? null,
        email: profile.default_email ?? profile.emails?.[0] ?? null,
        image:
          !profile.is_avatar_empty && profile.default_avatar_id
            ? `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200`
            : null,
      }),
      style: { bg: "#ffcc00", text: "#000" },
    },
    options,
  )
}

export default Yandex
