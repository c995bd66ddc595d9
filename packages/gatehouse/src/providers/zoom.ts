/**
 * Sign-in with Zoom.
 * @module gatehouse-auth/providers/zoom
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /v2/users/me` returns it. */
export interface ZoomProfile {
  [field: string]: unknown
  /** The Zoom user id; the user's `id`. */
  id: string
  /** First name. */
  first_name: string
  /** Last name. */
  last_name: string
  /** The display name; the user's `name` (else first and last name). */
  display_name?: string
  /** The email address. */
  email: string
  /** The picture's URL; the user's `image`. */
  pic_url?: string
  /** The Zoom account the user belongs to. */
  account_id: string
  /** `1` when the user verified their address with Zoom, `0` otherwise. */
  verified?: number
}

/**
 * A Zoom "General" (user-managed) OAuth app. Zoom grants the scopes configured on the app, so
 * the authorization request sends an empty `scope` (which also keeps the OpenID default out);
 * the app needs a scope that allows `GET /users/me` (`user:read:user`, or `user:read`).
 *
 * @example
 * ```ts
 * Zoom({ clientId: env.AUTH_ZOOM_ID, clientSecret: env.AUTH_ZOOM_SECRET })
 * ```
 */
export function Zoom(options?: OAuthUserConfig<ZoomProfile>): OAuthConfig {
  return oauthProvider<ZoomProfile>(
    {
      id: "zoom",
      name: "Zoom",
      type: "oauth",
      authorization: { url: "https://zoom.us/oauth/authorize", params: { scope: "" } },
      token: "https://zoom.us/oauth/token",
      userinfo: "https://api.zoom.us/v2/users/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.display_name || [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: profile.pic_url ?? null,
      }),
      style: { bg: "#0B5CFF", text: "#fff" },
    },
    options,
  )
}

export default Zoom
