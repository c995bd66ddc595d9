/**
 * Which ceremony a `webauthn-options` request gets.
 * @module
 */

/** A WebAuthn ceremony: creating a passkey, or signing in with one. */
export type Ceremony = "register" | "authenticate"

/**
 * The ceremony for a request, or `undefined` when the request does not fit one.
 *
 * | `action`       | signed in | ceremony |
 * |----------------|-----------|----------|
 * | `authenticate` | any       | authenticate |
 * | `register`     | yes       | register (add a passkey to the account) |
 * | `register`     | no        | register (a new user without an email) |
 * | none           | yes       | — |
 * | none           | no        | authenticate (any passkey on the device) |
 *
 * Unlike Auth.js, what a signed-out request names (an email) never decides the ceremony: an
 * answer that differed for known and unknown addresses would tell anyone who has an account.
 *
 * @param requested the `action` query parameter, already checked to be one of the two or absent.
 */
export function ceremonyFor(requested: Ceremony | undefined, signedIn: boolean): Ceremony | undefined {
  if (requested) return requested
  return signedIn ? undefined : "authenticate"
}
