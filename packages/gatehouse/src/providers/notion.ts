/**
 * Sign-in with Notion (a public integration).
 * @module gatehouse-auth/providers/notion
 */
import type { OAuthConfig } from "./types.js"
import { conformJson, endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** A Notion person, the user who installed the integration. */
export interface NotionProfile {
  [field: string]: unknown
  /** Always `user`. */
  object: "user"
  /** The user id; the user's `id`. */
  id: string
  /** Always `person` for someone signing in. */
  type: "person"
  /** The user's name; the user's `name`. */
  name: string | null
  /** The avatar's URL; the user's `image`. */
  avatar_url: string | null
  /** `email` only when the integration has the "read user information including email" capability. */
  person: {
    /** The user's email address. */
    email?: string
  }
}

const USERS_ME = "https://api.notion.com/v1/users/me"

/** The Notion API version this provider speaks; the API requires one on every call. */
const NOTION_VERSION = "2022-06-28"

/**
 * A Notion public integration. The profile is the user who authorized it (the bot's owner, from
 * `GET /v1/users/me`); Notion has no scopes, only capabilities set on the integration.
 *
 * @example
 * ```ts
 * Notion({ clientId: env.AUTH_NOTION_ID, clientSecret: env.AUTH_NOTION_SECRET })
 * ```
 */
export function Notion(options?: OAuthUserConfig<NotionProfile>): OAuthConfig {
  return oauthProvider<NotionProfile>(
    {
      id: "notion",
      name: "Notion",
      type: "oauth",
      authorization: { url: "https://api.notion.com/v1/oauth/authorize", params: { owner: "user" } },
      token: {
        url: "https://api.notion.com/v1/oauth/token",
        // Notion can send `refresh_token: null`, which oauth4webapi rejects as a malformed response.
        conform: (response) =>
          conformJson(response, ({ refresh_token, ...rest }) => (refresh_token === undefined || typeof refresh_token === "string" ? undefined : rest)),
      },
      userinfo: {
        url: USERS_ME,
        async request(context) {
          const me = (await fetchJson(context, endpointUrl(context.provider.userinfo, USERS_ME), {
            headers: { "notion-version": NOTION_VERSION },
          })) as { bot?: { owner?: { type?: string; user?: NotionProfile } } }
          const user = me.bot?.owner?.user
          if (!user) throw new Error("notion: the integration is owned by a workspace, not a user")
          return user
        },
      },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? null,
        email: profile.person?.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}

/**
 * {@link Notion} under Auth.js's name for it, so code written for Auth.js imports it unchanged.
 *
 * @example
 * ```ts
 * import { NotionProvider } from "gatehouse-auth/providers/notion"
 * NotionProvider({ clientId: env.AUTH_NOTION_ID, clientSecret: env.AUTH_NOTION_SECRET })
 * ```
 */
export const NotionProvider = Notion

export default Notion
