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
 * What the request's `role` cookie holds, whichever provider it was made for: `undefined` when
 * there is none, `null` when it cannot be read (tampered, expired, another secret).
 */
export async function heldProviderBoundCookie(ctx: RequestContext, role: ProviderBoundRole): Promise<{ value: string; provider: unknown } | null | undefined> {
  const cookie = ctx.cookies[role]
  const raw = ctx.request.cookies.get(cookie.name)
  if (!raw) return undefined
  try {
    const payload = await decode<{ value?: unknown; provider?: unknown }>({ token: raw, secret: [...ctx.config.secret], salt: cookie.name })
    return payload && typeof payload.value === "string" ? { value: payload.value, provider: payload.provider } : null
  } catch {
    return null
  }
}

/** The deletion of the `role` cookie: its configured attributes, with `attributes` over them. */
export function providerBoundCookieDeletion(ctx: RequestContext, role: ProviderBoundRole, attributes?: Partial<CookieAttributes>): Cookie {
  const { name, options } = ctx.cookies[role]
  return { name, value: "", options: { ...options, ...attributes, maxAge: 0 } }
}
