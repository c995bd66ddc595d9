/**
 * Sign-in with Google.
 * @module gatehouse-auth/providers/google
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Google ID token. */
export interface GoogleProfile {
  [claim: string]: unknown
  /** The Google account id; the user's `id`. */
  sub: string
  /** The email address. */
  email: string
  /** Whether Google verified the address. */
  email_verified: boolean
  /** Full name; the user's `name`. */
  name: string
  /** Given name. */
  given_name?: string
  /** Family name. */
  family_name?: string
  /** The picture's URL; the user's `image`. */
  picture: string
  /** The user's locale, a BCP 47 tag. */
  locale?: string
  /** The Google Workspace domain, for Workspace accounts only. */
  hd?: string
}

/**
 * Google, through OpenID Connect discovery at `https://accounts.google.com`.
 *
 * To get a refresh token, ask for offline access; Google only returns one on the consent screen:
 * `authorization: { params: { access_type: "offline", prompt: "consent" } }`.
 *
 * @example
 * ```ts
 * Google({ clientId: env.AUTH_GOOGLE_ID, clientSecret: env.AUTH_GOOGLE_SECRET })
 * ```
 */
export function Google(options?: OAuthUserConfig<GoogleProfile>): OAuthConfig {
  return oauthProvider<GoogleProfile>(
    {
      id: "google",
      name: "Google",
      type: "oidc",
      issuer: "https://accounts.google.com",
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}

export default Google
