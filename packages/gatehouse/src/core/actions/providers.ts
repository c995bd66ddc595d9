/**
 * `GET {basePath}/providers`: the configured providers, for clients that build their own forms.
 * @module
 */
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { routeUrl, type RequestContext } from "../request-context.js"

/** What the providers route tells a client about one provider. */
export interface PublicProvider {
  /** The provider's id. */
  id: string
  /** The name sign-in buttons show. */
  name: string
  /** `oauth`, `oidc`, `email`, `credentials` or `webauthn`. */
  type: string
  /** The absolute URL a sign-in with it is posted to. */
  signinUrl: string
  /** The absolute URL of its callback route. */
  callbackUrl: string
}

/** The providers keyed by id, with absolute sign-in and callback URLs. */
export function providers(ctx: Pick<RequestContext, "config" | "origin">): ResponseInternal<Record<string, PublicProvider>> {
  const body = Object.fromEntries(
    ctx.config.providers.map(({ id, name, type }) => [
      id,
      { id, name, type, signinUrl: routeUrl(ctx, `signin/${encodeURIComponent(id)}`), callbackUrl: routeUrl(ctx, `callback/${encodeURIComponent(id)}`) },
    ]),
  )
  return jsonResponse(body)
}
