/**
 * Sign-in with TikTok (Login Kit for Web).
 * @module gatehouse-auth/providers/tiktok
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, withoutFetch, type OAuthUserConfig } from "./oauth-user-config.js"

/** What `GET /v2/user/info/` returns: the user under `data.user`, and a status under `error`. */
export interface TiktokProfile {
  /** The answer. */
  data: {
    /** The user, with the fields the userinfo URL names. */
    user: {
      /** The user's id for this app; the user's `id`. */
      open_id: string
      /** The user's id across the developer's apps. */
      union_id?: string
      /** The avatar's URL; the user's `image`. */
      avatar_url: string
      /** A 100×100 avatar. */
      avatar_url_100?: string
      /** A larger avatar. */
      avatar_large_url?: string
      /** The display name; the user's `name`. */
      display_name: string
      /** The handle (with the `user.info.profile` scope). */
      username?: string
      /** Not given by TikTok's API; kept for Auth.js's type. */
      email?: string
      /** The bio (with `user.info.profile`). */
      bio_description?: string
      /** A link to the profile (with `user.info.profile`). */
      profile_deep_link?: string
      /** Whether TikTok verified the account (with `user.info.profile`). */
      is_verified?: boolean
      /** Followers (with `user.info.stats`). */
      follower_count?: number
      /** Accounts followed (with `user.info.stats`). */
      following_count?: number
      /** Likes received (with `user.info.stats`). */
      likes_count?: number
      /** Public videos (with `user.info.stats`). */
      video_count?: number
    }
  }
  /** `code` is `ok` on success. */
  error: {
    /** `ok`, or what went wrong. */
    code: string
    /** What went wrong, if anything. */
    message: string
    /** TikTok's id of the request, for their support. */
    log_id: string
  }
}

/**
 * A TikTok app with Login Kit and the `user.info.basic` scope. TikTok calls the client id the
 * client key and wants it as `client_key`, in the authorization request (so give `clientId` to
 * the factory, or let it come from `AUTH_TIKTOK_ID`) and in the token requests, to which this
 * provider's `fetch` adds it. TikTok gives no email address.
 *
 * @example
 * ```ts
 * TikTok({ clientId: env.AUTH_TIKTOK_ID, clientSecret: env.AUTH_TIKTOK_SECRET })
 * ```
 */
export function TikTok(options: OAuthUserConfig<TiktokProfile> = {}): OAuthConfig {
  const { fetch: appFetch, rest } = withoutFetch(options)
  return oauthProvider<TiktokProfile>(
    {
      id: "tiktok",
      name: "TikTok",
      type: "oauth",
      authorization: {
        url: "https://www.tiktok.com/v2/auth/authorize",
        params: { ...(options.clientId !== undefined && { client_key: options.clientId }), scope: "user.info.basic" },
      },
      token: "https://open.tiktokapis.com/v2/oauth/token/",
      userinfo: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_url,display_name",
      client: { token_endpoint_auth_method: "client_secret_post" },
      fetch: withClientKey(appFetch),
      profile: ({ data }) => ({
        id: data.user.open_id,
        name: data.user.display_name ?? null,
        email: null,
        image: data.user.avatar_url ?? null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    rest,
  )
}

/**
 * A fetch that copies `client_id` to `client_key` in token requests (code and refresh alike: the
 * form posts with a `grant_type`), then sends every request through `inner`, else the global fetch.
 */
function withClientKey(inner: typeof fetch | undefined): typeof fetch {
  return (input, init) => {
    const send = inner ?? fetch
    const body = init?.body
    if (body instanceof URLSearchParams && body.has("grant_type") && !body.has("client_key")) {
      const clientId = body.get("client_id")
      if (clientId !== null) {
        const form = new URLSearchParams(body)
        form.set("client_key", clientId)
        return send(input, { ...init, body: form })
      }
    }
    return send(input, init)
  }
}

export default TikTok
