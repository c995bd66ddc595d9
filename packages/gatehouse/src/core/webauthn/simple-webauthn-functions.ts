/**
 * Whether a WebAuthn provider carries the four `@simplewebauthn/server` functions: what the
 * configuration check asks, apart from ./simple-webauthn.ts so that checking a configuration
 * loads nothing of the ceremonies.
 * @module
 */
import type { WebAuthnConfig } from "../../providers/types.js"

const FUNCTIONS = [
  "generateAuthenticationOptions",
  "generateRegistrationOptions",
  "verifyAuthenticationResponse",
  "verifyRegistrationResponse",
] as const

/** Whether `provider` carries all four `@simplewebauthn/server` functions. */
export function hasSimpleWebAuthn(provider: WebAuthnConfig): boolean {
  const functions: unknown = provider.simpleWebAuthn
  return typeof functions === "object" && functions !== null && FUNCTIONS.every((name) => typeof (functions as Record<string, unknown>)[name] === "function")
}
