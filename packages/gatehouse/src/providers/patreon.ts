/**
 * Sign-in with Patreon.
 * @module gatehouse-auth/providers/patreon
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** What `GET /api/oauth2/api/current_user` returns: the user under `data`. */
export interface PatreonProfile {
  [field: string]: unknown
  /** The user, as the API wraps it. */
  data: {
    /** The Patreon user id; the user's `id`. */
    id: string
    /** Always `user`. */
    type?: string
    /** What the user has told Patreon. */
    attributes: {
      /** Full name; the user's `name`. */
      full_name: string | null
      /** The email address (with the `identity[email]` scope). */
      email?: string | null
      /** Whether Patreon verified the address. */
      is_email_verified?: boolean
      /** The avatar's URL; the user's `image`. */
      image_url?: string | null
      /** First name. */
      first_name?: string | null
      /** Last name. */
      last_name?: string | null
      /** The user's page on Patreon. */
      url?: string
      /** The vanity name in the page's URL. */
      vanity?: string | null
      [attribute: string]: unknown
    }
  }
}

/**
 * A Patreon client with the `identity` and `identity[email]` scopes.
 *
 * @example
 * ```ts
 * Patreon({ clientId: env.AUTH_PATREON_ID, clientSecret: env.AUTH_PATREON_SECRET })
 * ```
 */
export function Patreon(options?: OAuthUserConfig<PatreonProfile>): OAuthConfig {
  return oauthProvider<PatreonProfile>(
    {
      id: "patreon",
      name: "Patreon",
      type: "oauth",
      authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
      token: "https://www.patreon.com/api/oauth2/token",
      userinfo: "https://www.patreon.com/api/oauth2/api/current_user",
      profile: ({ data }) => ({
        id: String(data.id),
        name: data.attributes.full_name ?? null,
        email: data.attributes.email ?? null,
        image: data.attributes.image_url ?? null,
      }),
      style: { bg: "#e85b46", text: "#fff" },
    },
    options,
  )
}

export default Patreon
