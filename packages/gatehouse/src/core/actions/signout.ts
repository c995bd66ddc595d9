/**
 * `{basePath}/signout`: GET shows the confirmation page, POST ends the session (CSRF-protected).
 * @module
 */
import { MissingCSRF } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { endSession } from "../sessions/index.js"
import { pageContextOf, type PageInputs } from "./page-context.js"

/** The built-in sign-out page, or a redirect to `pages.signOut`. */
export async function signOutPage(ctx: PageInputs): Promise<ResponseInternal> {
  if (ctx.config.pages.signOut) return { redirect: ctx.config.pages.signOut }
  return (await import("../pages/index.js")).renderSignOutPage(pageContextOf(ctx))
}

/** Ends the session, clears its cookies and goes to the callback URL. */
export async function signOut(ctx: RequestContext): Promise<ResponseInternal> {
  if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action signout")
  const cookies = await endSession(ctx)
  return { redirect: ctx.callbackUrl, cookies }
}
