/**
 * Sign-in with WebAuthn credentials (security keys, platform authenticators), experimental. For
 * passkeys (user verification, discoverable credentials) use `gatehouse-auth/providers/passkey`.
 *
 * Needs `experimental: { enableWebAuthn: true }`, an adapter with the authenticator methods, and
 * the optional peer `@simplewebauthn/server`.
 *
 * @example
 * ```ts
 * import WebAuthn from "gatehouse-auth/providers/webauthn"
 *
 * const config = { providers: [WebAuthn()], adapter, experimental: { enableWebAuthn: true } }
 * ```
 * @module gatehouse-auth/providers/webauthn
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server"
import type { SimpleWebAuthnServer, WebAuthnConfig } from "./types.js"

/** Options of {@link WebAuthn}: any field of the provider's configuration except its type. */
export type WebAuthnOptions = Partial<Omit<WebAuthnConfig, "type">>

/** Milliseconds the browser waits for the user in each ceremony. */
const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000

const simpleWebAuthn: SimpleWebAuthnServer = {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
}

/**
 * A WebAuthn provider: id `webauthn`, an email field offering saved credentials through autofill
 * (conditional UI), 5-minute ceremonies. User verification is asked for when the authenticator
 * can do it and required when checking the response (`@simplewebauthn/server`'s default, as in
 * Auth.js); set `verifyAuthenticationOptions: { requireUserVerification: false }` (and the same
 * for registration) to let a security key without a PIN sign in on presence alone. The nested
 * option objects are merged one level deep with these defaults.
 *
 * @example
 * ```ts
 * WebAuthn({ relyingParty: { id: "example.com", name: "Example", origin: "https://app.example.com" } })
 * ```
 */
export function WebAuthn(options: WebAuthnOptions = {}): WebAuthnConfig {
  return {
    id: "webauthn",
    name: "WebAuthn",
    enableConditionalUI: true,
    formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
    simpleWebAuthn,
    ...options,
    registrationOptions: { timeout: CEREMONY_TIMEOUT_MS, ...options.registrationOptions },
    authenticationOptions: { timeout: CEREMONY_TIMEOUT_MS, ...options.authenticationOptions },
    type: "webauthn",
  }
}

export default WebAuthn
