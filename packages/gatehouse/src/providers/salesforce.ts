/**
 * Sign-in with Salesforce (OpenID Connect).
 * @module gatehouse-auth/providers/salesforce
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as Salesforce's userinfo endpoint returns it. */
export interface SalesforceProfile {
  [claim: string]: unknown
  /** The identity URL, `https://login.salesforce.com/id/<org id>/<user id>`; the user's `id`. */
  sub: string
  /** The user id. */
  user_id?: string
  /** The org id. */
  organization_id?: string
  /** Full name; the user's `name`. */
  name?: string
  /** The community nickname, used as the name when there is none. */
  nickname: string
  /** The username. */
  preferred_username?: string
  /** The email address. */
  email: string
  /** Whether Salesforce verified the address. */
  email_verified?: boolean
  /** The photo's URL (it needs the access token to load); the user's `image`. */
  picture: string
}

/**
 * A Salesforce connected app, through OpenID Connect discovery at `https://login.salesforce.com`
 * (`issuer: "https://test.salesforce.com"` for a sandbox, or your My Domain URL). The profile
 * comes from the userinfo endpoint, which has more than the ID token.
 *
 * @example
 * ```ts
 * Salesforce({ clientId: env.AUTH_SALESFORCE_ID, clientSecret: env.AUTH_SALESFORCE_SECRET })
 * ```
 */
export function Salesforce(options?: OAuthUserConfig<SalesforceProfile>): OAuthConfig {
  return oauthProvider<SalesforceProfile>(
    {
      id: "salesforce",
      name: "Salesforce",
      type: "oidc",
      issuer: "https://login.salesforce.com",
      idToken: false,
      checks: ["pkce", "state", "nonce"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#00a1e0", text: "#fff" },
    },
    options,
  )
}

export default Salesforce
