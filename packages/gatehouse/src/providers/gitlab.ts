/**
 * Sign-in with GitLab (gitlab.com or a self-managed instance).
 * @module gatehouse-auth/providers/gitlab
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /api/v4/user` returns it. */
export interface GitLabProfile {
  [field: string]: unknown
  /** The numeric user id; the user's `id` (as a string). */
  id: number
  /** The username, used as the name when there is none. */
  username: string
  /** The display name; the user's `name`. */
  name: string | null
  /** The primary email address. */
  email: string | null
  /** The avatar's URL; the user's `image`. */
  avatar_url: string | null
  /** The user's page on the instance. */
  web_url: string
  /** `active`, `blocked`, … */
  state: string
}

/** Options of {@link GitLab}. */
export type GitLabOptions = OAuthUserConfig<GitLabProfile> & {
  /** A self-managed instance, e.g. `https://gitlab.example.com`. Default `https://gitlab.com`. */
  baseUrl?: string
}

/**
 * A GitLab application with the `read_user` scope.
 *
 * @example
 * ```ts
 * GitLab({ clientId: env.AUTH_GITLAB_ID, clientSecret: env.AUTH_GITLAB_SECRET })
 * GitLab({ baseUrl: "https://gitlab.example.com" }) // self-managed
 * ```
 */
export function GitLab(options: GitLabOptions = {}): OAuthConfig {
  const { baseUrl = "https://gitlab.com", ...rest } = options
  const base = baseUrl.replace(/\/+$/, "")
  return oauthProvider<GitLabProfile>(
    {
      id: "gitlab",
      name: "GitLab",
      type: "oauth",
      authorization: { url: `${base}/oauth/authorize`, params: { scope: "read_user" } },
      token: `${base}/oauth/token`,
      userinfo: `${base}/api/v4/user`,
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? profile.username,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#FC6D26", text: "#fff" },
    },
    rest,
  )
}

export default GitLab
