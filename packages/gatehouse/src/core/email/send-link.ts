/**
 * `POST {basePath}/signin/<email provider>`: emails a one-time sign-in link. The token is stored
 * before the email goes out (a quick click must find it) and removed again when sending fails
 * (no token outlives a link nobody received). The asking browser gets the link's binding cookie
 * (see ./link-binding.ts).
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { AuthError, EmailSignInError } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import type { Account } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import type { ResponseInternal } from "../internal-response.js"
import { jsonRequest } from "../json-request.js"
import { logError } from "../logger.js"
import { pageUrl, type RequestContext } from "../request-context.js"
import { runSignInCallback } from "../sign-in-callback.js"
import { emailIdentifier } from "./identifier.js"
import { linkBindingCookie } from "./link-binding.js"
import { throttleSignInEmail } from "./rate-limit.js"
import { DEFAULT_LINK_MAX_AGE, newVerificationToken, signInLink, storedTokens } from "./verification-token.js"

/**
 * Sends the sign-in link for the posted `email` and goes to the verify-request page. The `signIn`
 * callback is asked first, with `email.verificationRequest: true`.
 *
 * @throws {InvalidEmail} for an address no link can be sent to.
 * @throws {EmailRateLimited} past the provider's `rateLimit`.
 * @throws {EmailSignInError} when sending fails (the stored token is removed again).
 */
export async function sendSignInLink(ctx: RequestContext, provider: EmailConfig): Promise<ResponseInternal> {
  const body = ctx.request.body ?? {}
  const identifier = emailIdentifier(provider, body.email)
  const { adapter } = ctx.config
  const existing = await callAdapter(adapter, "getUserByEmail", identifier)
  const user: AdapterUser = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null }
  const account: Account = { providerAccountId: identifier, userId: user.id, type: "email", provider: provider.id }
  const redirect = await runSignInCallback(ctx, { user, account, email: { verificationRequest: true } })
  if (redirect) return { redirect }
  // Only emails that would go out count: addresses the application refuses cannot use up anyone's quota.
  await throttleSignInEmail(ctx, provider, identifier)

  const token = await newVerificationToken(provider)
  const [stored] = await storedTokens(ctx, provider, token)
  const maxAge = provider.maxAge ?? DEFAULT_LINK_MAX_AGE
  const expires = new Date(Date.now() + maxAge * 1000)
  await callAdapter(adapter, "createVerificationToken", { identifier, token: stored!, expires })
  try {
    await provider.sendVerificationRequest({
      identifier,
      token,
      expires,
      url: signInLink(ctx, provider, token, identifier),
      provider,
      theme: ctx.config.theme,
      request: jsonRequest(ctx, body),
    })
  } catch (error) {
    await forgetToken(ctx, identifier, stored!)
    if (error instanceof AuthError && error.kind === "signIn") throw error
    throw new EmailSignInError(asError(error), { cause: { provider: provider.id } })
  }
  return {
    redirect: pageUrl(ctx, "verifyRequest", "verify-request", new URLSearchParams({ provider: provider.id, type: "email" })),
    cookies: [await linkBindingCookie(ctx, token, { maxAge, expires })],
  }
}

/** Removes the token of a link that was never sent; a failure here is logged, the send error reported. */
async function forgetToken(ctx: RequestContext, identifier: string, token: string): Promise<void> {
  try {
    await callAdapter(ctx.config.adapter, "useVerificationToken", { identifier, token })
  } catch (error) {
    logError(ctx.logger, error)
  }
}

/** What a sender threw, as an `Error` even when it threw something without a string form. */
function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown
  try {
    return new Error(String(thrown))
  } catch {
    return new Error("sendVerificationRequest threw a value that cannot be shown")
  }
}
