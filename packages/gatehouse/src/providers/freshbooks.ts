/**
 * Sign-in with FreshBooks.
 * @module gatehouse-auth/providers/freshbooks
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The answer of `GET https://api.freshbooks.com/auth/api/v1/users/me`: the identity under `response`. */
export interface FreshbooksProfile {
  [field: string]: unknown
  /** The signed-in identity. */
  response: {
    [field: string]: unknown
    /** The identity id; the user's `id` (as a string). */
    id: number
    /** The first name. */
    first_name: string
    /** The last name. */
    last_name: string
    /** The email address. */
    email: string
  }
}

/**
 * A FreshBooks app. The profile is `response` of `GET /auth/api/v1/users/me`.
 *
 * @example
 * ```ts
 * Freshbooks({ clientId: env.AUTH_FRESHBOOKS_ID, clientSecret: env.AUTH_FRESHBOOKS_SECRET })
 * ```
 */
export function Freshbooks(options?: OAuthUserConfig<FreshbooksProfile>): OAuthConfig {
  return oauthProvider<FreshbooksProfile>(
    {
      id: "freshbooks",
      name: "Freshbooks",
      type: "oauth",
      authorization: "https://auth.freshbooks.com/service/auth/oauth/authorize",
      token: "https://api.freshbooks.com/auth/oauth/token",
      userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
      profile: ({ response: user }) => ({
        id: String(user.id),
        name: [user.first_name, user.last_name].filter(Boolean).join(" ") || null,
        email: user.email ?? null,
        image: null,
      }),
      style: { bg: "#0075dd", text: "#fff" },
    },
    options,
  )
}

export default Freshbooks
