/**
 * Sign-in with Zoho.
 * @module gatehouse-auth/providers/zoho
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /oauth/user/info` returns it. */
export interface ZohoProfile {
  [field: string]: unknown
  /** The numeric Zoho user id; the user's `id` (as a string). */
  ZUID: number
  /** First name. */
  First_Name: string
  /** Last name. */
  Last_Name: string
  /** The display name. */
  Display_Name?: string
  /** The email address; the user's `email`. */
  Email: string
}

/** Options of {@link Zoho}. */
export type ZohoOptions = OAuthUserConfig<ZohoProfile> & {
  /**
   * The accounts server of your Zoho data centre, e.g. `https://accounts.zoho.eu` or
   * `https://accounts.zoho.in`. Default `https://accounts.zoho.com`.
   */
  baseUrl?: string
}

/**
 * A Zoho API console client (server-based application) with the `AaaServer.profile.Read` scope.
 * Zoho keeps each account in one data centre; an app registered in another one sets `baseUrl`.
 *
 * @example
 * ```ts
 * Zoho({ clientId: env.AUTH_ZOHO_ID, clientSecret: env.AUTH_ZOHO_SECRET })
 * Zoho({ baseUrl: "https://accounts.zoho.eu" }) // the EU data centre
 * ```
 */
export function Zoho(options: ZohoOptions = {}): OAuthConfig {
  const { baseUrl = "https://accounts.zoho.com", ...rest } = options
  const base = baseUrl.replace(/\/+$/, "")
  return oauthProvider<ZohoProfile>(
    {
      id: "zoho",
      name: "Zoho",
      type: "oauth",
      authorization: { url: `${base}/oauth/v2/auth`, params: { scope: "AaaServer.profile.Read" } },
      token: `${base}/oauth/v2/token`,
      userinfo: `${base}/oauth/user/info`,
      profile: (profile) => ({
        id: String(profile.ZUID),
        name: [profile.First_Name, profile.Last_Name].filter(Boolean).join(" ") || profile.Display_Name || null,
        email: profile.Email ?? null,
        image: null,
      }),
      style: { bg: "#e42527", text: "#fff" },
    },
    rest,
  )
}

export default Zoho
