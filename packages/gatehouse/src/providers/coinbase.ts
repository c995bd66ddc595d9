/**
 * Sign-in with Coinbase.
 * @module gatehouse-auth/providers/coinbase
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The answer of `GET https://api.coinbase.com/v2/user`: the user under `data`. */
export interface CoinbaseProfile {
  [field: string]: unknown
  /** The user. */
  data: {
    [field: string]: unknown
    /** The user id; the user's `id`. */
    id: string
    /** The name; the user's `name`. */
    name: string | null
    /** The email address (with the `wallet:user:email` scope). */
    email?: string
    /** The avatar's URL; the user's `image`. */
    avatar_url?: string | null
  }
}

/**
 * A Coinbase OAuth app, asking for `wallet:user:email` and `wallet:user:read`. Access tokens
 * last two hours; a refresh token comes with them. The profile is `GET /v2/user`.
 *
 * @example
 * ```ts
 * Coinbase({ clientId: env.AUTH_COINBASE_ID, clientSecret: env.AUTH_COINBASE_SECRET })
 * ```
 */
export function Coinbase(options?: OAuthUserConfig<CoinbaseProfile>): OAuthConfig {
  return oauthProvider<CoinbaseProfile>(
    {
      id: "coinbase",
      name: "Coinbase",
      type: "oauth",
      authorization: { url: "https://login.coinbase.com/oauth2/auth", params: { scope: "wallet:user:email wallet:user:read" } },
      token: "https://login.coinbase.com/oauth2/token",
      userinfo: "https://api.coinbase.com/v2/user",
      profile: ({ data }) => ({
        id: String(data.id),
        name: data.name ?? null,
        email: data.email ?? null,
        image: data.avatar_url ?? null,
      }),
      style: { bg: "#0052ff", text: "#fff" },
    },
    options,
  )
}

export default Coinbase
