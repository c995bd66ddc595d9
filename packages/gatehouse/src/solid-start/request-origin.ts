/**
 * Where a SolidStart app answers: `AUTH_URL`'s origin when set (read once, by the kernel), else
 * the origin of the request as SolidStart built it (its Host header, and `X-Forwarded-Proto:
 * https` from a proxy). A proxy that rewrites the Host header needs `AUTH_URL`.
 * @module
 */
import type { PreparedConfig } from "../framework/index.js"

/** `request` moved to `AUTH_URL`'s origin when that differs, so every link the core builds names the app's public address. */
export function onAuthOrigin(prepared: PreparedConfig, request: Request): Request {
  const url = new URL(request.url)
  if (!prepared.origin || url.origin === prepared.origin) return request
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, signal: request.signal }
  if (request.body) {
    init.body = request.body
    init.duplex = "half"
  }
  return new Request(new URL(url.pathname + url.search, prepared.origin), init)
}

/** The URL a session read is made for: only its origin matters (`__Secure-` cookie names on https). */
export function sessionUrl(prepared: PreparedConfig, request: Request): string {
  return prepared.origin ? `${prepared.origin}/` : request.url
}
