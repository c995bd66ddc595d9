/**
 * The codes of the configuration warnings Gatehouse logs (their sentences are in the logger). A
 * leaf, so that `types.ts` can name them without importing the core.
 * @module
 */

/** Codes of the configuration warnings Gatehouse logs. */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "experimental-webauthn"
  /** Passkeys with an adapter lacking `hitRateLimit`: a spent challenge is remembered by one process only. */
  | "webauthn-challenges-in-memory"
  | "secret-too-short"
  /** Database sessions whose `updateAge` is not below `maxAge` are never extended. */
  | "session-never-extended"
  /** Proving the address of an account nobody had proven it for cannot remove its other ways in here. */
  | "unproven-accounts-unclaimable"
  /** A credentials provider without `revokeCredentials` where accounts can be claimed. */
  | "credentials-not-revoked"
  /** `AUTH_TRUST_HOST` without `AUTH_URL` in production: URLs follow the request's Host header. */
  | "trust-host-without-url"
  /** `session.cacheMaxAge` without a `sharedStore` or without database sessions: nothing is cached. */
  | "session-cache-unused"
  /** `twoFactor` with neither a `sharedStore` nor the adapter's `hitRateLimit`: codes tried and finished sign-ins are counted per process. */
  | "two-factor-counts-in-memory"
  /** `twoFactor.totp` without `qrCode`: enrolment shows the secret as text, no QR code. */
  | "two-factor-qr-missing"
  /**
   * The adapter's database lacks schema migrations this version needs (`missingMigrations`):
   * logged once per adapter; requests are still served. Run `npx gatehouse-auth migrate apply`.
   */
  | "schema-outdated"
