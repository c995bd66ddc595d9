/**
 * `{basePath}/signout`: GET shows the confirmation page, POST ends the session (CSRF-protected)
 * and, when the form names the OIDC provider the session came from (`provider`), sends the
 * browser on to end the provider's session too (RP-initiated logout).
 * @module
 */
import { sessionStore } from "../../cookies/session-store.js"
import { MissingCSRF } from "../../errors.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { endSession } from "../sessions/index.js"
import { pageContextOf } from "./page-context.js"

/** The built-in sign-out page (offering the provider's sign-out when there is one), or a redirect to `pages.signOut`. */
export async function signOutPage(ctx: RequestContext): Promise<ResponseInternal> {
  if (ctx.config.pages.signOut) return { redirect: ctx.config.pages.signOut }
  // Only a configuration with an OIDC provider can offer its sign-out; the others skip the lookup.
  const provider = ctx.config.providers.some((candidate) => candidate.type === "oidc")
    ? await (await import("../oauth/provider-logout.js")).providerLogoutChoice(ctx)
    : undefined
  return (await import("../pages/index.js")).renderSignOutPage(pageContextOf(ctx), provider)
}

/** Ends the session, clears its cookies and goes to the callback URL (by way of the provider's end-session endpoint when asked). */
export async function signOut(ctx: RequestContext): Promise<ResponseInternal> {
  if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action signout")
  const asked = ctx.request.body?.provider
  // Only a provider sign-out imports the OAuth modules; a plain one stays as light as before.
  const logout = typeof asked === "string" && asked !== "" ? await import("../oauth/provider-logout.js") : undefined
  // Read before the session ends: a database session's row (and what it remembers) goes with it.
  const pending = logout && (await logout.providerLogoutOf(ctx, asked as string))
  // Signing out of an impersonation leaves no admin session waiting in this browser either
  // (deletions only of cookies the request sent: an ordinary sign-out sets nothing more).
  const cookies = [...(await endSession(ctx)), ...sessionStore(ctx.cookies.impersonator, ctx.request.cookies).clean()]
  const atProvider = logout && pending ? await logout.endSessionUrl(ctx, pending, ctx.callbackUrl) : undefined
  return { redirect: atProvider ?? ctx.callbackUrl, cookies }
}
