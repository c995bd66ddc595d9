/**
 * The email code as a second factor, for a pending sign-in: sending it (to the user's verified
 * address only, through the first email provider, throttled per pending sign-in) and checking it
 * (constant time, bound to the pending id, void after {@link EMAIL_CODE_MAX_ATTEMPTS} wrong tries).
 * The code itself is kept nowhere: the pending cookie holds a keyed hash of it (`email-code.ts`).
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import { AuthError, EmailSignInError, InvalidTwoFactorCode, RateLimited } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import { throttleSignInEmail } from "../email/rate-limit.js"
import { countEvent } from "../event-counter.js"
import type { ResponseInternal } from "../internal-response.js"
import { jsonResponse } from "../internal-response.js"
import { jsonRequest } from "../json-request.js"
import { logError } from "../logger.js"
import { pageUrl, routeUrl, type RequestContext } from "../request-context.js"
import { isJsonRequest } from "../request-shape.js"
import { checkEmailCode, EMAIL_CODE_MAX_ATTEMPTS, issueEmailCode } from "./email-code.js"
import { PENDING_MEMORY, writePending, type PendingSignIn } from "./pending.js"

/** Seconds between two codes sent for one pending sign-in. */
export const EMAIL_CODE_RESEND_INTERVAL = 30
/** Codes one pending sign-in may have sent, the first included. */
export const EMAIL_CODE_MAX_SENDS = 5

/**
 * Whether the email code may be the second factor of `pending`: not when its first factor was the
 * mailbox (an email link or code), for a code to the same mailbox would prove nothing more.
 */
export function emailCodeAllowed(pending: PendingSignIn): boolean {
  return pending.account?.type !== "email"
}

/** The user's address a code may go to: only a verified one. */
function verifiedAddress(user: AdapterUser | null): string | undefined {
  return user && typeof user.email === "string" && user.email !== "" && user.emailVerified ? user.email : undefined
}

/** The first email provider, which sends the codes. */
function emailProviderOf(ctx: RequestContext): EmailConfig | undefined {
  return ctx.config.providers.find((candidate): candidate is EmailConfig => candidate.type === "email")
}

/**
 * Sends a new code for `pending` to its user's verified address and returns the pending cookies
 * holding it (the previous code, if any, is replaced). Counted per pending id: at most one per
 * {@link EMAIL_CODE_RESEND_INTERVAL} seconds and {@link EMAIL_CODE_MAX_SENDS} in all.
 *
 * @throws {InvalidTwoFactorCode} when the email code is off, there is no email provider, the
 *   user has no verified address, or the first factor was the mailbox (nothing is sent).
 * @throws {RateLimited} when resent too soon or too often for this sign-in.
 * @throws {EmailRateLimited} past the provider's limits on emails to the address or from the client.
 * @throws {EmailSignInError} when the provider fails to send.
 */
export async function sendPendingEmailCode(ctx: RequestContext, pending: PendingSignIn): Promise<Cookie[]> {
  const settings = ctx.config.twoFactor?.email
  const provider = emailProviderOf(ctx)
  if (!settings || !provider) throw new InvalidTwoFactorCode("The email code is not available here")
  if (!emailCodeAllowed(pending)) throw new InvalidTwoFactorCode("The email code cannot be the second factor of an email sign-in")
  const address = verifiedAddress(await callAdapter(ctx.config.adapter, "getUser", pending.uid))
  if (!address) throw new InvalidTwoFactorCode("The user has no verified email address to send a code to")

  const spacing = await countEvent(ctx, `two-factor:email-spacing:${pending.pid}`, EMAIL_CODE_RESEND_INTERVAL, { durable: true })
  if (spacing.count > 1) throw new RateLimited("An email code was sent for this sign-in moments ago", { retryAfter: spacing.resetsIn })
  const sends = await countEvent(ctx, `two-factor:email-sends:${pending.pid}`, PENDING_MEMORY, { durable: true })
  if (sends.count > EMAIL_CODE_MAX_SENDS) throw new RateLimited(`More than ${EMAIL_CODE_MAX_SENDS} email codes for one sign-in`, { retryAfter: sends.resetsIn })
  // Across pending sign-ins too: whoever holds the password must not be able to flood the
  // mailbox by starting sign-in after sign-in. The provider's limits on sign-in emails apply.
  await throttleSignInEmail(ctx, provider, address)

  const { code, state } = await issueEmailCode(ctx.config, pending.pid, { digits: settings.digits, notAfter: pending.exp })
  try {
    await provider.sendVerificationRequest({
      identifier: address,
      token: code,
      code,
      expires: new Date(state.exp * 1000),
      url: routeUrl(ctx, "two-factor"),
      provider,
      theme: ctx.config.theme,
      request: jsonRequest(ctx, {}),
    })
  } catch (error) {
    if (error instanceof AuthError && error.kind === "signIn") throw error
    throw new EmailSignInError(error instanceof Error ? error : new Error("The email code could not be sent"), { cause: { provider: provider.id } })
  }
  return writePending(ctx, { ...pending, emailCode: state })
}

/**
 * The first code of a pending sign-in whose only factor is the email code, sent as it starts: the
 * pending cookies holding it, or `cookies` as they were when it could not be sent (logged; the
 * page offers to send one).
 */
export async function sendFirstEmailCode(ctx: RequestContext, pending: PendingSignIn, cookies: Cookie[]): Promise<Cookie[]> {
  try {
    return await sendPendingEmailCode(ctx, pending)
  } catch (error) {
    logError(ctx.logger, error)
    return cookies
  }
}

/**
 * `POST two-factor` with `method=email` and `action=send` (or no code): sends a code and answers
 * the two-factor page (`?sent=email`), or `{ sent: true }` to a JSON request.
 */
export async function emailCodeSend(ctx: RequestContext, pending: PendingSignIn): Promise<ResponseInternal> {
  const cookies = await sendPendingEmailCode(ctx, pending)
  if (isJsonRequest(ctx.request)) return jsonResponse({ sent: true }, { noCache: true, cookies })
  return { redirect: pageUrl(ctx, "twoFactor", "two-factor", new URLSearchParams({ sent: "email" })), cookies }
}

/**
 * Whether `code` is the email code sent for `pending`. A code tried wrong
 * {@link EMAIL_CODE_MAX_ATTEMPTS} times is void: later tries fail unchecked, and the cookie
 * forgets it (`voided`), so the page offers to send a new one.
 */
export async function checkPendingEmailCode(ctx: RequestContext, pending: PendingSignIn, code: string): Promise<{ right: boolean; cookies: Cookie[] }> {
  const state = pending.emailCode
  if (!state || !emailCodeAllowed(pending)) return { right: false, cookies: [] }
  // Per code: a new code starts again (the pending sign-in's own count still runs on).
  const { count } = await countEvent(ctx, `two-factor:email-tries:${pending.pid}:${state.hash}`, PENDING_MEMORY, { durable: true })
  if (count > EMAIL_CODE_MAX_ATTEMPTS) return { right: false, cookies: await forgetCode(ctx, pending) }
  const right = await checkEmailCode(ctx.config, pending.pid, state, code)
  if (!right && count >= EMAIL_CODE_MAX_ATTEMPTS) return { right, cookies: await forgetCode(ctx, pending) }
  return { right, cookies: [] }
}

async function forgetCode(ctx: RequestContext, pending: PendingSignIn): Promise<Cookie[]> {
  const { emailCode: _void, ...rest } = pending
  return writePending(ctx, rest)
}
