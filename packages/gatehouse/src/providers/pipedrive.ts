/**
 * Sign-in with Pipedrive.
 * @module gatehouse-auth/providers/pipedrive
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** What `GET /users/me` returns: the user under `data`. */
export interface PipedriveProfile {
  [field: string]: unknown
  /** Whether the call succeeded. */
  success: boolean
  /** The user. */
  data: {
    [field: string]: unknown
    /** The numeric user id; the user's `id` (as a string). */
    id: number
    /** The name; the user's `name`. */
    name: string
    /** The email address. */
    email: string
    /** The avatar's URL; the user's `image`. */
    icon_url?: string | null
    /** The user's locale, e.g. `en_US`. */
    locale?: string
    /** The user's time zone, e.g. `Europe/Tallinn`. */
    timezone_name?: string
    /** The company the user signed in to. */
    company_id?: number
    /** The company's name. */
    company_name?: string
    /** The company's Pipedrive subdomain. */
    company_domain?: string
    /** Whether the user is an admin of the company (`1`) or not (`0`). */
    is_admin?: number
  }
}

/**
 * A Pipedrive app. Pipedrive grants the scopes set on the app in its Developer Hub.
 *
 * @example
 * ```ts
 * Pipedrive({ clientId: env.AUTH_PIPEDRIVE_ID, clientSecret: env.AUTH_PIPEDRIVE_SECRET })
 * ```
 */
export function Pipedrive(options?: OAuthUserConfig<PipedriveProfile>): OAuthConfig {
  return oauthProvider<PipedriveProfile>(
    {
      id: "pipedrive",
      name: "Pipedrive",
      type: "oauth",
      authorization: "https://oauth.pipedrive.com/oauth/authorize",
      token: "https://oauth.pipedrive.com/oauth/token",
      userinfo: "https://api.pipedrive.com/users/me",
      profile: ({ data }) => ({
        id: String(data.id),
        name: data.name ?? null,
        email: data.email ?? null,
        image: data.icon_url ?? null,
      }),
      style: { bg: "#017737", text: "#fff" },
    },
    options,
  )
}

export default Pipedrive
