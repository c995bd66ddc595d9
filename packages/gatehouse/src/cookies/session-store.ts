/**
 * The session cookie as the response writes it: split into `name.0`, `name.1`, … when longer
 * than one cookie holds, and every chunk the browser sent but the new value does not use deleted,
 * so a session that shrinks leaves no stale chunk behind.
 * @module
 */
import type { Cookie, CookieOption } from "./defaults.js"
import { CHUNK_SIZE, isChunkName } from "./chunks.js"

/** The session cookie of one request: what it read, and how to write or clear it. */
export interface SessionStore {
  /** The (reassembled) value the request carried, if any. */
  readonly value: string | undefined
  /** Cookies that store `value` with the given extra attributes, deleting unused chunks. */
  chunk(value: string, options: { expires: Date }): Cookie[]
  /** Cookies that delete every chunk the request carried. */
  clean(): Cookie[]
}

/** The session store for `cookie` given the request's cookies. */
export function sessionStore(cookie: CookieOption, requestCookies: ReadonlyMap<string, string>, value: string | undefined): SessionStore {
  const seen = [...requestCookies.keys()].filter((name) => isChunkName(name, cookie.name))
  const deletion = (name: string): Cookie => ({ name, value: "", options: { ...cookie.options, maxAge: 0 } })

  return {
    value,
    chunk(newValue, { expires }) {
      // Keyed by name so a rewritten chunk replaces its deletion entry in place, as Auth.js does.
      const out = new Map<string, Cookie>(seen.map((name) => [name, deletion(name)]))
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
    clean() {
      return seen.map(deletion)
    },
  }
}
