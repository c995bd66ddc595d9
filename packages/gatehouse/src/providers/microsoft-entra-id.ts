/**
 * Sign-in with Microsoft Entra ID (formerly Azure AD), work, school and personal accounts.
 * @module gatehouse-auth/providers/microsoft-entra-id
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of an Entra ID (v2.0) ID token. */
export interface MicrosoftEntraIDProfile {
  [claim: string]: unknown
  /** Unique to the user and this application. */
  sub: string
  /** The user's object id, the same across applications of the tenant. */
  oid?: string
  /** The tenant the user signed in from. */
  tid?: string
  /** The display name; the user's `name`. */
  name?: string
  /** Only when the `email` optional claim is configured, or for some personal accounts. */
  email?: string
  /** The sign-in name (often an email address, but not a verified one). */
  preferred_username?: string
}

/** Options of {@link MicrosoftEntraID}. */
export type MicrosoftEntraIDOptions = OAuthUserConfig<MicrosoftEntraIDProfile> & {
  /**
   * Who may sign in: a tenant id or domain for one organisation only, `organizations` for any
   * work or school account, `consumers` for personal accounts, `common` (default) for both.
   * Ignored when `issuer` is given.
   */
  tenantId?: string
}

/**
 * Microsoft Entra ID through OpenID Connect discovery. For `common` and `organizations`, the
 * discovered issuer names a `{tenantid}` placeholder; `idTokenIssuer` fills it from each ID
 * token's `tid`, so tokens of every tenant validate.
 *
 * In a multi-tenant app the `email` claim is whatever the user's tenant says it is, not a
 * verified address: do not link accounts by it (`allowDangerousEmailAccountLinking`) unless you
 * restrict tenants or check the `xms_edov` claim.
 *
 * @example
 * ```ts
 * MicrosoftEntraID({ clientId: env.AUTH_MICROSOFT_ENTRA_ID_ID, clientSecret: env.AUTH_MICROSOFT_ENTRA_ID_SECRET })
 * MicrosoftEntraID({ tenantId: "contoso.onmicrosoft.com" }) // one organisation only
 * ```
 */
export function MicrosoftEntraID(options: MicrosoftEntraIDOptions = {}): OAuthConfig {
  const { tenantId = "common", ...rest } = options
  return oauthProvider<MicrosoftEntraIDProfile>(
    {
      id: "microsoft-entra-id",
      name: "Microsoft Entra ID",
      type: "oidc",
      issuer: `https://login.microsoftonline.com/${tenantId}/v2.0`,
      // As in Auth.js: the access token then reads the user from Microsoft Graph (`/me`), as apps
      // moving from Auth.js may do with it.
      authorization: { params: { scope: "openid profile email User.Read" } },
      idTokenIssuer: (claims, discovered) =>
        typeof claims.tid === "string" && claims.tid !== "" ? discovered.replace("{tenantid}", claims.tid) : discovered,
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
      style: { bg: "#0072c6", text: "#fff" },
    },
    rest,
  )
}

export default MicrosoftEntraID
