/**
 * Sign-in with Mastodon (any instance).
 * @module gatehouse-auth/providers/mastodon
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The account as `GET /api/v1/accounts/verify_credentials` returns it. */
export interface MastodonProfile {
  [field: string]: unknown
  /** The account's id on the instance; the user's `id`. */
  id: string
  /** The username on the instance; the user's `name`. */
  username: string
  /** `username`, or `username@domain` for remote accounts. */
  acct: string
  /** The display name. */
  display_name: string
  /** Whether follows need approval. */
  locked: boolean
  /** Whether the account is a bot. */
  bot: boolean
  /** When the account was made. */
  created_at: string
  /** The bio, as HTML. */
  note: string
  /** The account's profile page. */
  url: string
  /** The avatar's URL (animated, if it is). */
  avatar: string
  /** The avatar's URL, never animated; the user's `image`. */
  avatar_static: string
  /** The header image's URL. */
  header: string
  /** The header image's URL, never animated. */
  header_static: string
  /** Followers. */
  followers_count: number
  /** Accounts followed. */
  following_count: number
  /** Posts. */
  statuses_count: number
  /** The day of the last post. */
  last_status_at: string | null
}

/**
 * A Mastodon application on one instance, with the `read` scope. `issuer` is the instance's
 * URL, e.g. `https://mastodon.social`, required: from this option or `AUTH_MASTODON_ISSUER`
 * (through the bare `Mastodon`, as the endpoints are built from it). Mastodon gives no email
 * address.
 *
 * @example
 * ```ts
 * Mastodon({ clientId: env.AUTH_MASTODON_ID, clientSecret: env.AUTH_MASTODON_SECRET, issuer: env.AUTH_MASTODON_ISSUER })
 * ```
 */
export function Mastodon(options: OAuthUserConfig<MastodonProfile> = {}): OAuthConfig {
  const base = options.issuer?.replace(/\/+$/, "")
  return oauthProvider<MastodonProfile>(
    {
      id: "mastodon",
      name: "Mastodon",
      type: "oauth",
      ...(base
        ? {
            authorization: { url: `${base}/oauth/authorize`, params: { scope: "read" } },
            token: `${base}/oauth/token`,
            userinfo: `${base}/api/v1/accounts/verify_credentials`,
          }
        : {}),
      profile: (profile) => ({
        id: profile.id,
        name: profile.username ?? null,
        email: null,
        image: profile.avatar_static ?? null,
      }),
      style: { bg: "#6364FF", text: "#fff" },
    },
    options,
  )
}

export default Mastodon
