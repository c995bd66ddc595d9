/**
 * `session.absoluteMaxAge`: when a session must end however active it is. The start of a session
 * is kept where nobody can move it: in the JWT (`signedInAt`, encrypted and authenticated) or in
 * the database session's token itself (`<token>.t<seconds>`; the row is found by that exact
 * token, so a changed time finds no row). A session issued without a start (before the option
 * was set, or by Auth.js) is not extended any more and ends at its current expiry.
 * @module
 */
import type { SessionOptions } from "../../types.js"

const STARTED = /\.t(\d{1,12})$/

/**
 * The time (ms since the epoch) after which the session must not live: never (`Infinity`) without
 * `absoluteMaxAge`, `currentExpiry` for a session whose start is unknown.
 */
export function absoluteDeadline(
  options: Pick<SessionOptions, "absoluteMaxAge">,
  startedAtSeconds: number | undefined,
  currentExpiry: number,
): number {
  if (options.absoluteMaxAge === undefined) return Number.POSITIVE_INFINITY
  if (startedAtSeconds === undefined) return currentExpiry
  return (startedAtSeconds + options.absoluteMaxAge) * 1000
}

/** A new database session token carrying its start, when the start must be known. */
export function withStart(options: Pick<SessionOptions, "absoluteMaxAge">, sessionToken: string, now: number): string {
  return options.absoluteMaxAge === undefined ? sessionToken : `${sessionToken}.t${Math.floor(now / 1000)}`
}

/** The start (seconds) a database session token carries, if it carries one. */
export function startOfToken(sessionToken: string): number | undefined {
  const match = STARTED.exec(sessionToken)
  return match ? Number(match[1]) : undefined
}
