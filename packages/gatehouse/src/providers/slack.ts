/**
 * Sign-in with Slack ("Sign in with Slack", OpenID Connect).
 * @module gatehouse-auth/providers/slack
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Slack ID token. */
export interface SlackProfile {
  [claim: string]: unknown
  /** The Slack user id, e.g. `U0123ABCD`. */
  sub: string
  /** The Slack user id (the same as `sub`). */
  "https://slack.com/user_id": string
  /** The workspace id. */
  "https://slack.com/team_id": string
  /** The workspace name. */
  "https://slack.com/team_name"?: string
  /** The email address. */
  email: string
  /** Whether Slack verified the address. */
  email_verified: boolean
  /** Full name; the user's `name`. */
  name: string
  /** The avatar's URL; the user's `image`. */
  picture: string
  /** Given name. */
  given_name?: string
  /** Family name. */
  family_name?: string
}

/**
 * Slack, through OpenID Connect discovery at `https://slack.com`. Slack only accepts `https`
 * redirect URLs, even during development.
 *
 * @example
 * ```ts
 * Slack({ clientId: env.AUTH_SLACK_ID, clientSecret: env.AUTH_SLACK_SECRET })
 * ```
 */
export function Slack(options?: OAuthUserConfig<SlackProfile>): OAuthConfig {
  return oauthProvider<SlackProfile>(
    {
      id: "slack",
      name: "Slack",
      type: "oidc",
      issuer: "https://slack.com",
      // As in Auth.js: Slack's OpenID flow binds the ID token with a nonce rather than PKCE.
      checks: ["nonce"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#611f69", text: "#fff" },
    },
    options,
  )
}

export default Slack
