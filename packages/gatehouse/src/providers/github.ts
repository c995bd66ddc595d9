/**
 * Sign-in with GitHub (github.com or GitHub Enterprise Server).
 * @module gatehouse-auth/providers/github
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /user` returns it (the fields Gatehouse reads, plus any other). */
export interface GitHubProfile {
  [field: string]: unknown
  /** The numeric user id; the user's `id` (as a string). */
  id: number
  /** The username, used as the name when there is none. */
  login: string
  /** The display name; the user's `name`. */
  name: string | null
  /** The public email; `null` when the user keeps it private. */
  email: string | null
  /** Set by Gatehouse: whether `/user/emails` lists `email` as verified. */
  email_verified?: boolean
  /** The avatar's URL; the user's `image`. */
  avatar_url: string
  /** The user's page on GitHub. */
  html_url: string
}

/** One entry of `GET /user/emails`. */
export interface GitHubEmail {
  /** The address. */
  email: string
  /** Whether it is the account's primary address. */
  primary: boolean
  /** Whether the user verified it with GitHub. */
  verified: boolean
  /** Whether the address shows on the user's profile. */
  visibility: "public" | "private" | null
}

/** Options of {@link GitHub}. */
export type GitHubOptions = OAuthUserConfig<GitHubProfile> & {
  /** For GitHub Enterprise Server: `baseUrl` is the instance, e.g. `https://github.example.com`. */
  enterprise?: {
    /** The instance's URL, e.g. `https://github.example.com`. */
    baseUrl?: string
  }
}

/**
 * A GitHub OAuth App or GitHub App. The user's email comes from `/user`, or, when they keep it
 * private, from `/user/emails` (the primary one, if verified; needs the `user:email` scope). The
 * profile's `email_verified` says whether `/user/emails` lists that address as verified.
 *
 * @example
 * ```ts
 * GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET })
 * GitHub({ enterprise: { baseUrl: "https://github.example.com" } }) // GitHub Enterprise Server
 * ```
 */
export function GitHub(options: GitHubOptions = {}): OAuthConfig {
  const { enterprise, ...rest } = options
  const baseUrl = (enterprise?.baseUrl ?? "https://github.com").replace(/\/+$/, "")
  // github.com serves its API from a separate host; Enterprise Server serves it under /api/v3.
  const apiUrl = enterprise?.baseUrl ? `${baseUrl}/api/v3` : "https://api.github.com"
  // GitHub's API refuses requests without a User-Agent, and not every runtime sends one.
  const headers = { "user-agent": "gatehouse", accept: "application/vnd.github+json" }
  return oauthProvider<GitHubProfile>(
    {
      id: "github",
      name: "GitHub",
      type: "oauth",
      // GitHub names itself in the callback (`iss`, RFC 9207); a callback naming another issuer is refused.
      issuer: `${baseUrl}/login/oauth`,
      authorization: { url: `${baseUrl}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
      token: `${baseUrl}/login/oauth/access_token`,
      userinfo: {
        url: `${apiUrl}/user`,
        async request(context) {
          const userUrl = endpointUrl(context.provider.userinfo, `${apiUrl}/user`)
          const profile = (await fetchJson(context, userUrl, { headers })) as GitHubProfile
          // Missing scope or a GitHub hiccup leaves the user without email (or unproven) rather than failing sign-in.
          const listed = await fetchJson(context, `${userUrl}/emails`, { headers }).catch(() => null)
          const emails = Array.isArray(listed) ? (listed as GitHubEmail[]) : []
          profile.email ??= emails.find((e) => e.primary && e.verified)?.email ?? null
          // Only the list says whether GitHub checked an address; the profile's public one may not be.
          const address = profile.email?.toLowerCase()
          profile.email_verified = emails.some((e) => e.verified === true && e.email.toLowerCase() === address)
          return profile
        },
      },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
      }),
      style: { bg: "#24292f", text: "#fff" },
    },
    rest,
  )
}

export default GitHub
