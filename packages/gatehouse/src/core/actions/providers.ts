/**
 * `GET {basePath}/providers`: the configured providers, for clients that build their own forms.
 * @module
 */
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { routeUrl, type RequestContext } from "../request-context.js"
import type { PublicProvider } from "../../auth-routes.js"

export type { PublicProvider }

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
