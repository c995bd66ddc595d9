/**
 * Where a Next.js app answers: `AUTH_URL`'s origin when set (read once, by the kernel), else what
 * the request's headers say (Next passes `Host` and sets `X-Forwarded-Proto`), checked to be a host.
 * @module
 */
import { createActionURL } from "../index.js"
import type { PreparedConfig } from "../framework/index.js"

/** The origin for a request with `headers`; plain `http://localhost` when the headers name no usable host. */
export function originOf(prepared: PreparedConfig, headers: Headers): string {
  if (prepared.origin) return prepared.origin
  try {
    // An empty environment: only the headers are read (AUTH_URL was, when the config was prepared).
    return createActionURL("session", headers.get("x-forwarded-proto") ?? "http", headers, {}).origin
  } catch {
    return "http://localhost"
  }
}
