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
export async function checkCookie(ctx: RequestContext, provider: OAuthConfig, role: CheckCookie, value: string): Promise<Cookie> {
  const cookie = ctx.cookies[role]
  const token = await encode({
    token: { value, provider: provider.id },
    secret: [...ctx.config.secret],
    salt: cookie.name,
    maxAge: CHECK_COOKIE_MAX_AGE,
  })
  // A form_post callback is a cross-site POST, which carries no SameSite=Lax cookie: the checks
  // must be SameSite=None for it to arrive with them (browsers accept that only on Secure cookies).
  const crossSite = usesFormPost(provider) && cookie.options.secure === true
  return {
    name: cookie.name,
    value: token,
    options: {
      ...cookie.options,
      ...(crossSite && { sameSite: "none" as const }),
      expires: new Date(Date.now() + CHECK_COOKIE_MAX_AGE * 1000),
    },
  }
}

/**
 * The value the `role` check cookie holds for `provider`, and the cookie that clears it.
 * @throws {InvalidCheck} when the cookie is missing, does not decode, has expired, or was made for
 *   another provider (a check from one provider must not complete a sign-in with another).
 */
export async function useCheck(
  ctx: RequestContext,
  provider: OAuthConfig,
  role: CheckCookie,
): Promise<{ value: string; clear: Cookie }> {
  const cookie = ctx.cookies[role]
  const raw = ctx.request.cookies.get(cookie.name)
  let payload: { value?: unknown; provider?: unknown } | null = null
  if (raw) {
    try {
      payload = await decode({ token: raw, secret: [...ctx.config.secret], salt: cookie.name })
    } catch {
      payload = null
    }
  }
  if (!payload || typeof payload.value !== "string" || payload.provider !== provider.id) {
    throw new InvalidCheck(`${role} value could not be parsed`)
  }
  return { value: payload.value, clear: { name: cookie.name, value: "", options: { ...cookie.options, maxAge: 0 } } }
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
