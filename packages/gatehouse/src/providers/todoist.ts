/**
 * Sign-in with Todoist.
 * @module gatehouse-auth/providers/todoist
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as Todoist's sync endpoint returns it (the fields Gatehouse reads, plus any other). */
export interface TodoistProfile {
  [field: string]: unknown
  /** The Todoist user id; the user's `id`. */
  id: string
  /** The email address. */
  email: string
  /** Full name; the user's `name`. */
  full_name: string
  /** The large avatar's URL, if the user has one; the user's `image`. */
  avatar_big: string | null
}

/** Todoist API v1's sync endpoint; Auth.js calls Sync API v9's, which Todoist has retired. */
const SYNC = "https://api.todoist.com/api/v1/sync"

/**
 * A Todoist app with the `data:read` scope. Todoist has no userinfo endpoint: the user is read
 * from a sync of the `user` resource alone.
 *
 * @example
 * ```ts
 * TodoistProvider({ clientId: env.AUTH_TODOIST_ID, clientSecret: env.AUTH_TODOIST_SECRET })
 * ```
 */
export function TodoistProvider(options?: OAuthUserConfig<TodoistProfile>): OAuthConfig {
  return oauthProvider<TodoistProfile>(
    {
      id: "todoist",
      name: "Todoist",
      type: "oauth",
      authorization: { url: "https://todoist.com/oauth/authorize", params: { scope: "data:read" } },
      token: "https://todoist.com/oauth/access_token",
      client: { token_endpoint_auth_method: "client_secret_post" },
      userinfo: {
        url: SYNC,
        async request(context) {
          const body = new URLSearchParams({ sync_token: "*", resource_types: JSON.stringify(["user"]) })
          const { user } = (await fetchJson(context, endpointUrl(context.provider.userinfo, SYNC), { body })) as { user?: unknown }
          if (typeof user !== "object" || user === null) throw new Error("todoist: the sync answer has no user")
          return user
        },
      },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.full_name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_big ?? null,
      }),
      style: { bg: "#E44332", text: "#000" },
    },
    options,
  )
}

export default TodoistProvider
