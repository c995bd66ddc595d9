/**
 * Sign-in with WorkOS (SSO).
 * @module gatehouse-auth/providers/workos
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** A WorkOS SSO profile: the user as their organization's identity provider describes them. */
export interface WorkOSProfile {
  [field: string]: unknown
  /** Always `profile`. */
  object: string
  /** The WorkOS profile id; the user's `id`. */
  id: string
  /** The organization the connection belongs to. */
  organization_id: string | null
  /** The SSO connection used. */
  connection_id: string
  /** The connection's kind, e.g. `OktaSAML` or `GoogleOAuth`. */
  connection_type: string
  /** The user's id at the identity provider. */
  idp_id: string
  /** The email address. */
  email: string
  /** First name. */
  first_name: string | null
  /** Last name. */
  last_name: string | null
  /** What the identity provider sent, unnormalized. */
  raw_attributes: {
    [attribute: string]: unknown
    /** The picture's URL, where the identity provider sends one; the user's `image`. */
    picture?: string
  }
}

/** Options of {@link WorkOS}. */
export type WorkOSOptions = OAuthUserConfig<WorkOSProfile> & {
  /** The SSO connection to sign in with (`conn_…`). */
  connection?: string
  /** The organization whose SSO connection to sign in with (`org_…`), in place of `connection`. */
  organization?: string
}

/**
 * WorkOS SSO: the user signs in at their organization's identity provider, through the connection
 * or organization named here (or through `authorization: { params: { provider: "GoogleOAuth" } }`).
 * `issuer` (`AUTH_WORKOS_ISSUER`) points it at another API host, default `https://api.workos.com/`.
 * WorkOS returns the profile with the token; only when it does not is `/sso/profile` asked.
 *
 * @example
 * ```ts
 * WorkOS({ clientId: env.AUTH_WORKOS_ID, clientSecret: env.AUTH_WORKOS_SECRET, connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" })
 * ```
 */
export function WorkOS(options: WorkOSOptions = {}): OAuthConfig {
  const { connection = "", organization, ...rest } = options
  const api = (rest.issuer ?? "https://api.workos.com/").replace(/\/*$/, "/")
  const profileUrl = `${api}sso/profile`
  return oauthProvider<WorkOSProfile>(
    {
      id: "workos",
      name: "WorkOS",
      type: "oauth",
      authorization: { url: `${api}sso/authorize`, params: organization ? { organization } : { connection } },
      token: `${api}sso/token`,
      client: { token_endpoint_auth_method: "client_secret_post" },
      userinfo: {
        url: profileUrl,
        async request(context) {
          const { profile } = context.tokens
          if (typeof profile === "object" && profile !== null && !Array.isArray(profile)) return profile
          return fetchJson(context, endpointUrl(context.provider.userinfo, profileUrl))
        },
      },
      profile: (profile) => ({
        id: profile.id,
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: profile.raw_attributes?.picture ?? null,
      }),
      style: { bg: "#6363f1", text: "#fff" },
    },
    rest,
  )
}

export default WorkOS
