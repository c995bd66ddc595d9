/**
 * Where a SvelteKit app answers, and whether a form post came from there. Kit's `event.url` is its
 * own view of the request (adapter-node builds it from `ORIGIN`, or from the protocol and host
 * headers it was told to trust); `AUTH_URL`'s origin, when set, wins.
 * @module
 */
import type { PreparedConfig } from "../framework/index.js"
import type { KitRequestEvent } from "./types.js"

/** The origin the app answers on: `AUTH_URL`'s when set, else Kit's. */
export function originOf(prepared: PreparedConfig, event: KitRequestEvent): string {
  return prepared.origin ?? event.url.origin
}

/**
 * Whether the browser says the request was sent from this app's own pages (`Origin`, which
 * browsers send with every POST). Only then may a form action skip the double-submit CSRF token:
 * Kit refuses cross-site form posts itself, but an app may have turned that check off.
 */
export function postedFromHere(prepared: PreparedConfig, event: KitRequestEvent): boolean {
  const origin = event.request.headers.get("origin")
  return origin !== null && (origin === event.url.origin || origin === prepared.origin)
}
