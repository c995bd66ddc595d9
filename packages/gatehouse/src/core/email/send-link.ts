/**
 * `POST {basePath}/signin/<email provider>`: emails a one-time sign-in link, or, for a provider
 * with `code`, a sign-in code to type on the verify-request page (see ./sign-in-code.ts). The
 * token is stored before the email goes out (a quick click must find it) and removed again when
 * sending fails (no token outlives a link nobody received). The asking browser gets the binding
 * cookie (see ./link-binding.ts): a keyed hash of the link's token, or the nonce a code's stored
 * hash was made with.
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
import { newEmailCode } from "../two-factor/email-code.js"
import { randomHex } from "../crypto.js"
import { codeBindingCookie, linkBindingCookie } from "./link-binding.js"
import { throttleSignInEmail } from "./rate-limit.js"
import { emailTokenLife, newVerificationToken, signInCodeDigits, signInLink, storedCodeTokens, storedTokens } from "./verification-token.js"

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

  const digits = signInCodeDigits(provider)
  const maxAge = emailTokenLife(provider)
  const expires = new Date(Date.now() + maxAge * 1000)
  // A code instead of a link: the email says the code, the browser keeps the nonce its stored hash needs.
  const sent = digits === undefined ? await newLink(ctx, provider, identifier) : await newCode(ctx, provider, identifier, digits)
  await callAdapter(adapter, "createVerificationToken", { identifier, token: sent.stored, expires })
  try {
    await provider.sendVerificationRequest({
      identifier,
      token: sent.token,
      ...(digits !== undefined && { code: sent.token }),
      expires,
      url: sent.url,
      provider,
      theme: ctx.config.theme,
      request: jsonRequest(ctx, body),
    })
  } catch (error) {
    await forgetToken(ctx, identifier, sent.stored)
    if (error instanceof AuthError && error.kind === "signIn") throw error
    throw new EmailSignInError(asError(error), { cause: { provider: provider.id } })
  }
  const link = { maxAge, expires }
  if (sent.nonce !== undefined) {
    return { redirect: sent.url, cookies: [codeBindingCookie(ctx, sent.nonce, link)] }
  }
  return {
    redirect: pageUrl(ctx, "verifyRequest", "verify-request", new URLSearchParams({ provider: provider.id, type: "email" })),
    cookies: [await linkBindingCookie(ctx, sent.token, link)],
  }
}

/** What is sent and what is stored: the token or code, its stored hash, the URL the email names, and a code's nonce. */
interface Sent {
  token: string
  stored: string
  url: string
  nonce?: string
}

async function newLink(ctx: RequestContext, provider: EmailConfig, identifier: string): Promise<Sent> {
  const token = await newVerificationToken(provider)
  const [stored] = await storedTokens(ctx, provider, token)
  return { token, stored: stored!, url: signInLink(ctx, provider, token, identifier) }
}

/**
 * A sign-in code: random digits, stored hashed with a random nonce that only the asking browser
 * gets (its binding cookie). The email names the page where the code is typed (the verify-request
 * page, which has the form), never a link that signs in.
 */
async function newCode(ctx: RequestContext, provider: EmailConfig, identifier: string, digits: number): Promise<Sent> {
  const code = newEmailCode(digits)
  const nonce = randomHex(16)
  const [stored] = await storedCodeTokens(ctx, provider, nonce, code)
  const url = pageUrl(ctx, "verifyRequest", "verify-request", new URLSearchParams({ provider: provider.id, type: "email", email: identifier }))
  return { token: code, stored: stored!, url: absolute(ctx, url), nonce }
}

/** A custom page may be configured as a path; emails need it absolute. */
function absolute(ctx: RequestContext, url: string): string {
  return new URL(url, ctx.origin).toString()
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
