/**
 * Sign-in with Trakt.
 * @module gatehouse-auth/providers/trakt
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /users/me?extended=full` returns it. */
export interface TraktUser {
  [field: string]: unknown
  /** The username. */
  username: string
  /** Whether the profile is private. */
  private: boolean
  /** The display name; the user's `name`. */
  name: string
  /** Whether the user is a VIP. */
  vip: boolean
  /** Whether the user is a VIP executive producer. */
  vip_ep: boolean
  /** The user's ids. */
  ids: {
    /** The URL slug of the username; the user's `id`, as in Auth.js. */
    slug: string
    /** The permanent UUID. */
    uuid?: string
  }
  /** When the user joined, ISO 8601. */
  joined_at: string
  /** Where the user is. */
  location: string | null
  /** The user's bio. */
  about: string | null
  /** The user's gender. */
  gender: string | null
  /** The user's age. */
  age: number | null
  /** The user's pictures. */
  images: {
    /** The avatar. */
    avatar: {
      /** The avatar's URL; the user's `image`. */
      full: string
    }
  }
}

const ME = "https://api.trakt.tv/users/me?extended=full"

/**
 * A Trakt API app. Every API call names the API version and the app (its client id) in headers.
 * Trakt gives no email address, and does not allow hot-linking its avatars.
 *
 * @example
 * ```ts
 * Trakt({ clientId: env.AUTH_TRAKT_ID, clientSecret: env.AUTH_TRAKT_SECRET })
 * ```
 */
export function Trakt(options?: OAuthUserConfig<TraktUser>): OAuthConfig {
  return oauthProvider<TraktUser>(
    {
      id: "trakt",
      name: "Trakt",
      type: "oauth",
      // Trakt grants what the app is registered for; an empty scope keeps the OpenID default out.
      authorization: { url: "https://trakt.tv/oauth/authorize", params: { scope: "" } },
      token: "https://api.trakt.tv/oauth/token",
      userinfo: {
        url: ME,
        request: (context) =>
          fetchJson(context, endpointUrl(context.provider.userinfo, ME), {
            headers: { "trakt-api-version": "2", "trakt-api-key": context.provider.clientId ?? "" },
          }),
      },
      profile: (profile) => ({
        id: profile.ids.slug,
        name: profile.name || profile.username || null,
        email: null,
        image: profile.images?.avatar?.full ?? null,
      }),
      style: { bg: "#ED2224", text: "#fff" },
    },
    options,
  )
}

export default Trakt
