/**
 * Guessing sign-in tokens. The default token is 256 random bits, which nobody guesses, but
 * `generateVerificationToken` may make short ones (a 6-digit code). Then wrong tokens for one
 * address are counted for as long as a link lives, and at the limit the address's outstanding
 * links are spent (`deleteVerificationTokens`), so a guesser has had that many tries and the owner
 * asks again. Lookups are also limited per minute before they happen, so a burst of parallel
 * guesses (all looked up before any failed) gets no more tries than the limit. An adapter that
 * cannot delete by address has every attempt counted instead, and past the limit all are refused
 * until the window ends. With default tokens nothing is counted unless `maxAttempts` is set: a
 * limit there protects nothing and would let anyone spend a stranger's links.
 * @module
 */
import { Verification } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import { countEvent, secretKeyed } from "../event-counter.js"
import type { RequestContext } from "../request-context.js"
import { emailTokenLife } from "./verification-token.js"

/** Wrong tokens for one address before its links are spent, when the provider makes its own tokens. */
export const DEFAULT_MAX_ATTEMPTS = 5

/** Seconds over which lookups for one address are limited before they happen. */
const BURST_WINDOW = 60

interface Guard {
  max: number
  /** Whether the adapter can spend an address's links; if not, every attempt counts as wrong. */
  spends: boolean
  /** Counts one event for the address under `kind`, in a window of `seconds`. */
  count(kind: string, seconds: number): Promise<number>
}

function guardOf(ctx: RequestContext, provider: EmailConfig, identifier: string): Guard | undefined {
  const { maxAttempts } = provider
  // A sign-in code is short: always counted, never more than DEFAULT_MAX_ATTEMPTS (5) tries.
  const max = provider.code !== undefined
    ? Math.min(typeof maxAttempts === "number" ? maxAttempts : DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_ATTEMPTS)
    : maxAttempts === false ? undefined : typeof maxAttempts === "number" ? maxAttempts : provider.generateVerificationToken ? DEFAULT_MAX_ATTEMPTS : undefined
  if (max === undefined) return undefined
  return {
    max,
    spends: typeof ctx.config.adapter?.deleteVerificationTokens === "function",
    count: async (kind, seconds) => (await countEvent(ctx, `${provider.id}:${kind}:${await secretKeyed(ctx, identifier)}`, seconds)).count,
  }
}

/**
 * Before a token is looked up: counts the lookup, and refuses it past the limit (per minute, or
 * for the link's lifetime where the adapter cannot spend links).
 * @throws {Verification} past the limit.
 */
export async function admitTokenAttempt(ctx: RequestContext, provider: EmailConfig, identifier: string): Promise<void> {
  const guard = guardOf(ctx, provider, identifier)
  if (!guard) return
  const over = guard.spends
    ? (await guard.count("token-burst", BURST_WINDOW)) > guard.max
    : (await guard.count("wrong-token", emailTokenLife(provider))) > guard.max
  if (over) throw tooMany(guard.max)
}

/**
 * After no link was found for `identifier`: counts the wrong token and, at the limit, spends
 * every outstanding link of the address.
 * @throws {Verification} always: the link is unknown, used, or now spent.
 */
export async function refuseWrongToken(ctx: RequestContext, provider: EmailConfig, identifier: string): Promise<never> {
  const guard = guardOf(ctx, provider, identifier)
  if (guard?.spends && (await guard.count("wrong-token", emailTokenLife(provider))) >= guard.max) {
    await callAdapter(ctx.config.adapter, "deleteVerificationTokens", identifier)
    throw tooMany(guard.max)
  }
  throw new Verification("The sign-in link is unknown or was used already", { cause: { hasInvite: false } })
}

function tooMany(max: number): Verification {
  return new Verification(`Too many attempts (${max}) at the sign-in links of this address: ask for a new one`, {
    cause: { hasInvite: false, tooManyAttempts: true },
  })
}
