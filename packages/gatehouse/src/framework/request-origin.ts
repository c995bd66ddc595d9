/**
 * A request moved to the app's public origin (`AUTH_URL`'s, which {@link prepareConfig} reads):
 * behind a proxy that rewrites the host, the framework sees another origin than the browser used,
 * and every link the core builds (callbacks, redirects, emails) must name the public one.
 * @module
 */
import type { PreparedConfig } from "./prepare-config.js"

/**
 * `request` on `prepared.origin` when that is set and differs from the request's own; otherwise
 * `request` itself. Method, headers, body (streamed, not read) and abort signal are kept.
 *
 * @example
 * ```ts
 * const ready = prepareConfig(config, env)
 * const response = await Auth(requestAtOrigin(ready, request), ready.config)
 * ```
 */
export function requestAtOrigin(prepared: Pick<PreparedConfig, "origin">, request: Request): Request {
  const url = new URL(request.url)
  if (!prepared.origin || url.origin === prepared.origin) return request
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, signal: request.signal }
  if (request.body) {
    init.body = request.body
    init.duplex = "half"
  }
  return new Request(new URL(url.pathname + url.search, prepared.origin), init)
}
