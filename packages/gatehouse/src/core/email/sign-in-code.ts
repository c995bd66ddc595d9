/**
 * `POST {basePath}/callback/<email provider>` with `code`: signing in with the code an email
 * provider with `code` sent, typed on the verify-request page. The code is stored only as a hash
 * made with a random nonce that the asking browser alone holds (its binding cookie, see
 * ./link-binding.ts), so a code typed in another browser, or posted by another site, finds
 * nothing. It is spent atomically by the store (`useVerificationToken`: no code compared in
 * memory, a replay finds nothing), wrong codes for the address are counted (./wrong-tokens.ts: at
 * most 5, then every outstanding code of the address is void), and the sign-in goes through
 * `completeSignIn`, the choke point, as a link's does (amr `otp`; a second factor is asked next
 * when one is due).
 * @module
 */
import type { VerificationToken } from "../../adapters/index.js"
import { AdapterError, MissingCSRF, Verification } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { crossSite, signInWithInvite } from "./address-sign-in.js"
import { codeNonceHere, linkBindingDeletion } from "./link-binding.js"
import { storedCodeTokens } from "./verification-token.js"
import { admitTokenAttempt, refuseWrongToken } from "./wrong-tokens.js"

/**
 * Signs in with the posted `code` for the posted `email`.
 *
 * @throws {MissingCSRF} when not posted from the page (CSRF token, same origin).
 * @throws {Verification} for a code asked for in another browser, wrong, spent, expired, or void
 *   after too many wrong tries.
 */
export async function signInWithCode(ctx: RequestContext, provider: EmailConfig): Promise<ResponseInternal> {
  if (!ctx.csrfVerified || crossSite(ctx)) throw new MissingCSRF("The sign-in code was not posted from its page")
  const body = ctx.request.body ?? {}
  const email = typeof body.email === "string" ? body.email : ""
  const code = typeof body.code === "string" ? body.code.replace(/\s/g, "") : ""
  if (!email) throw new Verification("The sign-in code came without its address")
  const nonce = codeNonceHere(ctx)
  // Without the asking browser's nonce no stored code can match: refused before any lookup.
  if (!nonce) throw new Verification("The sign-in code was asked for in another browser", { cause: { hasInvite: false } })

  let invite: VerificationToken
  try {
    invite = await spendCode(ctx, provider, nonce, email, code)
  } catch (error) {
    // Void after too many wrong tries: the binding goes too, so the page asks for a new code.
    if (error instanceof Verification && (error.cause as { tooManyAttempts?: boolean } | undefined)?.tooManyAttempts) {
      ctx.cookiesAlways.push(linkBindingDeletion(ctx))
    }
    throw error
  }
  return signInWithInvite(ctx, provider, invite, () => ctx.cookiesAlways.push(linkBindingDeletion(ctx)))
}

async function spendCode(ctx: RequestContext, provider: EmailConfig, nonce: string, email: string, code: string): Promise<VerificationToken> {
  await admitTokenAttempt(ctx, provider, email)
  if (/^\d{6,8}$/.test(code)) {
    for (const stored of await storedCodeTokens(ctx, provider, nonce, code)) {
      const invite = await callAdapter(ctx.config.adapter, "useVerificationToken", { identifier: email, token: stored })
      if (!invite) continue
      const expires = new Date(invite.expires).getTime()
      if (Number.isNaN(expires)) throw new AdapterError("useVerificationToken returned an expires that is not a date")
      if (!(expires > Date.now())) throw new Verification("The sign-in code has expired", { cause: { hasInvite: true, expired: true } })
      if (invite.identifier !== email) throw new Verification("The sign-in code belongs to another address", { cause: { hasInvite: true } })
      return { identifier: invite.identifier, token: stored, expires: new Date(expires) }
    }
  }
  return refuseWrongToken(ctx, provider, email)
}
