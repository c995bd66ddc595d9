/**
 * Sign-in with ClickUp.
 * @module gatehouse-auth/providers/click-up
 */
import type { OAuthConfig } from "./types.js"
import { withBearerTokenType, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The answer of `GET https://api.clickup.com/api/v2/user`: the authorized user. */
export interface ClickUpProfile {
  [field: string]: unknown
  /** The user. */
  user: {
    [field: string]: unknown
    /** The numeric user id; the user's `id` (as a string). */
    id: number
    /** The user name; the user's `name`. */
    username: string
    /** The email address. */
    email?: string
    /** The user's colour in ClickUp, e.g. `#7b68ee`. */
    color: string
    /** The avatar's URL; the user's `image`. */
    profilePicture: string | null
  }
}

/**
 * A ClickUp OAuth app. ClickUp takes no scopes and no PKCE; `state` protects the sign-in. Its
 * token endpoint takes the client's secret in the form and answers with the access token
 * alone (no `token_type`, which is then `bearer`). The profile is `GET /api/v2/user`. Auth.js's mapping puts the avatar in a `profilePicture` field
 * of the user (with the user's `color`); Gatehouse's user has `image` for it.
 *
 * @example
 * ```ts
 * ClickUp({ clientId: env.AUTH_CLICK_UP_ID, clientSecret: env.AUTH_CLICK_UP_SECRET })
 * ```
 */
export function ClickUp(options?: OAuthUserConfig<ClickUpProfile>): OAuthConfig {
  return oauthProvider<ClickUpProfile>(
    {
      id: "click-up",
      name: "ClickUp",
      type: "oauth",
      checks: ["state"],
      authorization: "https://app.clickup.com/api",
      token: { url: "https://api.clickup.com/api/v2/oauth/token", conform: withBearerTokenType },
      // ClickUp reads the client id and secret from the request's parameters.
      client: { token_endpoint_auth_method: "client_secret_post" },
      userinfo: "https://api.clickup.com/api/v2/user",
      profile: ({ user }) => ({
        id: String(user.id),
        name: user.username ?? null,
        email: user.email ?? null,
        image: user.profilePicture ?? null,
      }),
      style: { bg: "#24292f", text: "#fff" },
    },
    options,
  )
}

export default ClickUp
