/**
 * Sign-in with an Atlassian account (Jira, Confluence), OAuth 2.0 (3LO).
 * @module gatehouse-auth/providers/atlassian
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://api.atlassian.com/me` returns it. */
export interface AtlassianProfile {
  [field: string]: unknown
  /** The Atlassian account id; the user's `id`. */
  account_id: string
  /** `atlassian`, `app` or `customer`. */
  account_type?: string
  /** `active`, `inactive` or `closed`. */
  account_status?: string
  /** The display name; the user's `name`. */
  name: string
  /** The public nickname. */
  nickname?: string
  /** Absent when the user hides it from apps. */
  email?: string
  /** The avatar's URL; the user's `image`. */
  picture?: string
}

/**
 * An Atlassian OAuth 2.0 (3LO) app with the User identity API's `read:me` scope. Add the product
 * scopes you need (e.g. `read:jira-work`) to `authorization.params.scope`.
 *
 * @example
 * ```ts
 * Atlassian({ clientId: env.AUTH_ATLASSIAN_ID, clientSecret: env.AUTH_ATLASSIAN_SECRET })
 * ```
 */
export function Atlassian(options?: OAuthUserConfig<AtlassianProfile>): OAuthConfig {
  return oauthProvider<AtlassianProfile>(
    {
      id: "atlassian",
      name: "Atlassian",
      type: "oauth",
      // Atlassian's docs require a `state` on every authorization request and name no PKCE.
      checks: ["state"],
      authorization: {
        url: "https://auth.atlassian.com/authorize",
        // Both required by Atlassian: the API gateway as audience, and the consent screen.
        params: { audience: "api.atlassian.com", prompt: "consent", scope: "read:me" },
      },
      token: "https://auth.atlassian.com/oauth/token",
      userinfo: "https://api.atlassian.com/me",
      profile: (profile) => ({
        id: String(profile.account_id),
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#fff", text: "#0052CC" },
    },
    options,
  )
}

export default Atlassian
