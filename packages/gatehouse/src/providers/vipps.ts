/**
 * Sign-in with Vipps MobilePay (Vipps Login, OpenID Connect).
 * @module gatehouse-auth/providers/vipps
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig, standardClaimsProfile } from "./oauth-user-config.js"

/** A postal address as Vipps gives it (with the `address` scope). */
export interface VippsAddress {
  /** `home`, `work` or `other`. */
  address_type: string
  /** Country code, e.g. `NO`. */
  country: string
  /** The whole address, one line per part. */
  formatted: string
  /** Postal code. */
  postal_code: string
  /** City. */
  region: string
  /** Street and number. */
  street_address: string
}

/** The user as Vipps's userinfo endpoint returns it; which fields are there depends on the scopes. */
export interface VippsProfile {
  [claim: string]: unknown
  /** The user's id for your merchant; the user's `id`. */
  sub: string
  /** Full name (with the `name` scope); the user's `name`. */
  name?: string
  /** Given name. */
  given_name?: string
  /** Family name. */
  family_name?: string
  /** The email address (with the `email` scope). */
  email?: string
  /** Whether Vipps verified the address. */
  email_verified?: boolean
  /** The phone number (with the `phoneNumber` scope). */
  phone_number?: string
  /** Date of birth, `YYYY-MM-DD` (with the `birthDate` scope). */
  birthdate?: string
  /** The national identity number (with the `nin` scope). */
  nin?: string
  /** The main address (with the `address` scope). */
  address?: VippsAddress
  /** Further addresses. */
  other_addresses?: VippsAddress[]
  /** Bank accounts (with the `accounts` scope). */
  accounts?: {
    /** The account number. */
    account_number: string
    /** The account's name. */
    account_name: string
    /** The bank's name. */
    bank_name: string
  }[]
  /** The Vipps session id. */
  sid?: string
  /** Consents the user gave (with the `delegatedConsents` scope). */
  delegatedConsents?: {
    /** The language the consents were shown in. */
    language: string
    /** The heading shown. */
    heading: string
    /** The consents and what the user chose. */
    consents: {
      /** The consent's id. */
      id: string
      /** Whether the user accepted it. */
      accepted: boolean
      /** Whether it was required. */
      required: boolean
      /** The consent's text. */
      textDisplayedToUser: string
    }[]
  }
}

/**
 * Vipps Login, through OpenID Connect discovery at Vipps's production environment
 * (`issuer: "https://apitest.vipps.no/access-management-1.0/access/"` for the test one). Asks for
 * the name and email address; the profile comes from the userinfo endpoint.
 *
 * @example
 * ```ts
 * Vipps({ clientId: env.AUTH_VIPPS_ID, clientSecret: env.AUTH_VIPPS_SECRET })
 * ```
 */
export function Vipps(options?: OAuthUserConfig<VippsProfile>): OAuthConfig {
  return oauthProvider<VippsProfile>(
    {
      id: "vipps",
      name: "Vipps",
      type: "oidc",
      issuer: "https://api.vipps.no/access-management-1.0/access/",
      authorization: { params: { scope: "openid name email" } },
      idToken: false,
      checks: ["pkce", "state", "nonce"],
      profile: standardClaimsProfile,
      style: { bg: "#f05c18", text: "#fff" },
    },
    options,
  )
}

export default Vipps
