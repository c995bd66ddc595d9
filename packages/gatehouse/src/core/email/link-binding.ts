/**
 * Sign-in links bound to the browser that asked for them. A link alone signs in whoever opens
 * it, so an attacker could mail a victim a link to the attacker's own account and have the victim
 * work inside it (login CSRF), or chain it with account linking. The browser that asks for a link
 * gets a short-lived HttpOnly, SameSite=Lax cookie holding a keyed hash of its token; a link
 * opened where that cookie does not match shows a page naming the account instead of signing in,
 * and the sign-in happens only when the person confirms there (the same page serves someone who
 * really did switch devices). The link's callback deletes the cookie once it used or refused the
 * link it binds, so nothing of a finished sign-in stays in the browser (a used link opened there
 * again asks first, then says it was used).
 * @module
 */
import type { Cookie } from "../../cookies/defaults.js"
import { equalBytes } from "../../jwt/constant-time.js"
import { sha256Hex } from "../../encoding/hex.js"
import type { RequestContext } from "../request-context.js"

/** Keyed, so the cookie does not tell the token, and no one can make one for a token they saw. */
function bindingOf(secret: string, token: string): Promise<string> {
  return sha256Hex(`${secret}\u0000email-link\u0000${token}`)
}

/** The cookie binding `token` to this browser for the `maxAge` seconds the link lives, until `expires`. */
export async function linkBindingCookie(ctx: RequestContext, token: string, link: { maxAge: number; expires: Date }): Promise<Cookie> {
  const { name, options } = ctx.cookies.emailLinkBinding
  return { name, value: await bindingOf(ctx.config.secret[0]!, token), options: { ...options, maxAge: link.maxAge, expires: link.expires } }
}

/** Whether this browser asked for the link carrying `token` (under any configured secret, so a rotation breaks no link). */
export async function isLinkBoundHere(ctx: RequestContext, token: string): Promise<boolean> {
  const held = ctx.request.cookies.get(ctx.cookies.emailLinkBinding.name)
  if (!held) return false
  const encoder = new TextEncoder()
  const bindings = await Promise.all(ctx.config.secret.map((secret) => bindingOf(secret, token)))
  return bindings.some((binding) => equalBytes(encoder.encode(held), encoder.encode(binding)))
}

/** The binding cookie's value for a sign-in code: the code's random nonce, which its stored hash needs. */
const CODE_BINDING = /^code\.([0-9a-f]{32})$/

/**
 * The cookie binding a sign-in code to this browser: it holds the random nonce the stored hash of
 * the code was made with (see ./sign-in-code.ts), so the code proves nothing without this cookie.
 */
export function codeBindingCookie(ctx: RequestContext, nonce: string, link: { maxAge: number; expires: Date }): Cookie {
  const { name, options } = ctx.cookies.emailLinkBinding
  return { name, value: `code.${nonce}`, options: { ...options, maxAge: link.maxAge, expires: link.expires } }
}

/** The nonce of the sign-in code this browser asked for, if it holds one. */
export function codeNonceHere(ctx: RequestContext): string | undefined {
  const held = ctx.request.cookies.get(ctx.cookies.emailLinkBinding.name)
  return held ? CODE_BINDING.exec(held)?.[1] : undefined
}

/** The deletion of the binding cookie. */
export function linkBindingDeletion(ctx: RequestContext): Cookie {
  const { name, options } = ctx.cookies.emailLinkBinding
  return { name, value: "", options: { ...options, maxAge: 0 } }
}
