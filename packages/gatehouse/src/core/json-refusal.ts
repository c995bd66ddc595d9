/**
 * Refusals a script reads: the routes that answer JSON (the account routes, the two-factor
 * management routes) name the errors a client can cause and their statuses in a table, and answer
 * them as `{ error }` with that status instead of the error page. One piece for all of them, so
 * they log, shape and cache their refusals alike.
 * @module
 */
import { AuthError } from "../errors.js"
import { jsonResponse, type ResponseInternal } from "./internal-response.js"
import { logError } from "./logger.js"
import type { RequestContext } from "./request-context.js"

/** Error classes and the status each is answered with. */
export type RefusalStatuses = readonly (readonly [new (...args: never[]) => AuthError, number])[]

/** The status `statuses` gives `error`, when it names its class and `error` is an {@link AuthError}. */
export function refusalStatus(statuses: RefusalStatuses, error: unknown): number | undefined {
  if (!(error instanceof AuthError)) return undefined
  return statuses.find(([kind]) => error instanceof kind)?.[1]
}

/** How a route's JSON refusals are shaped. */
export interface JsonRefusalOptions {
  /**
   * Send the error's message beside its type (the account client shows it). Off by default: an
   * application's callback may have thrown the error with an internal message.
   */
  message?: boolean
  /** Leave the error to the handler (a page) when it is not JSON this request asked for. */
  onlyFor?: (ctx: RequestContext) => boolean
}

/**
 * `run`'s answer; for an error `statuses` names, a logged JSON refusal with its status; any other
 * error goes on to the handler.
 */
export async function answeringJson(ctx: RequestContext, statuses: RefusalStatuses, run: () => Promise<ResponseInternal>, options: JsonRefusalOptions = {}): Promise<ResponseInternal> {
  try {
    return await run()
  } catch (error) {
    const status = refusalStatus(statuses, error)
    if (status === undefined || (options.onlyFor && !options.onlyFor(ctx))) throw error
    const refused = error as AuthError
    // Logged like every refusal: a revoke of someone else's session is worth seeing.
    logError(ctx.logger, refused)
    return jsonResponse(options.message ? { error: refused.type, message: refused.message } : { error: refused.type }, { status, noCache: true })
  }
}
