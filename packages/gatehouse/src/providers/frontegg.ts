/**
 * Sign-in with Frontegg (OpenID Connect).
 * @module gatehouse-auth/providers/frontegg
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a Frontegg ID token. */
export interface FronteggProfile {
  [claim: string]: unknown
  /** The user's Frontegg id; the user's `id`. */
  sub: string
  /** The user's name; the user's `name`. */
  name: string
  /** The email address. */
  email: string
  /** Whether Frontegg verified the address. */
  email_verified: boolean
  /** The picture's URL; the user's `image`. */
  picture?: string
  /** The profile picture's URL, as Frontegg's user API names it. */
  profilePictureUrl?: string
  /** The user's roles. */
  roles?: string[]
}

/**
 * A Frontegg environment's hosted login. `issuer` is required, from this option or
 * `AUTH_FRONTEGG_ISSUER`: the environment's domain, e.g. `https://app-abc123.frontegg.com`; the
 * endpoints are under it (`/oauth/authorize`, `/oauth/token`, `/identity/resources/users/v2/me`),
 * so no discovery is made. Give `issuer` to the factory (or use the bare `Frontegg`, which gets
 * it from the environment): the endpoints are built from it.
 *
 * @example
 * ```ts
 * Frontegg({ clientId: env.AUTH_FRONTEGG_ID, clientSecret: env.AUTH_FRONTEGG_SECRET, issuer: env.AUTH_FRONTEGG_ISSUER })
 * ```
 */
export function Frontegg(options: OAuthUserConfig<FronteggProfile> = {}): OAuthConfig {
  const base = options.issuer?.replace(/\/+$/, "")
  return oauthProvider<FronteggProfile>(
    {
      id: "frontegg",
      name: "Frontegg",
      type: "oidc",
      ...(base
        ? {
            authorization: `${base}/oauth/authorize`,
            token: `${base}/oauth/token`,
            userinfo: `${base}/identity/resources/users/v2/me`,
          }
        : {}),
      profile: standardClaimsProfile,
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default Frontegg
