/**
 * Sign-in with Figma.
 * @module gatehouse-auth/providers/figma
 */
import type { OAuthConfig } from "./types.js"
import { withBearerTokenType, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://api.figma.com/v1/me` returns it. */
export interface FigmaProfile {
  [field: string]: unknown
  /** The user id; the user's `id`. */
  id: string
  /** The email address. */
  email: string
  /** The display name; the user's `name`. */
  handle: string
  /** The avatar's URL; the user's `image`. */
  img_url: string
}

/**
 * A Figma OAuth app, asking for `files:read` (Figma also offers narrower scopes such as
 * `current_user:read`; set `authorization.params.scope` to use them). Figma takes `state` but no
 * PKCE, and its token answer may leave out `token_type` (its tokens are bearer tokens). The
 * profile is `GET /v1/me`.
 *
 * @example
 * ```ts
 * Figma({ clientId: env.AUTH_FIGMA_ID, clientSecret: env.AUTH_FIGMA_SECRET })
 * ```
 */
export function Figma(options?: OAuthUserConfig<FigmaProfile>): OAuthConfig {
  return oauthProvider<FigmaProfile>(
    {
      id: "figma",
      name: "Figma",
      type: "oauth",
      checks: ["state"],
      authorization: { url: "https://www.figma.com/oauth", params: { scope: "files:read" } },
      token: { url: "https://api.figma.com/v1/oauth/token", conform: withBearerTokenType },
      userinfo: "https://api.figma.com/v1/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.handle ?? null,
        email: profile.email ?? null,
        image: profile.img_url ?? null,
      }),
      style: { bg: "#ff7237", text: "#fff" },
    },
    options,
  )
}

export default Figma
