/**
 * Sign-in with HubSpot.
 * @module gatehouse-auth/providers/hubspot
 */
import type { EndpointRequestContext, OAuthConfig } from "./types.js"
import { endpointUrl, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** What `GET https://api.hubapi.com/oauth/v1/access-tokens/<token>` tells about the token's user. */
export interface HubSpotProfile {
  [field: string]: unknown
  /** The user's email address; the user's `name` and `email`. */
  user: string
  /** The user's numeric id; the user's `id` (as a string). */
  user_id: number | string
  /** The HubSpot account's domain. */
  hub_domain: string
  /** The HubSpot account's id. */
  hub_id: number | string
  /** The scopes the token has. */
  scopes?: string[]
  /** The app's id. */
  app_id?: number
}

const TOKEN_INFO = "https://api.hubapi.com/oauth/v1/access-tokens"

/**
 * A HubSpot public app with the `oauth` scope. HubSpot takes the client credentials in the token
 * request's body (`client_secret_post`) and has no userinfo endpoint: the profile is what its
 * token information endpoint says about the access token, which goes in that URL's path. HubSpot
 * gives no name or picture; the name is the email address.
 *
 * @example
 * ```ts
 * HubSpot({ clientId: env.AUTH_HUBSPOT_ID, clientSecret: env.AUTH_HUBSPOT_SECRET })
 * ```
 */
export function HubSpot(options?: OAuthUserConfig<HubSpotProfile>): OAuthConfig {
  return oauthProvider<HubSpotProfile>(
    {
      id: "hubspot",
      name: "HubSpot",
      type: "oauth",
      authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
      token: "https://api.hubapi.com/oauth/v1/token",
      userinfo: { url: TOKEN_INFO, request: tokenInformation },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.user_id),
        name: profile.user ?? null,
        email: profile.user ?? null,
        image: null,
      }),
      style: { bg: "#FF7A59", text: "#fff" },
    },
    options,
  )
}

/** `GET <userinfo URL>/<access token>`: HubSpot's description of the token, its user included. */
async function tokenInformation(context: EndpointRequestContext): Promise<unknown> {
  const base = endpointUrl(context.provider.userinfo, TOKEN_INFO).replace(/\/+$/, "")
  const url = `${base}/${encodeURIComponent(context.tokens.access_token ?? "")}`
  const response = await context.fetch(url, { headers: { accept: "application/json" } })
  // The path holds the token: name only the endpoint in the error.
  if (!response.ok) throw new Error(`${context.provider.id}: the token information endpoint answered HTTP ${response.status}`)
  return response.json()
}

export default HubSpot
