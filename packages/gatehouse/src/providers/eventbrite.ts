/**
 * Sign-in with Eventbrite.
 * @module gatehouse-auth/providers/eventbrite
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://www.eventbriteapi.com/v3/users/me/` returns it. */
export interface EventbriteProfile {
  [field: string]: unknown
  /** The user id; the user's `id`. */
  id: string
  /** The full name; the user's `name`. */
  name: string
  /** The first name. */
  first_name: string
  /** The last name. */
  last_name: string
  /** The user's addresses; the primary one is the user's `email`. */
  emails: {
    /** The address. */
    email: string
    /** Whether Eventbrite verified it. */
    verified: boolean
    /** Whether it is the primary address. */
    primary: boolean
  }[]
  /** The id of the profile image on Eventbrite's image service; the user's `image` (as a URL). */
  image_id: string | null
}

/**
 * An Eventbrite app (`user.profile` scope). The client authenticates with its secret in the
 * form. The profile is `GET /v3/users/me/`; the email is the primary one.
 *
 * @example
 * ```ts
 * Eventbrite({ clientId: env.AUTH_EVENTBRITE_ID, clientSecret: env.AUTH_EVENTBRITE_SECRET })
 * ```
 */
export function Eventbrite(options?: OAuthUserConfig<EventbriteProfile>): OAuthConfig {
  return oauthProvider<EventbriteProfile>(
    {
      id: "eventbrite",
      name: "Eventbrite",
      type: "oauth",
      authorization: { url: "https://www.eventbrite.com/oauth/authorize", params: { scope: "user.profile" } },
      token: "https://www.eventbrite.com/oauth/token",
      userinfo: "https://www.eventbriteapi.com/v3/users/me/",
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? null,
        email: profile.emails?.find((entry) => entry.primary)?.email ?? null,
        image: profile.image_id
          ? `https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F${encodeURIComponent(profile.image_id)}%2F1%2Foriginal.jpg`
          : null,
      }),
      style: { bg: "#f05537", text: "#fff" },
    },
    options,
  )
}

export default Eventbrite
