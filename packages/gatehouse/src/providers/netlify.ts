/**
 * Sign-in with Netlify.
 * @module gatehouse-auth/providers/netlify
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://api.netlify.com/api/v1/user` returns it. */
export interface NetlifyProfile {
  [field: string]: unknown
  /** The user's id; the user's `id`. */
  id: string
  /** The user's full name; the user's `name`. */
  full_name: string | null
  /** The email address; the user's `email`. */
  email: string
  /** The avatar's URL; the user's `image`. */
  avatar_url: string | null
  /** The user's id (slug). */
  slug?: string
}

/**
 * A Netlify OAuth application. Netlify has no scopes; the scope is sent empty.
 *
 * @example
 * ```ts
 * Netlify({ clientId: env.AUTH_NETLIFY_ID, clientSecret: env.AUTH_NETLIFY_SECRET })
 * ```
 */
export function Netlify(options?: OAuthUserConfig<NetlifyProfile>): OAuthConfig {
  return oauthProvider<NetlifyProfile>(
    {
      id: "netlify",
      name: "Netlify",
      type: "oauth",
      authorization: { url: "https://app.netlify.com/authorize", params: { scope: "" } },
      token: "https://api.netlify.com/oauth/token",
      userinfo: "https://api.netlify.com/api/v1/user",
      profile: (profile) => ({
        id: profile.id,
        name: profile.full_name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#32E6E2", text: "#000" },
    },
    options,
  )
}

export default Netlify
