/**
 * Where a SolidStart app answers: `AUTH_URL`'s origin when set (read once, by the kernel), else
 * the origin of the request as SolidStart built it (its Host header, and `X-Forwarded-Proto:
 * https` from a proxy). A proxy that rewrites the Host header needs `AUTH_URL`.
 * @module
 */
import type { PreparedConfig } from "../framework/index.js"

/** The URL a session read is made for: only its origin matters (`__Secure-` cookie names on https). */
export function sessionUrl(prepared: PreparedConfig, request: Request): string {
  return prepared.origin ? `${prepared.origin}/` : request.url
}
