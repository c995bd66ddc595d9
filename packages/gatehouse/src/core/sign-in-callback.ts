/**
 * Asking the application's `signIn` callback whether a sign-in may go ahead.
 * @module
 */
import { AccessDenied } from "../errors.js"
import type { SignInCallbackParams } from "../types.js"
import { redirectThroughCallback, type RequestContext } from "./request-context.js"

/**
 * Runs the `signIn` callback. Returns `undefined` to continue, or the URL to send the user to
 * when the callback returned one (through the redirect callback).
 *
 * @throws {AccessDenied} when the callback returns a falsy value or throws (the message is the
 *   thrown error's, as the specification requires).
 */
export async function runSignInCallback(ctx: RequestContext, params: SignInCallbackParams): Promise<string | undefined> {
  let allowed: unknown
  try {
    allowed = await ctx.config.callbacks.signIn(params)
  } catch (error) {
    throw new AccessDenied(error instanceof Error ? error : String(error))
  }
  if (!allowed) throw new AccessDenied("AccessDenied")
  if (typeof allowed !== "string") return undefined
  return (await redirectThroughCallback(ctx.config, allowed, ctx.origin)) ?? ctx.origin
}
