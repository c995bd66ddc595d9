/**
 * The ceremony functions of a WebAuthn provider.
 * @module
 */
import { InvalidConfig } from "../../errors.js"
import type { SimpleWebAuthnServer, WebAuthnConfig } from "../../providers/types.js"
import { callableSimpleWebAuthn } from "./library-versions.js"

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

/**
 * `provider.simpleWebAuthn`, called as `@simplewebauthn/server` 11 and later take their arguments
 * whichever supported version it comes from (see ./library-versions.ts).
 * @throws {InvalidConfig} when it is incomplete (a hand-written provider object; the factories fill it in).
 */
export function simpleWebAuthnOf(provider: WebAuthnConfig): SimpleWebAuthnServer {
  if (!hasSimpleWebAuthn(provider)) {
    throw new InvalidConfig(
      `WebAuthn provider ${JSON.stringify(provider.id)} has no simpleWebAuthn functions; create it with gatehouse-auth/providers/passkey or gatehouse-auth/providers/webauthn`,
    )
  }
  return callableSimpleWebAuthn(provider.simpleWebAuthn as SimpleWebAuthnServer)
}
