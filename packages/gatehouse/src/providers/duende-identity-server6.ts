/**
 * Sign-in with Duende IdentityServer (version 6 and later).
 * @module gatehouse-auth/providers/duende-identity-server6
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a Duende IdentityServer ID token (with the `profile` and `email` scopes). */
export interface DuendeISUser {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name?: string
  /** A casual name, used as the name when there is none. */
  nickname?: string
  /** The user name, used as the name when there is neither. */
  preferred_username?: string
  /** The email address. */
  email?: string
  /** Whether the address is verified. */
  email_verified?: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
  /** Declared by Auth.js's type of this profile; sent only by a server configured to. */
  id?: string
  /** Declared by Auth.js's type of this profile; sent only by a server configured to. */
  verified?: boolean
}

/**
 * A client of a Duende IdentityServer, through OpenID Connect discovery. `issuer` is required,
 * from this option or `AUTH_DUENDE_IDENTITY_SERVER6_ISSUER`: the server's URL, e.g.
 * `https://demo.duendesoftware.com` (Duende's demo server, where the client
 * `interactive.confidential` with secret `secret` signs in as `bob`/`bob`).
 *
 * @example
 * ```ts
 * DuendeIdentityServer6({
 *   clientId: env.AUTH_DUENDE_IDENTITY_SERVER6_ID,
 *   clientSecret: env.AUTH_DUENDE_IDENTITY_SERVER6_SECRET,
 *   issuer: env.AUTH_DUENDE_IDENTITY_SERVER6_ISSUER,
 * })
 * ```
 */
export function DuendeIdentityServer6(options?: OAuthUserConfig<DuendeISUser>): OAuthConfig {
  return oauthProvider<DuendeISUser>(
    {
      id: "duende-identity-server6",
      name: "DuendeIdentityServer6",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}

export default DuendeIdentityServer6
