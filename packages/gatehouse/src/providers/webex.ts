/**
 * Sign-in with Webex.
 * @module gatehouse-auth/providers/webex
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The person as `GET /people/me` returns it. */
export interface WebexProfile {
  [field: string]: unknown
  /** The person id; the user's `id`. */
  id: string
  /** The person's addresses; the first is the user's `email`. */
  emails: string[]
  /** The display name; the user's `name`. */
  displayName?: string
  /** The avatar's URL; the user's `image`. */
  avatar?: string
  /** The organization the person belongs to. */
  orgId?: string
}

/** Options of {@link Webex}. */
export type WebexOptions = OAuthUserConfig<WebexProfile> & {
  /** The Webex API's base URL. Default `https://webexapis.com/v1`. */
  apiBaseUrl?: string
}

/**
 * A Webex integration with the `spark:kms` and `spark:people_read` scopes.
 *
 * @example
 * ```ts
 * Webex({ clientId: env.AUTH_WEBEX_ID, clientSecret: env.AUTH_WEBEX_SECRET })
 * ```
 */
export function Webex(options: WebexOptions = {}): OAuthConfig {
  const { apiBaseUrl = "https://webexapis.com/v1", ...rest } = options
  const base = apiBaseUrl.replace(/\/+$/, "")
  return oauthProvider<WebexProfile>(
    {
      id: "webex",
      name: "Webex",
      type: "oauth",
      authorization: { url: `${base}/authorize`, params: { scope: "spark:kms spark:people_read" } },
      token: `${base}/access_token`,
      userinfo: `${base}/people/me`,
      profile: (profile) => ({
        id: profile.id,
        name: profile.displayName ?? null,
        email: profile.emails?.[0] ?? null,
        image: profile.avatar ?? null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    rest,
  )
}

export default Webex
