/**
 * Sign-in with LINE (LINE Login v2.1, OpenID Connect).
 * @module gatehouse-auth/providers/line
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** The claims of a LINE ID token. */
export interface LineProfile {
  [claim: string]: unknown
  /** Always `https://access.line.me`. */
  iss: string
  /** The user's LINE id; the user's `id`. */
  sub: string
  /** The channel id. */
  aud: string
  /** Expiry, seconds since the epoch. */
  exp: number
  /** Issue time, seconds since the epoch. */
  iat: number
  /** How the user signed in (`pwd`, `lineautologin`, `lineqr`, …). */
  amr: string[]
  /** The display name; the user's `name`. */
  name: string
  /** The profile image's URL; the user's `image`. */
  picture: string
  /** The email address, once the channel has the email permission and the user agreed. */
  email?: string
}

/**
 * A LINE Login channel, through OpenID Connect discovery at `https://access.line.me`. LINE signs
 * the ID tokens of web logins with HS256 (the channel secret as key) while its discovery
 * document lists ES256 only, so the client names HS256. As in Auth.js, the flow is checked with
 * state alone (no PKCE). The email needs the channel's email permission, applied for in the LINE
 * Developers console.
 *
 * @example
 * ```ts
 * LINE({ clientId: env.AUTH_LINE_ID, clientSecret: env.AUTH_LINE_SECRET })
 * ```
 */
export function LINE(options?: OAuthUserConfig<LineProfile>): OAuthConfig {
  return oauthProvider<LineProfile>(
    {
      id: "line",
      name: "LINE",
      type: "oidc",
      issuer: "https://access.line.me",
      client: { id_token_signed_response_alg: "HS256" },
      checks: ["state"],
      profile: standardClaimsProfile,
      style: { bg: "#00C300", text: "#fff" },
    },
    options,
  )
}

export default LINE
