/**
 * Sign-in with Azure AD B2C (Microsoft's customer identity service), through a user flow.
 * @module gatehouse-auth/providers/azure-ad-b2c
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of an Azure AD B2C ID token, as a user flow returns them. */
export interface AzureADB2CProfile {
  [claim: string]: unknown
  /** The user's object id (unless the user flow maps `sub` otherwise); the user's `id`. */
  sub: string
  /** The user's object id. */
  oid?: string
  /** The display name; the user's `name`. */
  name?: string
  /** Used as the name when there is no display name. */
  preferred_username?: string
  /** The user's addresses (the "Email Addresses" claim of the user flow); the first is the user's `email`. */
  emails?: string[]
  /** The user flow (policy) that issued the token. */
  tfp?: string
  /** The given name. */
  given_name?: string
  /** The surname. */
  family_name?: string
  /** The country, when the user flow collects it. */
  country?: string
  /** The postal code, when the user flow collects it. */
  postalCode?: string
}

/** Options of {@link AzureADB2C}. */
export type AzureADB2COptions = OAuthUserConfig<AzureADB2CProfile> & {
  /**
   * The B2C tenant's name, `contoso` for `contoso.onmicrosoft.com`; with `primaryUserFlow`, it
   * names the issuer when `issuer` is not given.
   */
  tenantId?: string
  /** The user flow (policy) to sign in with, e.g. `B2C_1_signupsignin`. */
  primaryUserFlow?: string
}

/**
 * Azure AD B2C, through OpenID Connect discovery of one user flow. `issuer` is the user flow's
 * authority, `https://<tenant>.b2clogin.com/<tenant>.onmicrosoft.com/<user flow>/v2.0`, from
 * this option or `AUTH_AZURE_AD_B2C_ISSUER`; or give `tenantId` and `primaryUserFlow` and it is
 * built from them.
 *
 * A user flow's metadata lives under its authority, but names another issuer,
 * `https://<tenant>.b2clogin.com/<tenant id>/v2.0/` (unless the flow is set to the `tfp` issuer
 * format). Discovery therefore takes the issuer the metadata names, and ID tokens must name
 * that issuer; the metadata itself is trusted because it is fetched from the authority you
 * configured.
 *
 * @example
 * ```ts
 * AzureADB2C({
 *   clientId: env.AUTH_AZURE_AD_B2C_ID,
 *   clientSecret: env.AUTH_AZURE_AD_B2C_SECRET,
 *   issuer: env.AUTH_AZURE_AD_B2C_ISSUER,
 * })
 * AzureADB2C({ tenantId: "contoso", primaryUserFlow: "B2C_1_signupsignin" })
 * ```
 */
export function AzureADB2C(options: AzureADB2COptions = {}): OAuthConfig {
  const { tenantId, primaryUserFlow, ...rest } = options
  const issuer =
    tenantId && primaryUserFlow ? `https://${tenantId}.b2clogin.com/${tenantId}.onmicrosoft.com/${primaryUserFlow}/v2.0` : undefined
  return oauthProvider<AzureADB2CProfile>(
    {
      id: "azure-ad-b2c",
      name: "Azure AD B2C",
      type: "oidc",
      ...(issuer && { issuer }),
      // The presence of this hook is what makes discovery accept the issuer the user flow's
      // metadata names; each ID token must then name that same issuer.
      idTokenIssuer: (_claims, discovered) => discovered,
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.emails?.[0] ?? null,
        image: null,
      }),
      style: { bg: "#0072c6", text: "#fff" },
    },
    rest,
  )
}

export default AzureADB2C
