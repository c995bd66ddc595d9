/**
 * Asking the application's `signIn` callback whether a sign-in may go ahead.
 * @module
 */
import { AccessDenied, AuthError } from "../errors.js"
import type { SignInCallbackParams } from "../types.js"
import { logError } from "./logger.js"
import { redirectThroughCallback, type RequestContext } from "./request-context.js"

/**
 * Runs the `signIn` callback. Returns `undefined` to continue, or the URL to send the user to
 * when the callback returned one (through the redirect callback).
 *
 * @throws {AccessDenied} when the callback returns a falsy value or throws (the message is the
 *   thrown error's, as the specification requires). A refusal is the client's doing and is logged
 *   as one warning line; a callback that throws anything but an `AuthError` has failed, and that
 *   failure is logged first as a fault, with its stack.
 */
export async function runSignInCallback(ctx: RequestContext, params: SignInCallbackParams): Promise<string | undefined> {
  let allowed: unknown
  try {
    allowed = await ctx.config.callbacks.signIn(params)
  } catch (error) {
    // An AuthError is how an app refuses on purpose; anything else (its database down, a bug) must
    // not hide in the one-line refusal.
    if (!(error instanceof AuthError)) logError(ctx.logger, error)
    throw new AccessDenied(error instanceof Error ? error : String(error))
  }
  if (!allowed) throw new AccessDenied("AccessDenied")
  if (typeof allowed !== "string") return undefined
  return (await redirectThroughCallback(ctx.config, allowed, ctx.origin)) ?? ctx.origin
}
