/**
 * Writing the cookies the core hands back through Next's own cookie store, where Next allows it.
 * @module
 */
import { cookies } from "next/headers.js"
import type { Cookie } from "../framework/index.js"

/**
 * Sets `list` through `cookies()`: in server actions and route handlers. During a server
 * component's render Next refuses (HTTP headers are gone by then): nothing is written, and the
 * next request that can write them (the proxy, an action, a route handler) does.
 *
 * @returns whether they were written.
 */
export async function writeCookies(list: readonly Cookie[]): Promise<boolean> {
  if (list.length === 0) return true
  try {
    const jar = await cookies()
    for (const { name, value, options } of list) jar.set(name, value, { ...options })
    return true
  } catch {
    return false
  }
}
