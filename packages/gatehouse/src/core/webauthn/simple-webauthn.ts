/**
 * The ceremony functions of a WebAuthn provider.
 * @module
 */
import { InvalidConfig } from "../../errors.js"
import type { SimpleWebAuthnServer, WebAuthnConfig } from "../../providers/types.js"
import { callableSimpleWebAuthn } from "./library-versions.js"
import { hasSimpleWebAuthn } from "./simple-webauthn-functions.js"

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
