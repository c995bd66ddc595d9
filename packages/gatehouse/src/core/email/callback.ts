/**
 * `{basePath}/callback/<email provider>`: the sign-in link. Its token is spent atomically (of
 * twenty clicks on one link, one signs in), and the person signed in as the address's user,
 * created on first sign-in, marked verified either way. Opened in the browser that asked for it
 * (see ./link-binding.ts), the link signs in at once; anywhere else, and always under
 * `confirmSignIn`, it only shows a page naming the account, and that page's same-origin POST
 * spends the token.
 * @module
 */
import type { VerificationToken } from "../../adapters/index.js"
import { AdapterError, MissingCSRF, Verification } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import { pageContextOf } from "../actions/page-context.js"
import { callAdapter } from "../adapter-call.js"
import type { ResponseInternal } from "../internal-response.js"
import { renderConfirmEmailPage } from "../pages/index.js"
import type { RequestContext } from "../request-context.js"
import { crossSite, signInWithInvite } from "./address-sign-in.js"
import { isLinkBoundHere, linkBindingDeletion } from "./link-binding.js"
import { storedTokens } from "./verification-token.js"
import { admitTokenAttempt, refuseWrongToken } from "./wrong-tokens.js"

/**
 * Signs in with the link's `token` and `email` (GET; or POST from the confirmation page under
 * `confirmSignIn`).
 *
 * @throws {Verification} for a link that is unknown, spent, expired or for another address (403 page).
 * @throws {AdapterError} when the store fails after the token was spent; the token is stored again
 *   first, so the same link works once the store is back.
 */
export async function emailCallback(ctx: RequestContext, provider: EmailConfig): Promise<ResponseInternal> {
  const { method } = ctx.request
  // A provider sending codes: the verify-request page posts the code here.
  if (provider.code !== undefined && method === "POST" && ctx.request.body?.code !== undefined) {
    return (await import("./sign-in-code.js")).signInWithCode(ctx, provider)
  }
  const source = method === "POST" ? (ctx.request.body ?? {}) : ctx.request.query
  const token = typeof source.token === "string" ? source.token : ""
  const email = typeof source.email === "string" ? source.email : ""
  if (!token || !email) throw new Verification("The sign-in link has no token or no email")

  const bound = await isLinkBoundHere(ctx, token)
  if (method === "GET") {
    if (provider.confirmSignIn || !bound) {
      return renderConfirmEmailPage(pageContextOf(ctx), { providerId: provider.id, email, token, otherBrowser: !bound })
    }
  } else if (!ctx.csrfVerified || crossSite(ctx)) {
    // The CSRF token proves the POST came from the confirmation page, not from a scanner or another site.
    throw new MissingCSRF("The sign-in confirmation was not posted from its page")
  }

  // Once the link is used or refused, the binding that tied it to this browser goes with the
  // answer. Not for a refusal for now (throttled) or a store failure, after which the same link
  // works again; and a binding for another link is that link's, left alone.
  const linkEnded = () => {
    if (bound) ctx.cookiesAlways.push(linkBindingDeletion(ctx))
  }
  let invite: VerificationToken
  try {
    invite = await spendToken(ctx, provider, token, email)
  } catch (error) {
    if (error instanceof Verification) linkEnded()
    throw error
  }
  return signInWithInvite(ctx, provider, invite, linkEnded)
}

/**
 * Spends the link's token and returns it as stored: the address it was issued for, the stored
 * hash, its expiry. Attempts and wrong tokens are counted per address (see ./wrong-tokens.ts).
 */
async function spendToken(ctx: RequestContext, provider: EmailConfig, token: string, email: string): Promise<VerificationToken> {
  await admitTokenAttempt(ctx, provider, email)
  for (const stored of await storedTokens(ctx, provider, token)) {
    const invite = await callAdapter(ctx.config.adapter, "useVerificationToken", { identifier: email, token: stored })
    if (!invite) continue
    const expires = new Date(invite.expires).getTime()
    // Not "expired": the store's answer is broken, and the user should hear that, not that they were late.
    if (Number.isNaN(expires)) throw new AdapterError("useVerificationToken returned an expires that is not a date")
    if (!(expires > Date.now())) throw new Verification("The sign-in link has expired", { cause: { hasInvite: true, expired: true } })
    if (invite.identifier !== email) throw new Verification("The sign-in link belongs to another address", { cause: { hasInvite: true } })
    // The hash this lookup found it under, whatever the adapter echoed back.
    return { identifier: invite.identifier, token: stored, expires: new Date(expires) }
  }
  return refuseWrongToken(ctx, provider, email)
}
