/**
 * Sign-in with Foursquare (Swarm).
 * @module gatehouse-auth/providers/foursquare
 */
import type { OAuthConfig } from "./types.js"
import { withBearerTokenType, endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** A Foursquare user, as `response.user` of `GET /v2/users/self` holds it. */
export interface FoursquareUser {
  [field: string]: unknown
  /** The user id; the user's `id`. */
  id: string
  /** The first name. */
  firstName: string
  /** The last name, when the user gave one. */
  lastName?: string
  /** Contact details; `email` is the user's `email`. */
  contact?: {
    /** The email address. */
    email?: string
  }
  /** The photo as Foursquare splits it: its URL is `prefix` + a size (`original`) + `suffix`. */
  photo?: {
    /** The URL up to the size. */
    prefix: string
    /** The URL after the size. */
    suffix: string
  }
}

/** The answer of `GET https://api.foursquare.com/v2/users/self`: the user under `response.user`. */
export interface FoursquareProfile {
  [field: string]: unknown
  /** The answer's body. */
  response: {
    /** The signed-in user. */
    user: FoursquareUser
  }
}

/** Options of {@link Foursquare}. */
export type FoursquareOptions = OAuthUserConfig<FoursquareProfile> & {
  /**
   * The API version, `YYYYMMDD`: the date up to which the app expects Foursquare's changes.
   * Default `20230131`.
   */
  apiVersion?: string
}

/**
 * A Foursquare app. The token endpoint takes the client's secret in the form and answers with
 * the access token alone (no `token_type`, which is then `bearer`). Foursquare's v2 API takes
 * that token in the query (`oauth_token`), not in a header, with a version date (`v`); the
 * profile is `response.user` of `GET /v2/users/self`.
 *
 * @example
 * ```ts
 * Foursquare({ clientId: env.AUTH_FOURSQUARE_ID, clientSecret: env.AUTH_FOURSQUARE_SECRET })
 * Foursquare({ apiVersion: "20240601" })
 * ```
 */
export function Foursquare(options: FoursquareOptions = {}): OAuthConfig {
  const { apiVersion = "20230131", ...rest } = options
  const usersSelf = `https://api.foursquare.com/v2/users/self?v=${encodeURIComponent(apiVersion)}`
  return oauthProvider<FoursquareProfile>(
    {
      id: "foursquare",
      name: "Foursquare",
      type: "oauth",
      authorization: "https://foursquare.com/oauth2/authenticate",
      token: { url: "https://foursquare.com/oauth2/access_token", conform: withBearerTokenType },
      // Foursquare reads the client id and secret from the request's parameters.
      client: { token_endpoint_auth_method: "client_secret_post" },
      userinfo: {
        url: usersSelf,
        // Foursquare takes the token as the oauth_token parameter, not as a bearer token.
        request: (context) => fetchJson(context, endpointUrl(context.provider.userinfo, usersSelf), { tokenInQuery: "oauth_token" }),
      },
      profile: ({ response: { user } }) => ({
        id: String(user.id),
        name: [user.firstName, user.lastName].filter(Boolean).join(" ") || null,
        email: user.contact?.email ?? null,
        image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    rest,
  )
}

export default Foursquare
