/**
 * Sign-in with Azure Active Directory: Auth.js's deprecated name for Microsoft Entra ID.
 * @module gatehouse-auth/providers/azure-ad
 */
import type { OAuthConfig } from "./types.js"
import { MicrosoftEntraID, type MicrosoftEntraIDOptions, type MicrosoftEntraIDProfile } from "./microsoft-entra-id.js"

/**
 * The claims of an Entra ID (v2.0) ID token.
 * @deprecated Use {@link MicrosoftEntraIDProfile} from `gatehouse-auth/providers/microsoft-entra-id`.
 */
export type AzureADProfile = MicrosoftEntraIDProfile

/**
 * Options of {@link AzureAD}: those of Microsoft Entra ID.
 * @deprecated Use {@link MicrosoftEntraIDOptions} from `gatehouse-auth/providers/microsoft-entra-id`.
 */
export type AzureADOptions = MicrosoftEntraIDOptions

/**
 * Microsoft Entra ID under its old name: the same provider as {@link MicrosoftEntraID} (the
 * same defaults, `tenantId`, and per-tenant issuer check), with id `azure-ad` and name "Azure
 * Active Directory". The id is what changes nothing for an app that already uses it: the
 * callback stays `/callback/azure-ad`, the variables `AUTH_AZURE_AD_ID`, `AUTH_AZURE_AD_SECRET`
 * and `AUTH_AZURE_AD_ISSUER`, and stored accounts keep their provider.
 *
 * @deprecated Use `MicrosoftEntraID` from `gatehouse-auth/providers/microsoft-entra-id`. To move
 * without relinking stored accounts or changing the registered callback, keep the old id:
 * `MicrosoftEntraID({ id: "azure-ad" })` (its variables then stay `AUTH_AZURE_AD_*`).
 *
 * @example
 * ```ts
 * AzureAD({ clientId: env.AUTH_AZURE_AD_ID, clientSecret: env.AUTH_AZURE_AD_SECRET })
 * AzureAD({ tenantId: "contoso.onmicrosoft.com" }) // one organisation only
 * ```
 */
export function AzureAD(options: AzureADOptions = {}): OAuthConfig {
  return MicrosoftEntraID({ ...options, id: options.id ?? "azure-ad", name: options.name ?? "Azure Active Directory" })
}

export default AzureAD
