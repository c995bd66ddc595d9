/**
 * The redirect proxy: one deployment with a fixed callback URL (registered at the provider)
 * that forwards callbacks to the deployment a sign-in started on — preview deployments with
 * changing URLs sign in through it.
 * @module
 */
import type { OAuthConfig } from "../../providers/types.js"
import type { RequestContext } from "../request-context.js"
import { routeUrl } from "../request-context.js"
import { usesFormPost } from "./authorization-server.js"

/** The proxy's callback URL for `provider` (per-provider option first, then the config's), if any. */
export function proxyCallbackUrl(ctx: RequestContext, provider: OAuthConfig): string | undefined {
  // A form_post response cannot be forwarded with a redirect, so such providers never use the proxy.
  if (usesFormPost(provider)) return undefined
  const base = provider.redirectProxyUrl ?? ctx.config.redirectProxyUrl
  return base ? `${base.replace(/\/+$/, "")}/callback/${encodeURIComponent(provider.id)}` : undefined
}

/** This deployment's own callback URL for `provider`. */
export function ownCallbackUrl(ctx: RequestContext, provider: OAuthConfig): string {
  return routeUrl(ctx, `callback/${encodeURIComponent(provider.id)}`)
}

/** The `redirect_uri` for this request: the proxy's, unless this deployment is the proxy. */
export function redirectUri(ctx: RequestContext, provider: OAuthConfig): string {
  const proxy = proxyCallbackUrl(ctx, provider)
  return proxy && new URL(proxy).origin !== ctx.origin ? proxy : ownCallbackUrl(ctx, provider)
}
