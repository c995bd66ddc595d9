/**
 * Session cookies longer than one cookie can hold are split into `name.0`, `name.1`, … chunks.
 * This module reassembles them, and refuses what a browser holding one genuine session cannot
 * send: a whole cookie beside chunks, a name sent twice, or chunks with gaps.
 * @module
 */
import type { RequestCookies } from "./header.js"

/** Characters of value per chunk, as in Auth.js (4096 bytes less room for name and attributes). */
export const CHUNK_SIZE = 3936

/**
 * Most chunks a session is read from, and most stray chunk cookies one response deletes. A
 * genuine session never comes near it (servers refuse request headers long before 16 × 4 KB);
 * a header stuffed with chunk names would otherwise cost a deletion line each.
 */
export const MAX_CHUNKS = 16

const CHUNK_INDEX = /^(?:0|[1-9]\d{0,3})$/

/**
 * Whether `cookieName` is `name` itself or one of its chunks, `name.<n>` (`n` written without
 * leading zeros, so no two names mean the same chunk).
 *
 * Auth.js takes any cookie whose name merely starts with `name`, which lets an unrelated
 * `name-foo` cookie corrupt the session.
 */
export function isChunkName(cookieName: string, name: string): boolean {
  return cookieName === name || (cookieName.startsWith(`${name}.`) && CHUNK_INDEX.test(cookieName.slice(name.length + 1)))
}

/** What the request's cookies hold of the session cookie `name`. */
export interface ChunkedCookie {
  /** The session value, whole or reassembled; `undefined` when there is none or it is ambiguous. */
  value: string | undefined
  /**
   * Whether cookies under the session's name were sent that read as no session and may be
   * deleted (chunks with gaps, too many). Ambiguous ones may not: a response can delete only the
   * site's own host-only cookies, never one planted for a parent domain, and deleting the genuine
   * half would leave the planted half to be read on the next request.
   */
  stray: boolean
}

/**
 * The session value stored under `name`, either whole or in numbered chunks.
 *
 * A cookie set for a parent domain (by a sibling subdomain, or a script there) reaches this site
 * beside its own cookies, so a browser can send two sessions at once. Whenever the cookies do not
 * read as exactly one session there is no session: a name sent twice, a whole cookie beside
 * non-empty chunks, chunks that do not run `0 … n-1`, or more than {@link MAX_CHUNKS} of them.
 * Empty cookies are deletions still under way and are skipped.
 */
export function readChunkedCookie(cookies: RequestCookies, name: string): ChunkedCookie {
  let whole: string | undefined
  const chunks: string[] = []
  let count = 0
  for (const [cookieName, value] of cookies) {
    if (!isChunkName(cookieName, name)) continue
    if (cookies.repeated?.has(cookieName)) return { value: undefined, stray: false }
    if (!value) continue
    if (cookieName === name) {
      whole = value
      continue
    }
    const index = Number(cookieName.slice(name.length + 1))
    count++
    if (index < MAX_CHUNKS) chunks[index] = value
  }
  if (whole !== undefined) return { value: count === 0 ? whole : undefined, stray: false }
  if (count === 0) return { value: undefined, stray: false }
  // Indices are distinct (one canonical name each), so `count` of them below `count` fill 0 … count-1.
  const dense = chunks.length === count
  return { value: dense ? chunks.join("") : undefined, stray: !dense }
}
