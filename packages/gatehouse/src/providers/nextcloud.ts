/**
 * Sign-in with Nextcloud (any server).
 * @module gatehouse-auth/providers/nextcloud
 */
import type { EndpointRequestContext, OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as the provisioning API (`GET /ocs/v1.php/cloud/users/<id>`) returns it, under `ocs.data`. */
export interface NextcloudProfile {
  [field: string]: unknown
  /** The user id (login name); the user's `id`. */
  id: string
  /** The email address; the user's `email`. */
  email: string | null
  /** The display name; the user's `name`. */
  displayname: string
  /** The phone number. */
  phone?: string
  /** The postal address. */
  address?: string
  /** The user's website. */
  website?: string
  /** The user's Twitter handle. */
  twitter?: string
  /** The user's fediverse handle. */
  fediverse?: string
  /** The user's organisation. */
  organisation?: string
  /** The user's role. */
  role?: string
  /** The user's headline. */
  headline?: string
  /** The user's biography. */
  biography?: string
  /** The groups the user is in. */
  groups?: string[]
  /** The user's language, e.g. `en`. */
  language?: string
  /** The user's locale, e.g. `en_US`. */
  locale?: string
  /** Whether the account is enabled. */
  enabled?: boolean
}

/**
 * A Nextcloud OAuth 2.0 client. `issuer` is the server's URL, e.g. `https://cloud.example.com`,
 * required: from this option or `AUTH_NEXTCLOUD_ISSUER` (through the bare `Nextcloud`, as the
 * endpoints are built from it). Nextcloud's token response names the user (`user_id`), whose
 * profile comes from the provisioning API (with the `OCS-APIRequest` header it requires); the
 * image is the server's avatar URL for that user.
 *
 * @example
 * ```ts
 * Nextcloud({ clientId: env.AUTH_NEXTCLOUD_ID, clientSecret: env.AUTH_NEXTCLOUD_SECRET, issuer: env.AUTH_NEXTCLOUD_ISSUER })
 * ```
 */
export function Nextcloud(options: OAuthUserConfig<NextcloudProfile> = {}): OAuthConfig {
  const base = options.issuer?.replace(/\/+$/, "")
  return oauthProvider<NextcloudProfile>(
    {
      id: "nextcloud",
      name: "Nextcloud",
      type: "oauth",
      ...(base ? { authorization: `${base}/apps/oauth2/authorize`, token: `${base}/apps/oauth2/api/v1/token` } : {}),
      userinfo: { ...(base ? { url: `${base}/ocs/v1.php/cloud/users` } : {}), request: provisionedUser },
      profile: (profile) => ({
        id: profile.id,
        name: profile.displayname ?? null,
        email: profile.email ?? null,
        image: base ? `${base}/avatar/${encodeURIComponent(profile.id)}/512` : null,
      }),
      style: { bg: "#fff", text: "#0082C9" },
    },
    options,
  )
}

/** `GET <userinfo URL>/<user_id>` with `OCS-APIRequest: true`; the user is under `ocs.data`. */
async function provisionedUser(context: EndpointRequestContext): Promise<unknown> {
  const userId = context.tokens.user_id
  if (typeof userId !== "string" || userId === "") throw new Error(`${context.provider.id}: the token response names no user_id`)
  const users = endpointUrl(context.provider.userinfo, "").replace(/\/+$/, "")
  if (users === "") throw new Error(`${context.provider.id}: no userinfo URL (set issuer to the server's URL)`)
  const answer = (await fetchJson(context, `${users}/${encodeURIComponent(userId)}`, { headers: { "ocs-apirequest": "true" } })) as {
    ocs?: { data?: unknown }
  }
  // A failure the OCS API answers with HTTP 200 has `[]` there, which the core refuses as a profile.
  return answer.ocs?.data
}

export default Nextcloud
