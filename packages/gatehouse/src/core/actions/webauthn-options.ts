/**
 * `GET {basePath}/webauthn-options/<provider>`: registration and authentication options for
 * passkeys.
 * @module
 */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { requireProvider } from "./signin.js"

/** Passkey ceremonies are not part of this build; the route answers with a typed error. */
export function webAuthnOptions(ctx: RequestContext): ResponseInternal {
  const provider = requireProvider(ctx)
  throw new UnknownAction(`WebAuthn options are not available in this build (provider ${JSON.stringify(provider.id)})`)
}
