/**
 * The resources that the adapter contract, the providers and the configuration are all written
 * in: users, provider profiles, token sets and accounts, and `Awaitable` for the hooks that return
 * them. A leaf, so that `adapters/`, `providers/` and `types.ts` can each import it without
 * importing one another in a circle; `gatehouse-auth/types` re-exports all of it.
 * @module
 */

import type { JsonValue } from "oauth4webapi"

/** A value, or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

/** The fields Gatehouse itself gives a user; {@link User} adds yours. */
export interface DefaultUser {
  /** The user's id: the adapter's user id, or `sub` of a JWT session. */
  id?: string
  /** A display name. */
  name?: string | null
  /** The email address; the key that email sign-in and account linking go by. */
  email?: string | null
  /** The URL of a picture of the user. */
  image?: string | null
}

/**
 * A signed-in user, as the session and callbacks see it. Augment it to add fields, through any
 * module that exports it (`gatehouse-auth/types`, `gatehouse-auth/next`, …):
 *
 * @example
 * ```ts
 * declare module "gatehouse-auth/next" {
 *   interface User {
 *     role?: "admin" | "member"
 *   }
 * }
 * ```
 */
export interface User extends DefaultUser {}

/** The identity an OAuth or OIDC provider returns. Every field is optional. */
export interface Profile {
  [claim: string]: unknown
  /** The user's id at an OAuth 2 provider without OIDC's `sub`; the default mapping's fallback. */
  id?: string | null
  /** OIDC subject: the user's stable id at the provider. The default mapping makes it the account's `providerAccountId`. */
  sub?: string | null
  /** Full name; the default mapping's name, before `nickname` and `preferred_username`. */
  name?: string | null
  /** Given (first) name. */
  given_name?: string | null
  /** Family (last) name. */
  family_name?: string | null
  /** Middle name. */
  middle_name?: string | null
  /** Casual name. */
  nickname?: string | null
  /** The name the user goes by at the provider (a login or handle). */
  preferred_username?: string | null
  /** URL of the user's profile page. */
  profile?: string | null
  /**
   * URL of the user's picture; the default mapping uses it as `image` when it is a string. Some
   * providers send an object instead (Facebook's `{ data: { url } }`): `any`, as in Auth.js, so
   * profile code written for it compiles; check its shape before use.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Auth.js's type; the provider chooses the shape
  picture?: any
  /** URL of the user's web page. */
  website?: string | null
  /** The user's email address. */
  email?: string | null
  /**
   * Whether the provider checked that the user owns `email`. Only `true`, for that very address,
   * counts as proof that the user owns it when accounts are joined by address.
   */
  email_verified?: boolean | null
  /** Gender, as the provider states it. */
  gender?: string | null
  /** Birthday, `YYYY-MM-DD` (or `YYYY`, `0000-MM-DD`) in OIDC. */
  birthdate?: string | null
  /** Time zone, an IANA name such as `Europe/Paris`. */
  zoneinfo?: string | null
  /** Locale, a BCP 47 tag such as `en-US`. */
  locale?: string | null
  /** Phone number. */
  phone_number?: string | null
  /** When the profile last changed (OIDC: seconds since the epoch). */
  updated_at?: Date | string | number | null
  /** Postal address (OIDC's address claim). */
  address?: {
    /** Country name. */
    country?: string | null
    /** The full address, ready to display. */
    formatted?: string | null
    /** City or locality. */
    locality?: string | null
    /** Postal code. */
    postal_code?: string | null
    /** State, province or region. */
    region?: string | null
    /** Street address. */
    street_address?: string | null
  } | null
}

/** Token response fields an OAuth provider may return; all read-only to the application. */
export interface TokenSet {
  /** The access token for the provider's APIs. */
  readonly access_token?: string
  /** The token that gets a new access token (see `refreshAccessToken`). */
  readonly refresh_token?: string
  /** The OIDC ID token (a JWT). */
  readonly id_token?: string
  /** The scopes granted, space-separated. */
  readonly scope?: string
  /** Seconds until the access token expires. */
  readonly expires_in?: number
  /** Absolute expiry in seconds since the epoch, computed from `expires_in`. */
  readonly expires_at?: number
  /** Always lower case: `bearer`, `dpop`, or another scheme. */
  readonly token_type?: Lowercase<string>
  /** Whatever else the provider's token response held: JSON, as it came. */
  readonly [field: string]: JsonValue | undefined
}

/** The kinds of account a user can hold. */
export type AccountType = "oidc" | "oauth" | "email" | "webauthn"

/** How a user signed in: the provider, the id there, and the provider's token response. */
export interface Account extends TokenSet {
  /** The provider's id (`github`, `credentials`, …). */
  provider: string
  /** The user's id at the provider (for OAuth, the profile's id; for email, the address). */
  providerAccountId: string
  /** The provider's type; `credentials` accounts are never stored. */
  type: AccountType | "credentials"
  /** The id of the user the account belongs to, once stored. */
  userId?: string
}
