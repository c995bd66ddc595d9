/**
 * The OAuth checks (PKCE verifier, state, nonce) kept between the redirect to the provider and
 * the callback: each in its own cookie, as an encrypted token bound to the provider, living 15
 * minutes. Auth.js's format, so a sign-in started by one can finish on the other.
 * @module
 */
import { CHECK_COOKIE_MAX_AGE, type Cookie } from "../../cookies/defaults.js"
import { InvalidCheck } from "../../errors.js"
import { decode, encode } from "../../jwt/index.js"
import type { OAuthCheck, OAuthConfig } from "../../providers/types.js"
import { providerBoundCookie, readProviderBoundCookie } from "../provider-bound-cookie.js"
import type { RequestContext } from "../request-context.js"
import { usesFormPost } from "./authorization-server.js"

/** The cookie roles of the three checks. */
export type CheckCookie = "pkceCodeVerifier" | "state" | "nonce"

/** Salt of the `state` parameter, which is itself an encrypted token (it may carry the proxy's origin). */
export const STATE_SALT = "encodedState"

/** The checks in force for `provider`: its own, `pkce` by default, and `state` behind a redirect proxy. */
export function checksOf(provider: OAuthConfig, redirectProxyUrl: string | undefined): ReadonlySet<OAuthCheck> {
  const checks = new Set<OAuthCheck>(provider.checks ?? ["pkce"])
  // The proxy must know where to send the user back, and the state is what carries it.
  if (redirectProxyUrl) checks.add("state")
  return checks
}

/** A cookie holding `value` for the `role` check of `provider`. */
export function checkCookie(ctx: RequestContext, provider: OAuthConfig, role: CheckCookie, value: string): Promise<Cookie> {
  // A form_post callback is a cross-site POST, which carries no SameSite=Lax cookie: the checks
  // must be SameSite=None for it to arrive with them (browsers accept that only on Secure cookies).
  const crossSite = usesFormPost(provider) && ctx.cookies[role].options.secure === true
  return providerBoundCookie(ctx, role, provider.id, value, crossSite ? { sameSite: "none" } : undefined)
}

/**
 * The value the `role` check cookie holds for `provider`, and the cookie that clears it.
 * @throws {InvalidCheck} when the cookie is missing, does not decode, has expired, or was made for
 *   another provider.
 */
export async function useCheck(
  ctx: RequestContext,
  provider: OAuthConfig,
  role: CheckCookie,
): Promise<{ value: string; clear: Cookie }> {
  const check = await readProviderBoundCookie(ctx, role, provider.id)
  if (!check) throw new InvalidCheck(`${role} value could not be parsed`)
  return check
}

/** The `state` parameter: an encrypted token carrying a random value and, behind a proxy, the origin. */
export function encodeState(ctx: RequestContext, random: string, origin: string | undefined): Promise<string> {
  return encode({
    token: { random, ...(origin && { origin }) },
    secret: [...ctx.config.secret],
    salt: STATE_SALT,
    maxAge: CHECK_COOKIE_MAX_AGE,
  })
}

/** The content of a `state` parameter, or `null` when it does not decode. */
export async function decodeState(ctx: RequestContext, state: string): Promise<{ random?: unknown; origin?: unknown } | null> {
  try {
    return await decode({ token: state, secret: [...ctx.config.secret], salt: STATE_SALT })
  } catch {
    return null
  }
}
