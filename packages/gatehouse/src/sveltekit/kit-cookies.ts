/**
 * The cookies the core hands back, set through SvelteKit's `event.cookies`, so they go out with
 * whatever response Kit sends (a page, a redirect, an action's answer).
 * @module
 */
import type { Cookie } from "../framework/index.js"
import type { KitCookies } from "./types.js"

/**
 * Sets `list` through `cookies`. Each attribute is passed as the core gave it, absent ones as
 * off: Kit's own defaults (`httpOnly` and, off localhost, `secure`) would otherwise change
 * cookies the core meant to send without them (a `secure` cookie on plain http is never stored).
 *
 * @returns whether they were written: Kit refuses once the response has started (a `load`
 *   function's streamed promise); the next request that can write them does.
 */
export function writeCookies(cookies: KitCookies, list: readonly Cookie[]): boolean {
  try {
    for (const { name, value, options } of list) {
      cookies.set(name, value, {
        path: options.path ?? "/",
        httpOnly: options.httpOnly ?? false,
        secure: options.secure ?? false,
        sameSite: options.sameSite ?? false,
        ...(options.domain !== undefined && { domain: options.domain }),
        ...(options.maxAge !== undefined && { maxAge: options.maxAge }),
        ...(options.expires !== undefined && { expires: options.expires }),
        ...(options.partitioned !== undefined && { partitioned: options.partitioned }),
        ...(options.priority !== undefined && { priority: options.priority }),
      })
    }
    return true
  } catch {
    return false
  }
}
