/**
 * Sign-in with FACEIT (FACEIT Connect).
 * @module gatehouse-auth/providers/faceit
 */
import type { OAuthConfig } from "./types.js"
import { conformJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://api.faceit.com/auth/v1/resources/userinfo` returns it. */
export interface FACEITProfile {
  [field: string]: unknown
  /** The FACEIT user id; the user's `id`. */
  guid: string
  /** The FACEIT nickname; the user's `name` when there is no `name`. */
  nickname: string
  /** A name, when FACEIT sends one; the user's `name`. */
  name?: string
  /** The email address (with the `email` scope). */
  email?: string
  /** The avatar's URL; the user's `image`. */
  picture?: string
  /** The given name. */
  given_name?: string
  /** The family name. */
  family_name?: string
  /** The user's locale. */
  locale?: string
}

/**
 * A FACEIT app with the authorization code flow, asking for `openid profile email` (email,
 * nickname, id and avatar). The client authenticates with HTTP Basic. The profile is the
 * userinfo endpoint's, whose id is `guid` and whose name is `nickname`.
 *
 * This is a plain OAuth provider: with `openid`, FACEIT adds an ID token to the token response,
 * which would be checked against an issuer this provider does not know, so it is left out of
 * the response before it is read (the stored account has no `id_token`).
 *
 * @example
 * ```ts
 * FACEIT({ clientId: env.AUTH_FACEIT_ID, clientSecret: env.AUTH_FACEIT_SECRET })
 * ```
 */
export function FACEIT(options?: OAuthUserConfig<FACEITProfile>): OAuthConfig {
  return oauthProvider<FACEITProfile>(
    {
      id: "faceit",
      name: "FACEIT",
      type: "oauth",
      authorization: "https://accounts.faceit.com/accounts?redirect_popup=true",
      token: {
        url: "https://api.faceit.com/auth/v1/oauth/token",
        conform: (response) => conformJson(response, ({ id_token, ...rest }) => (id_token === undefined ? undefined : rest)),
      },
      userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
      profile: (profile) => ({
        id: String(profile.guid),
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#ff5500", text: "#fff" },
    },
    options,
  )
}

export default FACEIT
