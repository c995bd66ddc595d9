/**
 * `{basePath}/callback/<provider>`: where a sign-in comes back to, handled by provider type.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { dispatchByType, type ProviderHandlers } from "../provider-dispatch.js"
import type { RequestContext } from "../request-context.js"
import { emailCallback } from "../email/callback.js"
import { oauthCallback } from "../oauth/callback.js"
import { webAuthnCallback } from "../webauthn/callback.js"
import { credentialsCallback } from "./callback-credentials.js"
import { requireProvider } from "./signin.js"

/** How each kind of provider completes a sign-in. */
const complete: ProviderHandlers<RequestContext, Promise<ResponseInternal>> = {
  credentials: credentialsCallback,
  oauth: oauthCallback,
  oidc: oauthCallback,
  email: emailCallback,
  webauthn: webAuthnCallback,
}

/** Completes the sign-in with the provider named in the path. */
export function callback(ctx: RequestContext): Promise<ResponseInternal> {
  return dispatchByType(complete, ctx, requireProvider(ctx))
}
