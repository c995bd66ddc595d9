/**
 * `{basePath}/callback/<provider>`: where a sign-in comes back to, handled by provider type.
 * @module
 */
import type { ResponseInternal } from "../internal-response.js"
import { dispatchByType, type ProviderHandlers } from "../provider-dispatch.js"
import type { RequestContext } from "../request-context.js"
import { requireProvider } from "./signin.js"

/**
 * How each kind of provider completes a sign-in. OAuth, email and passkeys are imported on first
 * use: a process that only reads sessions never loads them (or oauth4webapi), and starts sooner.
 */
const complete: ProviderHandlers<RequestContext, Promise<ResponseInternal>> = {
  credentials: async (ctx, provider) => (await import("./callback-credentials.js")).credentialsCallback(ctx, provider),
  oauth: async (ctx, provider) => (await import("../oauth/callback.js")).oauthCallback(ctx, provider),
  oidc: async (ctx, provider) => (await import("../oauth/callback.js")).oauthCallback(ctx, provider),
  email: async (ctx, provider) => (await import("../email/callback.js")).emailCallback(ctx, provider),
  webauthn: async (ctx, provider) => (await import("../webauthn/callback.js")).webAuthnCallback(ctx, provider),
}

/** Completes the sign-in with the provider named in the path. */
export function callback(ctx: RequestContext): Promise<ResponseInternal> {
  return dispatchByType(complete, ctx, requireProvider(ctx))
}
