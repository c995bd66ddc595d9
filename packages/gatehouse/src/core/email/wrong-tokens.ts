/**
 * Guessing sign-in tokens. The default token is 256 random bits, but `generateVerificationToken`
 * may make short ones (a 6-digit code), and nothing else stops someone trying them all for an
 * address. Wrong tokens are counted per address for as long as a link lives; at the limit the
 * address's outstanding links are spent (`deleteVerificationTokens`), so its owner must ask again
 * and a guesser has had only that many tries at it. An adapter that cannot delete by address has
 * every attempt counted instead, and past the limit refuses them all until the window ends.
 * @module
 */
import { Verification } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import { countEvent, secretKeyed } from "../event-counter.js"
import type { RequestContext } from "../request-context.js"
import { DEFAULT_LINK_MAX_AGE } from "./verification-token.js"

/** Wrong tokens tried for one address before its links are spent, unless the provider says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 5

interface Guarded {
  max: number
  /** Whether the adapter can spend an address's links; if not, every attempt is counted. */
  spends: boolean
  count: () => Promise<number>
}

/** The limit for `identifier` under `provider`, or `undefined` when it is turned off (`maxAttempts: false`). */
function guardOf(ctx: RequestContext, provider: EmailConfig, identifier: string): Guarded | undefined {
  if (provider.maxAttempts === false) return undefined
  const max = typeof provider.maxAttempts === "number" ? provider.maxAttempts : DEFAULT_MAX_ATTEMPTS
  const window = provider.maxAge ?? DEFAULT_LINK_MAX_AGE
  return {
    max,
    spends: typeof ctx.config.adapter?.deleteVerificationTokens === "function",
    count: async () => (await countEvent(ctx, `${provider.id}:wrong-token:${await secretKeyed(ctx, identifier)}`, window)).count,
  }
}

/**
 * Before a token is looked up: with an adapter that cannot spend links by address, counts this
 * attempt and refuses it past the limit.
 * @throws {Verification} past the limit.
 */
export async function admitTokenAttempt(ctx: RequestContext, provider: EmailConfig, identifier: string): Promise<void> {
  const guard = guardOf(ctx, provider, identifier)
  if (!guard || guard.spends) return
  if ((await guard.count()) > guard.max) throw tooMany(guard.max)
}

/**
 * After a token was not found for `identifier`: counts it, and at the limit spends every
 * outstanding link of the address.
 * @throws {Verification} always: the link is unknown, used, or now spent.
 */
export async function refuseWrongToken(ctx: RequestContext, provider: EmailConfig, identifier: string): Promise<never> {
  const guard = guardOf(ctx, provider, identifier)
  if (guard?.spends && (await guard.count()) >= guard.max) {
    await callAdapter(ctx.config.adapter, "deleteVerificationTokens", identifier)
    throw tooMany(guard.max)
  }
  throw new Verification("The sign-in link is unknown or was used already", { cause: { hasInvite: false } })
}

function tooMany(max: number): Verification {
  return new Verification(`More than ${max} wrong sign-in tokens for this address: its links are spent; ask for a new one`, {
    cause: { hasInvite: false, tooManyAttempts: true },
  })
}
