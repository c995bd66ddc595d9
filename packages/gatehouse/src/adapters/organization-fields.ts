/**
 * What the organization and audit methods of Gatehouse's own adapters share: the owner role the
 * last-owner guard protects, and the checks of the paging options, so memory and SQL refuse the
 * same bad input.
 * @module
 */

/** The role an organization must always have one member in. */
export const OWNER_ROLE = "owner"

/** Most rows one page may ask for: a bound on what one call reads. */
export const MAX_PAGE_LIMIT = 1000

/** Throws a RangeError naming the adapter unless `limit` is an integer from 1 to {@link MAX_PAGE_LIMIT}. */
export function checkLimit(adapter: string, limit: unknown): number {
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new RangeError(`${adapter}: limit must be an integer from 1 to ${MAX_PAGE_LIMIT}, got ${String(limit)}`)
  }
  return limit
}

/** A search text as a SQL `LIKE` prefix pattern (escaped with `\`), or `null` for no search. */
export function likePrefix(search: string | undefined): string | null {
  if (search === undefined || search === "") return null
  return `${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** Whether `text` starts with `search`, ASCII case ignored as SQL's `LIKE` ignores it. */
export function startsWithIgnoringCase(text: string | null | undefined, search: string): boolean {
  if (typeof text !== "string") return false
  return asciiLower(text).startsWith(asciiLower(search))
}

const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (character) => character.toLowerCase())
