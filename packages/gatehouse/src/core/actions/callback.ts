/**
 * `{basePath}/callback/<provider>`: where a sign-in comes back to, handled by provider type.
 * @module
 */
import { InvalidProvider } from "../../errors.js"
import type { ProviderConfig, ProviderType } from "../../providers/types.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { credentialsCallback } from "./callback-credentials.js"
import { requireProvider } from "./signin.js"

type CallbackHandler = (ctx: RequestContext, provider: never) => Promise<ResponseInternal>

const notAvailable: CallbackHandler = async (_ctx, provider: ProviderConfig) => {
  throw new InvalidProvider(`Callbacks of ${provider.type} providers are not available in this build ("${provider.id}")`)
}

/** How each kind of provider completes a sign-in. */
const complete: Record<ProviderType, CallbackHandler> = {
  credentials: credentialsCallback,
  oauth: notAvailable,
  oidc: notAvailable,
  email: notAvailable,
  webauthn: notAvailable,
}

/** Completes the sign-in with the provider named in the path. */
export function callback(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = requireProvider(ctx)
  return complete[provider.type](ctx, provider as never)
}
