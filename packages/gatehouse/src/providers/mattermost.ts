/**
 * Sign-in with Mattermost (any server).
 * @module gatehouse-auth/providers/mattermost
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /api/v4/users/me` returns it (the fields Gatehouse reads, plus any other). */
export interface MattermostProfile {
  [field: string]: unknown
  /** The user's id; the user's `id`. */
  id: string
  /** The username; the user's `name`. */
  username: string
  /** The email address; the user's `email`. */
  email: string
  /** Whether the server verified the address. */
  email_verified: boolean
  /** The nickname. */
  nickname: string
  /** Given name, the name's first half when there is no username. */
  first_name: string
  /** Family name. */
  last_name: string
  /** The user's position. */
  position: string
  /** The user's roles, space-separated. */
  roles: string
  /** The user's locale. */
  locale: string
  /** When the user was made, in milliseconds since the epoch. */
  create_at: number
  /** When the user was last changed, in milliseconds since the epoch. */
  update_at: number
  /** When the user was deleted (0 if not), in milliseconds since the epoch. */
  delete_at: number
}

/**
 * A Mattermost OAuth 2.0 application. `issuer` is the server's URL, e.g.
 * `https://chat.example.com`, required: from this option or `AUTH_MATTERMOST_ISSUER` (through the
 * bare `Mattermost`, as the endpoints are built from it). Mattermost takes the client credentials
 * in the token request's body (`client_secret_post`).
 *
 * @example
 * ```ts
 * Mattermost({ clientId: env.AUTH_MATTERMOST_ID, clientSecret: env.AUTH_MATTERMOST_SECRET, issuer: env.AUTH_MATTERMOST_ISSUER })
 * ```
 */
export function Mattermost(options: OAuthUserConfig<MattermostProfile> = {}): OAuthConfig {
  // The server's URL only places the endpoints, as in Auth.js: Mattermost is no OIDC issuer.
  const { issuer, ...rest } = options
  const base = issuer?.replace(/\/+$/, "")
  return oauthProvider<MattermostProfile>(
    {
      id: "mattermost",
      name: "Mattermost",
      type: "oauth",
      ...(base
        ? {
            authorization: `${base}/oauth/authorize`,
            token: `${base}/oauth/access_token`,
            userinfo: `${base}/api/v4/users/me`,
          }
        : {}),
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.username ?? `${profile.first_name} ${profile.last_name}`,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    rest,
  )
}

export default Mattermost
