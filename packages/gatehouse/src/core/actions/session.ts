/**
 * `{basePath}/session`: GET reads the current session, POST updates it (CSRF-protected).
 * @module
 */
import { MissingCSRF } from "../../errors.js"
import type { Session } from "../../types.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { readSession } from "../sessions/index.js"

/** The session, or `null`; never cached. */
export async function getSession(ctx: RequestContext): Promise<ResponseInternal<Session | null>> {
  const { session, cookies } = await readSession(ctx)
  return jsonResponse(session, { noCache: true, cookies })
}

/** The session after the `update` trigger ran with the body's `data`. */
export async function updateSession(ctx: RequestContext): Promise<ResponseInternal<Session | null>> {
  if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action session")
  const { session, cookies } = await readSession(ctx, { data: ctx.request.body?.data })
  return jsonResponse(session, { cookies })
}
