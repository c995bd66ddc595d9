/**
 * Sign-in with Threads (Meta).
 * @module gatehouse-auth/providers/threads
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig, withBearerTokenType } from "./oauth-user-config.js"

/** The Threads user, under `data` as Auth.js types it (Gatehouse wraps the Graph API's answer so). */
export interface ThreadsProfile {
  /** The user, with the fields the userinfo URL names. */
  data: {
    /** The Threads user id; the user's `id`. */
    id: string
    /** The handle; the user's `name`. */
    username?: string
    /** The profile picture's URL; the user's `image`. */
    threads_profile_picture_url?: string
    /** The user's bio. */
    threads_biography?: string
  }
}

const ME = "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url"

/**
 * A Meta app with the Threads use case and the `threads_basic` permission. Threads gives no email
 * address. Its tokens last an hour; exchanging one for a long-lived token is up to the app.
 *
 * @example
 * ```ts
 * Threads({ clientId: env.AUTH_THREADS_ID, clientSecret: env.AUTH_THREADS_SECRET })
 * ```
 */
export function Threads(options?: OAuthUserConfig<ThreadsProfile>): OAuthConfig {
  return oauthProvider<ThreadsProfile>(
    {
      id: "threads",
      name: "Threads",
      type: "oauth",
      // Threads takes no PKCE.
      checks: ["state"],
      authorization: { url: "https://threads.net/oauth/authorize", params: { scope: "threads_basic" } },
      // The token response has no token_type.
      token: { url: "https://graph.threads.net/oauth/access_token", conform: withBearerTokenType },
      userinfo: {
        url: ME,
        async request(context) {
          const user = await fetchJson(context, endpointUrl(context.provider.userinfo, ME))
          // The Graph API answers with the user itself; Auth.js's profile type (and the profile
          // callbacks written for it) read it under `data`.
          return isObject(user) && isObject(user.data) ? user : { data: user }
        },
      },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ data }) => ({
        id: String(data.id),
        name: data.username || null,
        email: null,
        image: data.threads_profile_picture_url || null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

export default Threads
