/**
 * Sign-in with Mailchimp.
 * @module gatehouse-auth/providers/mailchimp
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The answer of `GET https://login.mailchimp.com/oauth2/metadata`. */
export interface MailchimpProfile {
  [field: string]: unknown
  /** The data center, e.g. `us19`. */
  dc: string
  /** The account's name; the user's `name`. */
  accountname: string
  /** The account's id. */
  user_id?: number
  /** The API's base URL for this account. */
  api_endpoint: string
  /** The person who signed in. */
  login: {
    [field: string]: unknown
    /** The login's numeric id; the user's `id` (as a string). */
    login_id: number
    /** The login name. */
    login_name: string
    /** The login's email address; the user's `email`. */
    email: string
    /** The avatar's URL. */
    avatar?: string | null
  }
}

/**
 * A Mailchimp app. The profile is the login's metadata (`/oauth2/metadata`).
 *
 * @example
 * ```ts
 * Mailchimp({ clientId: env.AUTH_MAILCHIMP_ID, clientSecret: env.AUTH_MAILCHIMP_SECRET })
 * ```
 */
export function Mailchimp(options?: OAuthUserConfig<MailchimpProfile>): OAuthConfig {
  return oauthProvider<MailchimpProfile>(
    {
      id: "mailchimp",
      name: "Mailchimp",
      type: "oauth",
      authorization: "https://login.mailchimp.com/oauth2/authorize",
      token: "https://login.mailchimp.com/oauth2/token",
      userinfo: "https://login.mailchimp.com/oauth2/metadata",
      profile: (profile) => ({
        id: String(profile.login.login_id),
        name: profile.accountname ?? null,
        email: profile.login.email ?? null,
        image: null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default Mailchimp
