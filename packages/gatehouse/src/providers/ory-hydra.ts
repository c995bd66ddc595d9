/**
 * Sign-in with Ory Hydra or Ory Network (OpenID Connect). The provider's id is `hydra`, as in
 * Auth.js: the callback is `/callback/hydra` and the variables `AUTH_HYDRA_ID`, `AUTH_HYDRA_SECRET`
 * and `AUTH_HYDRA_ISSUER`.
 * @module gatehouse-auth/providers/ory-hydra
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of an Ory Hydra ID token. */
export interface OryHydraProfile {
  [claim: string]: unknown
  /** The issuer. */
  iss: string
  /** The subject; the user's `id`. */
  sub: string
  /** The client id. */
  aud: string | string[]
  /** Issue time, seconds since the epoch. */
  iat: number
  /** Expiry, seconds since the epoch. */
  exp: number
  /** The token's id. */
  jti?: string
  /** How the user authenticated. */
  amr?: string[]
  /** The email address, when the login and consent app puts it in the ID token. */
  email?: string
  /** Full name, when the login and consent app puts it in the ID token; the user's `name`. */
  name?: string
}

/**
 * An Ory Hydra (self-hosted) or Ory Network OAuth 2 client, through OpenID Connect discovery.
 * `issuer` is required, from this option or `AUTH_HYDRA_ISSUER`, e.g.
 * `https://my-project.projects.oryapis.com`.
 *
 * @example
 * ```ts
 * OryHydra({ clientId: env.AUTH_HYDRA_ID, clientSecret: env.AUTH_HYDRA_SECRET, issuer: env.AUTH_HYDRA_ISSUER })
 * ```
 */
export function OryHydra(options?: OAuthUserConfig<OryHydraProfile>): OAuthConfig {
  return oauthProvider<OryHydraProfile>(
    {
      id: "hydra",
      name: "Hydra",
      type: "oidc",
      profile: standardClaimsProfile,
      style: { bg: "#fff", text: "#0F172A" },
    },
    options,
  )
}

export default OryHydra
