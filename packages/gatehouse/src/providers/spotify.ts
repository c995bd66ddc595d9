/**
 * Sign-in with Spotify.
 * @module gatehouse-auth/providers/spotify
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /v1/me` returns it. */
export interface SpotifyProfile {
  [field: string]: unknown
  /** The Spotify user id; the user's `id`. */
  id: string
  /** The display name; the user's `name`. */
  display_name: string | null
  /** Only with the `user-read-email` scope. */
  email?: string
  /** Profile pictures, the first of which is the user's `image`. */
  images: {
    /** The picture's URL. */
    url: string
    /** Height in pixels, when known. */
    height: number | null
    /** Width in pixels, when known. */
    width: number | null
  }[]
  /** The account's country, ISO 3166-1 alpha-2 (with the `user-read-private` scope). */
  country?: string
  /** The subscription: `premium`, `free`, … (with the `user-read-private` scope). */
  product?: string
}

/**
 * A Spotify app with the `user-read-email` scope.
 *
 * @example
 * ```ts
 * Spotify({ clientId: env.AUTH_SPOTIFY_ID, clientSecret: env.AUTH_SPOTIFY_SECRET })
 * ```
 */
export function Spotify(options?: OAuthUserConfig<SpotifyProfile>): OAuthConfig {
  return oauthProvider<SpotifyProfile>(
    {
      id: "spotify",
      name: "Spotify",
      type: "oauth",
      authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
      token: "https://accounts.spotify.com/api/token",
      userinfo: "https://api.spotify.com/v1/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.display_name ?? null,
        email: profile.email ?? null,
        image: profile.images?.[0]?.url ?? null,
      }),
      style: { bg: "#000", text: "#1ed760" },
    },
    options,
  )
}

export default Spotify
