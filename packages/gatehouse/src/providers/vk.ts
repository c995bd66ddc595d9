/**
 * Sign-in with VK (VKontakte).
 * @module gatehouse-auth/providers/vk
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig, withBearerTokenType } from "./oauth-user-config.js"

/** A user as `users.get` returns it (with `fields=photo_100`), and the email the token response carried. */
export interface VkProfile {
  [field: string]: unknown
  /** The numeric VK user id; the user's `id` (as a string). */
  id: number
  /** First name. */
  first_name: string
  /** Last name. */
  last_name: string
  /** The 100×100 photo's URL; the user's `image`. */
  photo_100: string
  /** Whether the current user can see the profile although it is closed. */
  can_access_closed: boolean
  /** Whether the profile is closed. */
  is_closed: boolean
  /** `deleted` or `banned`, for such accounts. */
  deactivated?: string
  /** The short address, e.g. `id1` or a chosen name. */
  screen_name?: string
  /** Set by Gatehouse from the token response (with the `email` scope); the user's `email`. */
  email?: string | null
}

/** The VK API version this provider speaks, as Auth.js's does. */
const API_VERSION = "5.131"
const USERS_GET = `https://api.vk.com/method/users.get?fields=photo_100&v=${API_VERSION}`

/**
 * A VK app (oauth.vk.com) with the `email` scope. VK sends the email address in the token
 * response, not in the profile; this provider adds it. VK takes no PKCE, and its token response
 * has no `token_type`, which this provider adds.
 *
 * @example
 * ```ts
 * VK({ clientId: env.AUTH_VK_ID, clientSecret: env.AUTH_VK_SECRET })
 * ```
 */
export function VK(options?: OAuthUserConfig<VkProfile>): OAuthConfig {
  return oauthProvider<VkProfile>(
    {
      id: "vk",
      name: "VK",
      type: "oauth",
      // VK refuses authorization requests with a code challenge.
      checks: ["state"],
      authorization: { url: "https://oauth.vk.com/authorize", params: { scope: "email", v: API_VERSION } },
      token: { url: "https://oauth.vk.com/access_token", params: { v: API_VERSION }, conform: withBearerTokenType },
      client: { token_endpoint_auth_method: "client_secret_post" },
      userinfo: {
        url: USERS_GET,
        async request(context) {
          const answer = (await fetchJson(context, endpointUrl(context.provider.userinfo, USERS_GET), {
            headers: { "user-agent": "gatehouse" },
          })) as { response?: unknown; error?: { error_code?: unknown; error_msg?: unknown } }
          const user: unknown = Array.isArray(answer.response) ? answer.response[0] : undefined
          if (typeof user !== "object" || user === null) {
            // VK reports API errors with HTTP 200.
            throw new Error(`vk: users.get answered ${answer.error ? `error ${String(answer.error.error_code)}` : "no user"}`)
          }
          const email = context.tokens.email
          return { ...user, email: typeof email === "string" && email !== "" ? email : null }
        },
      },
      profile: (profile) => ({
        id: String(profile.id),
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: profile.photo_100 ?? null,
      }),
      style: { bg: "#07F", text: "#fff" },
    },
    options,
  )
}

export default VK
