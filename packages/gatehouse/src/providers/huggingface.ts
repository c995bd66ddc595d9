/**
 * Sign-in with Hugging Face (OpenID Connect).
 * @module gatehouse-auth/providers/huggingface
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** One organization in a Hugging Face ID token's `orgs` claim. */
export interface HuggingfaceOrganization {
  [claim: string]: unknown
  /** The organization's id. */
  sub: string
  /** The organization's display name. */
  name: string
  /** The organization's handle. */
  preferred_username: string
  /** The organization's avatar URL. */
  picture: string
  /** Whether the organization has an Enterprise subscription. */
  isEnterprise: boolean
  /** The user's role there, when the app was granted access to the organization. */
  roleInOrg?: "admin" | "write" | "read" | "contributor"
}

/** The claims of a Hugging Face ID token (with the `profile` and `email` scopes). */
export interface HuggingfaceProfile {
  [claim: string]: unknown
  /** The user's id; the user's `id`. */
  sub: string
  /** Full name (`profile` scope); the user's `name`. */
  name?: string
  /** The username (`profile` scope), used as the name when there is none. */
  preferred_username?: string
  /** The avatar's URL (`profile` scope); the user's `image`. */
  picture?: string
  /** The user's profile page (`profile` scope). */
  profile?: string
  /** The user's website (`profile` scope). */
  website?: string
  /** The email address (`email` scope). */
  email?: string
  /** Whether Hugging Face verified the address; it requires a verified one for OAuth apps. */
  email_verified?: boolean
  /** Whether the user has a paid subscription. */
  isPro: boolean
  /** Whether the user has a payment method (`read-billing` scope). */
  canPay?: boolean
  /** The user's organizations. */
  orgs: HuggingfaceOrganization[]
}

/**
 * A Hugging Face OAuth app, through OpenID Connect discovery at `https://huggingface.co`, with
 * PKCE and state. Ask for more with `authorization.params.scope` (`read-repos`, `inference-api`, …).
 *
 * @example
 * ```ts
 * Huggingface({ clientId: env.AUTH_HUGGINGFACE_ID, clientSecret: env.AUTH_HUGGINGFACE_SECRET })
 * ```
 */
export function Huggingface(options?: OAuthUserConfig<HuggingfaceProfile>): OAuthConfig {
  return oauthProvider<HuggingfaceProfile>(
    {
      id: "huggingface",
      name: "Hugging Face",
      type: "oidc",
      issuer: "https://huggingface.co",
      checks: ["state", "pkce"],
      profile: standardClaimsProfile,
      style: { bg: "#FFD21E", text: "#000" },
    },
    options,
  )
}

export default Huggingface
