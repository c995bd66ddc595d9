/**
 * Sign-in through SAML single sign-on, with BoxyHQ's SAML Jackson (self-hosted or BoxyHQ's
 * service) turning each SAML identity provider into OAuth 2.0.
 * @module gatehouse-auth/providers/boxyhq-saml
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as SAML Jackson's `/api/oauth/userinfo` returns it, from the SAML assertion. */
export interface BoxyHQSAMLProfile {
  [field: string]: unknown
  /** The user's id at the SAML identity provider; the user's `id`. */
  id: string
  /** The email address. */
  email: string
  /** The first name. */
  firstName?: string
  /** The last name. */
  lastName?: string
  /** Every attribute of the SAML assertion. */
  raw?: Record<string, unknown>
  /** The tenant the SAML connection belongs to. */
  requested?: Record<string, unknown>
}

/**
 * SAML Jackson's OAuth 2.0 flow (`provider=saml`). `issuer` is the Jackson instance's URL (e.g.
 * `https://jackson.example.com`), from this option or `AUTH_BOXYHQ_SAML_ISSUER`, and the three
 * endpoints are under it: `/api/oauth/authorize`, `/api/oauth/token`, `/api/oauth/userinfo`.
 *
 * The endpoints are built when the provider is: give the issuer as an option, or list the
 * factory itself (`providers: [SAMLJackson]`) so that it is called with `AUTH_BOXYHQ_SAML_ISSUER`.
 * A provider built without one has no endpoints, which the configuration check reports. Which
 * SAML connection signs in is chosen by the authorization parameters `tenant` and `product`:
 * set them here, or add them to the query of the sign-in request
 * (`POST /auth/signin/boxyhq-saml?tenant=acme.com&product=crm`), which is passed on.
 *
 * @example
 * ```ts
 * SAMLJackson({ clientId: "dummy", clientSecret: "dummy", issuer: env.AUTH_BOXYHQ_SAML_ISSUER })
 * SAMLJackson({ issuer: "https://jackson.example.com", authorization: { params: { tenant: "acme.com", product: "crm" } } })
 * ```
 */
export function SAMLJackson(options: OAuthUserConfig<BoxyHQSAMLProfile> = {}): OAuthConfig {
  const { issuer, ...rest } = options
  // Jackson's issuer has no trailing slash; a slash here would put `//` in every endpoint.
  const base = issuer?.replace(/\/+$/, "")
  return oauthProvider<BoxyHQSAMLProfile>(
    {
      id: "boxyhq-saml",
      name: "BoxyHQ SAML",
      type: "oauth",
      ...(base && {
        issuer: base,
        token: `${base}/api/oauth/token`,
        userinfo: `${base}/api/oauth/userinfo`,
      }),
      authorization: { ...(base && { url: `${base}/api/oauth/authorize` }), params: { provider: "saml" } },
      profile: (profile) => ({
        id: String(profile.id),
        name: [profile.firstName, profile.lastName].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#25c2a0", text: "#fff" },
    },
    rest,
  )
}

export default SAMLJackson
