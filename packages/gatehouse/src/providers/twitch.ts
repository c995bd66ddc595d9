/**
 * Sign-in with Twitch (OpenID Connect).
 * @module gatehouse-auth/providers/twitch
 */
import type { OAuthConfig } from "./types.js"
import { conformJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Twitch ID token, with the optional claims this provider asks for. */
export interface TwitchProfile {
  [claim: string]: unknown
  /** The Twitch user id. */
  sub: string
  /** The display name; the user's `name`. */
  preferred_username: string
  /** The email address (this provider asks for it through the `claims` parameter). */
  email?: string
  /** Whether Twitch verified the address. */
  email_verified?: boolean
  /** The profile image's URL; the user's `image`. */
  picture?: string
}

/**
 * Twitch, through OpenID Connect discovery at `https://id.twitch.tv/oauth2`. Twitch only puts
 * the email, picture and display name into the ID token when asked, so the `claims` parameter
 * asks for them.
 *
 * @example
 * ```ts
 * Twitch({ clientId: env.AUTH_TWITCH_ID, clientSecret: env.AUTH_TWITCH_SECRET })
 * ```
 */
export function Twitch(options?: OAuthUserConfig<TwitchProfile>): OAuthConfig {
  return oauthProvider<TwitchProfile>(
    {
      id: "twitch",
      name: "Twitch",
      type: "oidc",
      issuer: "https://id.twitch.tv/oauth2",
      authorization: {
        params: {
          scope: "openid user:read:email",
          claims: { id_token: { email: null, picture: null, preferred_username: null } },
        },
      },
      client: { token_endpoint_auth_method: "client_secret_post" },
      token: { conform: joinScopeArray },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#65459B", text: "#fff" },
    },
    options,
  )
}

/** Twitch returns `scope` as an array, which RFC 6749 clients reject; make it a string. */
function joinScopeArray(response: Response): Promise<Response | undefined> {
  return conformJson(response, (body) => (Array.isArray(body.scope) ? { ...body, scope: body.scope.join(" ") } : undefined))
}

export default Twitch
