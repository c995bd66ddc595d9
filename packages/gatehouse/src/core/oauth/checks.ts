/**
 * The OAuth checks (PKCE verifier, state, nonce) kept between the redirect to the provider and
 * the callback: each in its own cookie, as an encrypted token bound to the provider, living 15
 * minutes. Auth.js's format, so a sign-in started by one can finish on the other.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { CHECK_COOKIE_MAX_AGE, type Cookie, type CookieAttributes } from "../../cookies/defaults.js"
import { InvalidCheck } from "../../errors.js"
import { decode, encode } from "../../jwt/index.js"
import type { OAuthCheck, OAuthConfig } from "../../providers/types.js"
import { heldProviderBoundCookie, providerBoundCookie, providerBoundCookieDeletion } from "../provider-bound-cookie.js"
import type { RequestContext } from "../request-context.js"
import { usesFormPost } from "./authorization-server.js"

/** The cookie roles of the three checks. */
export type CheckCookie = "pkceCodeVerifier" | "state" | "nonce"

const CHECK_COOKIES: readonly CheckCookie[] = ["pkceCodeVerifier", "state", "nonce"]

/** Salt of the `state` parameter, which is itself an encrypted token (it may carry the proxy's origin). */
export const STATE_SALT = "encodedState"

/**
 * The checks in force for `provider`: its own (`pkce` by default), and always `state`, which ties
 * the callback to the browser and user that started the flow: PKCE alone protects nothing against
 * a provider that ignores `code_verifier` (RFC 9700 §2.1). Only an explicit `"none"` leaves `state`
 * out, and even then a redirect proxy needs it to know where to send the user back.
 */
export function checksOf(provider: OAuthConfig, redirectProxyUrl: string | undefined): ReadonlySet<OAuthCheck> {
  const checks = new Set<OAuthCheck>(provider.checks ?? ["pkce"])
  const optedOut = checks.delete("none")
  if (!optedOut || redirectProxyUrl) checks.add("state")
  return checks
}

/** A cookie holding `value` for the `role` check of `provider`. */
export function checkCookie(ctx: RequestContext, provider: OAuthConfig, role: CheckCookie, value: string): Promise<Cookie> {
  return providerBoundCookie(ctx, role, provider.id, value, crossSiteAttributes(ctx, provider, role))
}

/** The checks a callback found in its request's cookies for its provider. */
export interface PendingChecks {
  /**
   * The deletions of the check cookies this callback ends, with the attributes they were set with:
   * the provider's, and any that no longer decode. A callback ends its flow whether it succeeds or
   * not, so one pending verifier cannot be tried again and again; another provider's flow is left.
   */
  deletions: Cookie[]
  /**
   * The value the `role` check holds for the provider.
   * @throws {InvalidCheck} when its cookie is missing, does not decode, has expired, or was made
   *   for another provider.
   */
  use(role: CheckCookie): string
}

/** Reads the request's check cookies, each once, for the callback of `provider`. */
export async function pendingChecks(ctx: RequestContext, provider: OAuthConfig): Promise<PendingChecks> {
  const values = new Map<CheckCookie, string>()
  const deletions: Cookie[] = []
  for (const role of CHECK_COOKIES) {
    const held = await heldProviderBoundCookie(ctx, role)
    if (held === undefined || (held !== null && held.provider !== provider.id)) continue
    if (held !== null) values.set(role, held.value)
    deletions.push(providerBoundCookieDeletion(ctx, role, crossSiteAttributes(ctx, provider, role)))
  }
  return {
    deletions,
    use(role) {
      const value = values.get(role)
      if (value === undefined) throw new InvalidCheck(`${role} value could not be parsed`)
      return value
    },
  }
}

function crossSiteAttributes(ctx: RequestContext, provider: OAuthConfig, role: CheckCookie): Partial<CookieAttributes> | undefined {
  // A form_post callback is a cross-site POST, which carries no SameSite=Lax cookie: the checks
  // must be SameSite=None for it to arrive with them (browsers accept that only on Secure cookies).
  return usesFormPost(provider) && ctx.cookies[role].options.secure === true ? { sameSite: "none" } : undefined
}

/** What the `state` parameter carries, besides being matched against its cookie. */
export interface FlowState {
  /** Where the proxy sends the callback on to (behind a redirect proxy). */
  origin?: string
  /**
   * The id of the user signed in when the flow started, if any. The state is encrypted with the
   * secret, so neither the provider nor the URL's readers see it; an id, not a digest keyed with
   * the newest secret, so that a flow started before a secret rotation still finishes.
   */
  startedBy?: string
}

/** The `state` parameter: an encrypted token carrying a random value, the proxy's origin and who started the flow. */
export function encodeState(ctx: RequestContext, random: string, { origin, startedBy }: FlowState): Promise<string> {
  return encode({
    token: { random, ...(origin && { origin }), ...(startedBy && { startedBy }) },
    secret: [...ctx.config.secret],
    salt: STATE_SALT,
    maxAge: CHECK_COOKIE_MAX_AGE,
  })
}

/** The content of a `state` parameter, or `null` when it does not decode. */
export async function decodeState(
  ctx: RequestContext,
  state: string,
): Promise<{ random?: unknown; origin?: unknown; startedBy?: unknown } | null> {
  try {
    return await decode({ token: state, secret: [...ctx.config.secret], salt: STATE_SALT })
  } catch {
    return null
  }
}

/**
 * Refuses a callback whose signed-in user is not the one who started the flow: a flow started
 * signed in (a link) must finish as the same user, one started signed out must finish signed out.
 * Otherwise an account would be linked to, or signed in for, someone who never asked for it.
 *
 * @param state - The state, already matched against this browser's state cookie.
 * @throws {InvalidCheck} when the state does not decode or names another user (or none).
 */
export async function assertSameFlowUser(ctx: RequestContext, state: string, signedIn: Pick<AdapterUser, "id"> | null): Promise<void> {
  const decoded = await decodeState(ctx, state)
  if (!decoded) throw new InvalidCheck("State could not be decoded")
  const startedBy = typeof decoded.startedBy === "string" ? decoded.startedBy : undefined
  const finishedBy = signedIn ? String(signedIn.id) : undefined
  if (startedBy === finishedBy) return
  throw new InvalidCheck(
    startedBy === undefined
      ? "The sign-in was started signed out, but a user is signed in at its callback"
      : finishedBy === undefined
        ? "The sign-in was started by a signed-in user, but nobody is signed in at its callback"
        : "The sign-in was started by another user than the one signed in at its callback",
  )
}
