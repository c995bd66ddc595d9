/**
 * The session cookie as the response writes it: split into `name.0`, `name.1`, … when longer
 * than one cookie holds, and every chunk the browser sent but the new value does not use deleted,
 * so a session that shrinks leaves no stale chunk behind.
 * @module
 */
import type { Cookie, CookieOption } from "./defaults.js"
import { CHUNK_SIZE, MAX_CHUNKS, isChunkName, readChunkedCookie, type ChunkedCookie } from "./chunks.js"
import type { RequestCookies } from "./header.js"

/** The session cookie of one request: what it read, and how to write or clear it. */
export interface SessionStore {
  /** The (reassembled) value the request carried, if it carried exactly one. */
  readonly value: string | undefined
  /** Cookies that store `value` with the given extra attributes, deleting unused chunks. */
  chunk(value: string, options: { expires: Date }): Cookie[]
  /** Cookies that delete every chunk the request carried (sign-out, a session that ended). */
  clean(): Cookie[]
  /**
   * Cookies that delete what the request carried under the session's name without it reading as
   * a session (gaps, too many chunks); none when it was ambiguous, see {@link ChunkedCookie.stray}.
   */
  leftovers(): Cookie[]
}

/** The session store for the session cookie `cookie` given the request's cookies. */
export function sessionStore(cookie: CookieOption, requestCookies: RequestCookies): SessionStore {
  const { value, stray } = readChunkedCookie(requestCookies, cookie.name)
  // Listed only when a response sets or clears the cookie: most session reads do neither.
  let seen: string[] | undefined
  const sent = (): string[] => {
    if (seen) return seen
    seen = []
    // Bounded: a header stuffed with chunk names must not buy a deletion line per name.
    for (const name of requestCookies.keys()) {
      if (seen.length === MAX_CHUNKS) break
      if (isChunkName(name, cookie.name)) seen.push(name)
    }
    return seen
  }
  const deletion = (name: string): Cookie => ({ name, value: "", options: { ...cookie.options, maxAge: 0 } })
  const clean = () => sent().map(deletion)

  return {
    value,
    chunk(newValue, { expires }) {
      // Keyed by name so a rewritten chunk replaces its deletion entry in place, as Auth.js does.
      const out = new Map<string, Cookie>(sent().map((name) => [name, deletion(name)]))
      const options = { ...cookie.options, expires }
      const count = Math.ceil(newValue.length / CHUNK_SIZE)
      if (count === 1) {
        out.set(cookie.name, { name: cookie.name, value: newValue, options })
      } else {
        for (let i = 0; i < count; i++) {
          const name = `${cookie.name}.${i}`
          out.set(name, { name, value: newValue.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE), options })
        }
      }
      return [...out.values()]
    },
    clean,
    leftovers: () => (stray ? clean() : []),
  }
}
