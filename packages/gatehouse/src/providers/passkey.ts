/**
 * Sign-in with passkeys, experimental: discoverable credentials with user verification (a
 * fingerprint, face or device PIN), so a person signs in without typing anything.
 *
 * Needs `experimental: { enableWebAuthn: true }`, an adapter with the authenticator methods, and
 * the optional peer `@simplewebauthn/server`. In the browser, the built-in sign-in page works as
 * is; in your own pages use `signIn("passkey")` from `gatehouse-auth/client`.
 *
 * @example
 * ```ts
 * import Passkey from "gatehouse-auth/providers/passkey"
 * import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
 *
 * const config = { providers: [Passkey()], adapter: SQLiteAdapter("app.db"), experimental: { enableWebAuthn: true } }
 * ```
 * @module gatehouse-auth/providers/passkey
 */
import type { WebAuthnConfig } from "./types.js"
import { WebAuthn, type WebAuthnOptions } from "./webauthn.js"

/**
 * A passkey provider: id `passkey`, a resident key and user verification required when creating
 * one, and user verification required on every sign-in. Other defaults are {@link WebAuthn}'s.
 *
 * @example
 * ```ts
 * Passkey({ relyingParty: { name: "Example" } })
 * ```
 */
export function Passkey(options: WebAuthnOptions = {}): WebAuthnConfig {
  const { registrationOptions, authenticationOptions, verifyRegistrationOptions, verifyAuthenticationOptions } = options
  return WebAuthn({
    id: "passkey",
    name: "Passkey",
    ...options,
    registrationOptions: {
      ...registrationOptions,
      authenticatorSelection: { residentKey: "required", userVerification: "required", ...registrationOptions?.authenticatorSelection },
    },
    authenticationOptions: { userVerification: "required", ...authenticationOptions },
    verifyRegistrationOptions: { requireUserVerification: true, ...verifyRegistrationOptions },
    verifyAuthenticationOptions: { requireUserVerification: true, ...verifyAuthenticationOptions },
  })
}

export default Passkey
