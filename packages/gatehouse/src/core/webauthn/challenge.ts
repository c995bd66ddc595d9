/**
 * The challenge of a ceremony, kept between the options and the response in the
 * `authjs.challenge` cookie (Auth.js's format: a provider-bound cookie whose value is itself an
 * encrypted token), and spent once: a captured cookie and response cannot sign in twice, even
 * with an authenticator whose counter never moves.
 * @module
 */
import { CHECK_COOKIE_MAX_AGE, type Cookie } from "../../cookies/defaults.js"
import { WebAuthnVerificationError } from "../../errors.js"
import { CLOCK_TOLERANCE as DECODE_CLOCK_TOLERANCE, decode, encode } from "../../jwt/index.js"
import type { WebAuthnConfig } from "../../providers/types.js"
import { countEvent, secretKeyed } from "../event-counter.js"
import { heldProviderBoundCookie, providerBoundCookie, providerBoundCookieDeletion } from "../provider-bound-cookie.js"
import type { RequestContext } from "../request-context.js"

const CHALLENGE_SALT = "encodedWebauthnChallenge"

/** Who a registration is for: the signed-in user's id, or a new user's address and name (as Auth.js keeps them). */
export interface RegisterData {
  id?: string
  email?: string | null
  name?: string | null
}

/** What the challenge cookie holds. */
export interface ChallengeData {
  challenge: string
  /** Present for a registration only. */
  registerData?: RegisterData
}

/** The cookie keeping `data` for `provider` for 15 minutes. */
export async function challengeCookie(ctx: RequestContext, provider: WebAuthnConfig, data: ChallengeData): Promise<Cookie> {
  const value = await encode({ token: { ...data }, secret: [...ctx.config.secret], salt: CHALLENGE_SALT, maxAge: CHECK_COOKIE_MAX_AGE })
  return providerBoundCookie(ctx, "webauthnChallenge", provider.id, value)
}

/**
 * Takes this request's challenge for `provider`: its cookie's deletion goes out with whatever the
 * callback answers, success or refusal (the callback ends the ceremony either way, and a browser
 * keeps no challenge it can no longer use). A cookie that no longer decodes is deleted too;
 * another provider's is left for that provider's ceremony. `undefined` when there is none for
 * `provider`, or it does not decode or has expired.
 */
export async function takeChallenge(ctx: RequestContext, provider: WebAuthnConfig): Promise<ChallengeData | undefined> {
  const held = await heldProviderBoundCookie(ctx, "webauthnChallenge")
  if (held === undefined || (held !== null && held.provider !== provider.id)) return undefined
  ctx.cookiesAlways.push(providerBoundCookieDeletion(ctx, "webauthnChallenge"))
  if (held === null) return undefined
  let payload: { challenge?: unknown; registerData?: unknown } | null
  try {
    payload = await decode({ token: held.value, secret: [...ctx.config.secret], salt: CHALLENGE_SALT })
  } catch {
    payload = null
  }
  if (!payload || typeof payload.challenge !== "string") return undefined
  const { registerData } = payload
  const data: ChallengeData = { challenge: payload.challenge }
  if (typeof registerData === "object" && registerData !== null) data.registerData = registerData as RegisterData
  return data
}

/**
 * Marks `challenge` used, after its response verified.
 * @throws {WebAuthnVerificationError} when it was used before.
 */
export async function spendChallenge(ctx: RequestContext, challenge: string): Promise<void> {
  // Remembered for as long as any cookie holding it can still decode: its whole life, plus the
  // clock tolerance `decode` allows, counted from now (the latest it can have been issued). In the
  // database when the adapter can count: a shared store that forgets (restarted empty, evicting)
  // would otherwise accept the captured answer again.
  const window = CHECK_COOKIE_MAX_AGE + DECODE_CLOCK_TOLERANCE
  const { count } = await countEvent(ctx, `webauthn-challenge:${await secretKeyed(ctx, challenge)}`, window, { durable: true })
  if (count !== 1) throw new WebAuthnVerificationError("This challenge was already used")
}
