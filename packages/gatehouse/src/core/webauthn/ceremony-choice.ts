/**
 * Which ceremony a `webauthn-options` request gets: Auth.js's decision table.
 * @module
 */
import type { WebAuthnUserInfo } from "../../providers/types.js"

/** A WebAuthn ceremony: creating a passkey, or signing in with one. */
export type Ceremony = "register" | "authenticate"

/**
 * The ceremony for a request, or `undefined` when the request does not fit one.
 *
 * | `action`       | signed in | who the request names | ceremony |
 * |----------------|-----------|-----------------------|----------|
 * | `authenticate` | any       | any                   | authenticate |
 * | `register`     | yes       | the signed-in user    | register (add a passkey) |
 * | `register`     | no        | a new address         | register (new user) |
 * | `register`     | no        | a user, or nobody     | — |
 * | none           | yes       | —                     | — |
 * | none           | no        | nobody                | authenticate (any passkey) |
 * | none           | no        | a user                | authenticate (their passkeys) |
 * | none           | no        | a new address         | register |
 *
 * @param requested the `action` query parameter, already checked to be one of the two or absent.
 * @param info the signed-in user (`exists: true`) when there is one, else who `getUserInfo` found.
 */
export function ceremonyFor(requested: Ceremony | undefined, signedIn: boolean, info: WebAuthnUserInfo | null): Ceremony | undefined {
  if (requested === "authenticate") return "authenticate"
  if (requested === "register") return info && info.exists === signedIn ? "register" : undefined
  if (signedIn) return undefined
  return info && !info.exists ? "register" : "authenticate"
}
