/**
 * The end of an email sign-in, once its link or code was spent: signing in as the address's user
 * (created on first sign-in) through `completeSignIn`, the token given back when the store fails
 * after spending it. Shared by links (./callback.ts) and codes (./sign-in-code.ts).
 * @module
 */
import type { AdapterUser, VerificationToken } from "../../adapters/index.js"
import { AdapterError } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import type { Account } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { completeSignIn } from "../complete-sign-in.js"
import type { ResponseInternal } from "../internal-response.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"

/**
 * Signs in as the address `invite` (a spent link or code) was for. `linkEnded` runs once the token is
 * used up for good (signed in, or refused by the app); a store failure gives the token back instead.
 */
export async function signInWithInvite(ctx: RequestContext, provider: EmailConfig, invite: VerificationToken, linkEnded: () => void): Promise<ResponseInternal> {
  const identifier = invite.identifier
  const { adapter } = ctx.config
  try {
    const existing = await callAdapter(adapter, "getUserByEmail", identifier)
    const user: AdapterUser = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null }
    const account: Account = { providerAccountId: identifier, userId: user.id, type: "email", provider: provider.id }
    const signedIn = await completeSignIn(ctx, { user, account })
    linkEnded()
    return signedIn
  } catch (error) {
    // The store failed after the link was spent: nobody signed in with it, so it is given back
    // (same hash, same expiry) and works once the store does. A refusal by the app spends it.
    if (error instanceof AdapterError) await giveBack(ctx, invite)
    else linkEnded()
    throw error
  }
}

/** Stores a spent token again; a failure here is logged, the original one reported. */
async function giveBack(ctx: RequestContext, invite: VerificationToken): Promise<void> {
  try {
    await callAdapter(ctx.config.adapter, "createVerificationToken", invite)
  } catch (error) {
    logError(ctx.logger, new AdapterError("A sign-in link spent by a sign-in that failed could not be given back", { cause: error }))
  }
}

/** Browsers say where a request came from; anything but this origin did not come from the page. */
export function crossSite(ctx: RequestContext): boolean {
  const site = ctx.request.headers.get("sec-fetch-site")
  return site !== null && site !== "same-origin"
}
