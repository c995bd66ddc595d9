/**
 * Pages of members and of the audit log: the page size a request may ask for, and the opaque
 * cursor (base64url of `[milliseconds, id]`) that continues a page by keyset, never by offset.
 * @module
 */
import { InvalidRequest } from "../../errors.js"
import { decodeBase64url, encodeBase64url } from "../../encoding/base64.js"

/** Entries per page when the caller names no limit. */
export const DEFAULT_PAGE = 50
/** The most entries a page holds. */
export const MAX_PAGE = 100

/**
 * The page size `value` asks for (a number, or digits from a query string), {@link DEFAULT_PAGE} when none.
 *
 * @throws {InvalidRequest} for anything but a whole number from 1 to {@link MAX_PAGE}.
 */
export function pageLimit(value: unknown): number {
  if (value === undefined || value === "") return DEFAULT_PAGE
  const limit = typeof value === "string" && /^\d{1,3}$/.test(value) ? Number(value) : value
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new InvalidRequest(`limit must be a whole number from 1 to ${MAX_PAGE}`)
  return limit
}

/** The opaque cursor of a page ending at (`at`, `id`). */
export function encodeCursor(at: Date, id: string): string {
  return encodeBase64url(new TextEncoder().encode(JSON.stringify([at.getTime(), id])))
}

/**
 * The (`at`, `id`) pair `text` stands for.
 *
 * @throws {InvalidRequest} for anything {@link encodeCursor} did not make.
 */
export function decodeCursor(text: unknown): { at: Date; id: string } {
  const bytes = typeof text === "string" && text.length <= 1024 ? decodeBase64url(text) : undefined
  let value: unknown
  try {
    value = bytes ? JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) : undefined
  } catch {
    value = undefined
  }
  const [time, id] = Array.isArray(value) && value.length === 2 ? (value as [unknown, unknown]) : [undefined, undefined]
  if (typeof time !== "number" || !Number.isSafeInteger(time) || typeof id !== "string" || id === "" || Number.isNaN(new Date(time).getTime())) {
    throw new InvalidRequest("The cursor is not one this server gave")
  }
  return { at: new Date(time), id }
}
