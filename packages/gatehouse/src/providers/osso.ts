/**
 * Sign-in with Osso (SAML single sign-on, served as OAuth 2).
 * @module gatehouse-auth/providers/osso
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as Osso's `GET /oauth/me` returns it. */
export interface OssoProfile {
  [field: string]: unknown
  /** The user's id in Osso; the user's `id`. */
  id: string
  /** The email address the identity provider asserted; the user's `email`. */
  email: string
  /** The identity provider's id. */
  idp?: string
  /** What the sign-in asked for (`domain`, `email`). */
  requested?: Record<string, unknown>
}

/**
 * An Osso OAuth client. `issuer` is the Osso instance's URL, e.g. `https://demo.ossoapp.com`
 * (a trailing slash, or none, and a bare host name are all accepted), required: from this option
 * or `AUTH_OSSO_ISSUER` (through the bare `Osso`, as the endpoints are built from it).
 *
 * @example
 * ```ts
 * Osso({ clientId: env.AUTH_OSSO_ID, clientSecret: env.AUTH_OSSO_SECRET, issuer: env.AUTH_OSSO_ISSUER })
 * ```
 */
export function Osso(options: OAuthUserConfig<OssoProfile> = {}): OAuthConfig {
  const base = instanceUrl(options.issuer)
  return oauthProvider<OssoProfile>(
    {
      id: "osso",
      name: "Osso",
      type: "oauth",
      ...(base
        ? {
            authorization: `${base}/oauth/authorize`,
            token: `${base}/oauth/token`,
            userinfo: `${base}/oauth/me`,
          }
        : {}),
      profile: (profile) => ({
        id: String(profile.id),
        name: null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}

/**
 * The instance's URL without a trailing slash. Auth.js's documentation names the bare host
 * (`demo.ossoapp.com`) while its code wants `https://demo.ossoapp.com/`; both work here.
 */
function instanceUrl(issuer: string | undefined): string | undefined {
  if (!issuer) return undefined
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(issuer) ? issuer : `https://${issuer}`
  return withScheme.replace(/\/+$/, "")
}

export default Osso
