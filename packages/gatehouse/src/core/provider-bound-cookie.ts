/**
 * Short-lived cookies that carry one value for one provider: the OAuth checks (PKCE verifier,
 * state, nonce) and the WebAuthn challenge. Each holds an encrypted token `{ value, provider }`
 * salted with the cookie's name and living 15 minutes: Auth.js's format, so a sign-in started by
 * one library can finish on the other.
 * @module
 */
import { CHECK_COOKIE_MAX_AGE, type Cookie, type CookieAttributes, type CookiesOptions } from "../cookies/defaults.js"
import { decode, encode } from "../jwt/index.js"
import type { RequestContext } from "./request-context.js"

/** The cookie roles that hold a provider-bound value. */
export type ProviderBoundRole = Extract<keyof CookiesOptions, "pkceCodeVerifier" | "state" | "nonce" | "webauthnChallenge">

/** A cookie holding `value` for provider `providerId`; `attributes` override the configured ones. */
export async function providerBoundCookie(
  ctx: RequestContext,
  role: ProviderBoundRole,
  providerId: string,
  value: string,
  attributes?: Partial<CookieAttributes>,
): Promise<Cookie> {
  const cookie = ctx.cookies[role]
  const token = await encode({
    token: { value, provider: providerId },
    secret: [...ctx.config.secret],
    salt: cookie.name,
    maxAge: CHECK_COOKIE_MAX_AGE,
  })
  return {
    name: cookie.name,
    value: token,
    options: { ...cookie.options, ...attributes, expires: new Date(Date.now() + CHECK_COOKIE_MAX_AGE * 1000) },
  }
}

/**
 * The value the `role` cookie holds for `providerId`, and the cookie that clears it; `undefined`
 * when the cookie is missing, does not decode, has expired, or was made for another provider
 * (a value from one provider must never complete a sign-in with another).
 */
export async function readProviderBoundCookie(
  ctx: RequestContext,
  role: ProviderBoundRole,
  providerId: string,
): Promise<{ value: string; clear: Cookie } | undefined> {
  const cookie = ctx.cookies[role]
  const raw = ctx.request.cookies.get(cookie.name)
  if (!raw) return undefined
  let payload: { value?: unknown; provider?: unknown } | null
  try {
    payload = await decode({ token: raw, secret: [...ctx.config.secret], salt: cookie.name })
  } catch {
    return undefined
  }
  if (!payload || typeof payload.value !== "string" || payload.provider !== providerId) return undefined
  return { value: payload.value, clear: { name: cookie.name, value: "", options: { ...cookie.options, maxAge: 0 } } }
}
