/**
 * oauth4webapi's errors, made fit for a log. Their `cause` often holds what the provider sent:
 * a whole token response (access and refresh tokens included), or the authorization response
 * with its code. Logs must carry neither.
 * @module
 */
import * as o from "oauth4webapi"

const PROTOCOL_ERRORS = [
  o.OperationProcessingError,
  o.UnsupportedOperationError,
  o.ResponseBodyError,
  o.AuthorizationResponseError,
  o.WWWAuthenticateChallengeError,
]

/** `error` with the provider's payload left out; other errors (a failed fetch) as they are. */
export function loggableError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error))
  if (!PROTOCOL_ERRORS.some((type) => error instanceof type)) return error
  const copy = new Error(error.message)
  copy.name = error.name
  copy.stack = error.stack
  // The protocol facts that say what went wrong: the library's code, the HTTP status, the OAuth error.
  for (const key of ["code", "status", "error", "error_description"] as const) {
    const value = (error as unknown as Record<string, unknown>)[key]
    if (typeof value === "string" || typeof value === "number") Object.assign(copy, { [key]: value })
  }
  return copy
}
