/**
 * Sign-in with Bitbucket Cloud.
 * @module gatehouse-auth/providers/bitbucket
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

const USER = "https://api.bitbucket.org/2.0/user"

/** The user as `GET /2.0/user` returns it, plus the email this provider looks up. */
export interface BitbucketProfile {
  [field: string]: unknown
  /** The Atlassian account id. */
  account_id: string
  /** `{…}`-wrapped UUID. */
  uuid: string
  /** The display name; the user's `name`. */
  display_name: string
  /** The public nickname, used as the name when there is no display name. */
  nickname?: string
  /** The username, where the account still has one. */
  username?: string
  /** Links to the user's resources; `avatar` is the picture. */
  links: {
    /** The avatar. */
    avatar?: {
      /** The avatar's URL. */
      href: string
    }
    [link: string]:
      | {
          /** The link's URL. */
          href: string
        }
      | undefined
  }
  /** Set by this provider from `GET /2.0/user/emails`: the primary, confirmed address. */
  email?: string | null
}

/**
 * A Bitbucket OAuth consumer with the Account: Email and Read permissions. Bitbucket's user has
 * no email field, so the primary confirmed address comes from `/2.0/user/emails`.
 *
 * @example
 * ```ts
 * Bitbucket({ clientId: env.AUTH_BITBUCKET_ID, clientSecret: env.AUTH_BITBUCKET_SECRET })
 * ```
 */
export function Bitbucket(options?: OAuthUserConfig<BitbucketProfile>): OAuthConfig {
  return oauthProvider<BitbucketProfile>(
    {
      id: "bitbucket",
      name: "Bitbucket",
      type: "oauth",
      authorization: { url: "https://bitbucket.org/site/oauth2/authorize", params: { scope: "account email" } },
      token: "https://bitbucket.org/site/oauth2/access_token",
      userinfo: {
        url: USER,
        async request(context) {
          const userUrl = endpointUrl(context.provider.userinfo, USER)
          const profile = (await fetchJson(context, userUrl)) as BitbucketProfile
          // Without the email permission this fails; the user then signs in without an email.
          const emails = (await fetchJson(context, `${userUrl}/emails`).catch(() => null)) as {
            values?: { email: string; is_primary: boolean; is_confirmed: boolean }[]
          } | null
          profile.email = emails?.values?.find((e) => e.is_primary && e.is_confirmed)?.email ?? null
          return profile
        },
      },
      profile: (profile) => ({
        id: String(profile.account_id ?? profile.uuid),
        name: profile.display_name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.links?.avatar?.href ?? null,
      }),
      style: { bg: "#205081", text: "#fff" },
    },
    options,
  )
}

export default Bitbucket
