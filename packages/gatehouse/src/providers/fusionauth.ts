/**
 * Sign-in with FusionAuth (OpenID Connect).
 * @module gatehouse-auth/providers/fusionauth
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a FusionAuth ID token (a JWT populate lambda can add more). */
export interface FusionAuthProfile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** The issuer. */
  iss: string
  /** The application's client id. */
  aud: string
  /** Expiry, seconds since the epoch. */
  exp: number
  /** Issue time, seconds since the epoch. */
  iat: number
  /** The token's id. */
  jti?: string
  /** How the user signed in (`PASSWORD`, `PASSWORDLESS`, …). */
  authenticationType?: string
  /** The email address; the user's `email`. */
  email: string
  /** Whether FusionAuth verified the address. */
  email_verified: boolean
  /** The username, used as the name when there is no full name. */
  preferred_username?: string
  /** Full name; the user's `name`. */
  name?: string
  /** Given name. */
  given_name?: string
  /** Middle name. */
  middle_name?: string
  /** Family name. */
  family_name?: string
  /** The picture's URL; the user's `image`. */
  picture?: string
  /** The FusionAuth session id. */
  sid?: string
}

/** Options of {@link FusionAuth}. */
export type FusionAuthOptions = OAuthUserConfig<FusionAuthProfile> & {
  /** The tenant, when the instance has more than one: sent as the `tenantId` parameter, so the tenant's theme applies. */
  tenantId?: string
}

/**
 * A FusionAuth application. `issuer` is required, from this option or `AUTH_FUSIONAUTH_ISSUER`:
 * the instance's URL, e.g. `https://auth.example.com`. The sign-in page comes from discovery; the
 * token and userinfo endpoints are `/oauth2/token` and `/oauth2/userinfo` under `issuer`. Asks
 * for a refresh token too (`offline_access`), with PKCE and state.
 *
 * FusionAuth puts a `WWW-Authenticate` header on token responses, which oauth4webapi reads as an
 * authentication challenge; it is removed from every response but a 401, so a refused code
 * (`invalid_grant`) reads as such.
 *
 * @example
 * ```ts
 * FusionAuth({ clientId: env.AUTH_FUSIONAUTH_ID, clientSecret: env.AUTH_FUSIONAUTH_SECRET, issuer: env.AUTH_FUSIONAUTH_ISSUER })
 * FusionAuth({ issuer: "https://auth.example.com", tenantId: "f1c3a2d4-…" }) // one of several tenants
 * ```
 */
export function FusionAuth(options: FusionAuthOptions = {}): OAuthConfig {
  const { tenantId, ...rest } = options
  const base = rest.issuer?.replace(/\/+$/, "")
  return oauthProvider<FusionAuthProfile>(
    {
      id: "fusionauth",
      name: "FusionAuth",
      type: "oidc",
      authorization: { params: { scope: "openid offline_access email profile", ...(tenantId ? { tenantId } : {}) } },
      token: { ...(base ? { url: `${base}/oauth2/token` } : {}), conform: withoutChallengeHeader },
      ...(base ? { userinfo: `${base}/oauth2/userinfo` } : {}),
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name:
          profile.name ??
          profile.preferred_username ??
          ([profile.given_name, profile.middle_name, profile.family_name].filter(Boolean).join(" ") || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    rest,
  )
}

/** The token response without its `WWW-Authenticate` header, unless it is a 401 (a refused client). */
function withoutChallengeHeader(response: Response): Response | undefined {
  if (response.status === 401 || !response.headers.has("www-authenticate")) return undefined
  const headers = new Headers(response.headers)
  headers.delete("www-authenticate")
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

export default FusionAuth
